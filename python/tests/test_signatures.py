"""Every command of the command line has its Python function, whose
parameters are the command's options under the same names and defaults
(read from clap by deckodds._native._commands()), and the generated
modules are what tools/generate.py writes today: the two cannot drift."""

import importlib
import inspect
import sys
from pathlib import Path

import deckodds
from deckodds._core import COMMANDS, COMMON, python_default, python_name

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def function_of(path):
    module = importlib.import_module("deckodds." + path[0].replace("-", "_"))
    return getattr(module, "_".join(part.replace("-", "_") for part in path[1:]))


def test_every_game_command_is_offered():
    paths = {tuple(spec["path"]) for spec in COMMANDS}
    # The commands the issue names, and the nested ones.
    for path in [
        ("blackjack", "exact"),
        ("blackjack", "player"),
        ("blackjack", "player", "compare"),
        ("idiots-delight", "mc"),
        ("idiots-delight", "exact"),
        ("roll-call", "exact"),
        ("roll-call", "mc"),
        ("prisoners-patience", "solve"),
        ("klondike", "mc"),
    ]:
        assert path in paths
    assert not any(path[0] in ("reproduce", "merge", "rules", "man", "completions") for path in paths)


def test_every_function_signature_is_its_commands_options():
    for spec in COMMANDS:
        function = function_of(spec["path"])
        parameters = inspect.signature(function).parameters
        expected = [python_name(option) for option in spec["options"]] + list(COMMON)
        assert list(parameters) == expected, spec["path"]
        for option in spec["options"]:
            parameter = parameters[python_name(option)]
            assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
            if option["required"]:
                assert parameter.default is inspect.Parameter.empty, (spec["path"], option["name"])
            else:
                default = python_default(option)
                assert parameter.default == default and type(parameter.default) is type(default), (
                    spec["path"],
                    option["name"],
                    parameter.default,
                    option["default"],
                )
        for name, default in COMMON.items():
            assert parameters[name].default == default


def test_defaults_are_the_command_lines():
    # The examples, as the command line defines them today.
    exact = inspect.signature(deckodds.blackjack.exact).parameters
    assert (exact["decks"].default, exact["h17"].default, exact["peek"].default) == (2, False, False)
    mc = inspect.signature(deckodds.idiots_delight.mc).parameters
    assert (mc["trials"].default, mc["seed"].default, mc["shuffle"].default) == (10**6, 1, "uniform")
    roll_call = inspect.signature(deckodds.roll_call.exact).parameters
    assert (roll_call["ranks"].default, roll_call["copies"].default) == (13, 4)


def test_the_generated_modules_are_up_to_date():
    sys.path.insert(0, str(TOOLS))
    try:
        import generate
    finally:
        sys.path.remove(str(TOOLS))
    package = Path(deckodds.__file__).parent
    for module, text in generate.render_modules(COMMANDS, python_default, python_name).items():
        written = (package / f"{module}.py").read_text()
        assert written == text, f"deckodds/{module}.py is out of date: run python/tools/generate.py"


def required_params(spec):
    """Values of the right type for a command's required options (what the
    tests of other options need to reach them)."""
    placeholder = {"integer": 1, "real": 1.0, "integer-or-text": 1, "text": "A", "flag": True}
    return {python_name(o): placeholder[o["kind"]] for o in spec["options"] if o["required"]}
