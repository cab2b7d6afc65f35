"""Bad arguments raise ValueError with the command line's own one-line
message (a value its parser refuses) or TypeError naming the parameter (a
value of the wrong type), for every function, and the interpreter lives
on."""

import subprocess
import sys
import textwrap

import pytest

import deckodds
from deckodds._core import COMMANDS, command_line, python_name
from conftest import cli_error

from test_signatures import function_of, required_params


@pytest.mark.parametrize(
    "function, params",
    [
        (deckodds.blackjack.exact, dict(decks=0)),
        (deckodds.blackjack.exact, dict(decks=65)),
        (deckodds.blackjack.mc, dict(trials=-1)),
        (deckodds.blackjack.player, dict(decks="nine", float=True)),
        (deckodds.idiots_delight.mc, dict(trials=-1)),
        (deckodds.idiots_delight.mc, dict(shuffle="x")),
        (deckodds.idiots_delight.exact, dict(suits=0)),
        (deckodds.idiots_delight.exact, dict(suits=4, ranks=13)),
        (deckodds.roll_call.exact, dict(ranks=1)),
        (deckodds.roll_call.mc, dict(count="sometimes")),
        (deckodds.prisoners_patience.mc, dict(stack_move="x")),
        (deckodds.klondike.mc, dict(draw=2)),
        (deckodds.idiots_delight.mc, dict(until_halfwidth=-0.1)),
    ],
)
def test_bad_values_raise_the_command_lines_message(function, params):
    with pytest.raises(ValueError) as raised:
        function(**params, quiet=True)
    path = function.__module__.split(".")[-1].replace("_", "-"), function.__name__.replace("_", "-")
    spec_path = next(tuple(s["path"]) for s in COMMANDS if tuple(s["path"]) == path)
    argv = command_line(spec_path, params)
    argv.remove("--format")
    argv.remove("json")
    assert str(raised.value) == cli_error(*argv)


def test_every_function_refuses_values_of_the_wrong_type_naming_the_parameter():
    wrong = {
        "integer": ["10", 1.5, True],
        "real": ["0.1", True],
        "integer-or-text": [2.5, [2]],
        "text": [1.5, ["a"]],
        "flag": [1, "yes"],
    }
    checked = 0
    for spec in COMMANDS:
        function = function_of(spec["path"])
        for option in spec["options"]:
            for value in wrong[option["kind"]]:
                with pytest.raises(TypeError) as raised:
                    function(**{**required_params(spec), python_name(option): value})
                assert str(raised.value).startswith(python_name(option) + " must be"), raised.value
                checked += 1
        with pytest.raises(TypeError):
            function(threads="2")
        with pytest.raises(TypeError):
            function(no_such_option=1)
    assert checked > 200


def test_every_function_refuses_a_negative_count_with_the_command_lines_message():
    for spec in COMMANDS:
        function = function_of(spec["path"])
        for option in spec["options"]:
            if option["kind"] != "integer":
                continue
            params = {**required_params(spec), python_name(option): -1}
            with pytest.raises(ValueError) as raised:
                function(**params, quiet=True)
            argv = [word for word in command_line(tuple(spec["path"]), params) if word not in ("--format", "json")]
            assert str(raised.value) == cli_error(*argv), spec["path"]


def test_the_interpreter_survives_every_bad_call():
    # In a child interpreter, so that a crash (an abort, a panic across the
    # FFI) would show as its exit status rather than end the test run.
    program = textwrap.dedent(
        """
        import deckodds
        from deckodds._core import COMMANDS, python_name
        from test_signatures import function_of, required_params
        refused = 0
        accepted = []
        for spec in COMMANDS:
            function = function_of(spec["path"])
            for option in spec["options"]:
                for value in (-1, "x", "-", "\\n"):
                    params = {**required_params(spec), python_name(option): value}
                    try:
                        function(**params, quiet=True)
                        accepted.append((spec["path"], params))
                    except (ValueError, TypeError, OSError):
                        refused += 1
        assert deckodds.roll_call.first_pass(ranks=4, copies=2).document["distributions"]
        print("survived", refused, accepted)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=str(__import__("pathlib").Path(__file__).parent),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("survived "), done.stdout
