"""The one path from a Python call to a deckodds command: parameters to a
command line (checked against clap's definitions of its options, which
``_native._commands()`` reads), the command run in process by the Rust
library, and its JSON document to a :class:`Result`.

Every wrapper function in ``deckodds.blackjack``, ``deckodds.roll_call``
and the other game modules is one line over :func:`run_command`; their
signatures are generated from the same definitions (``tools/generate.py``)
and a test holds them to it, so that names and defaults cannot drift from
the command line's.
"""

from __future__ import annotations

import json
import keyword
import math
import time
from typing import Any, Dict, List, Optional, Tuple

from . import _frames, _native

#: Every command of the games, with its options, as clap defines them.
COMMANDS: List[Dict[str, Any]] = json.loads(_native._commands())
_BY_PATH: Dict[Tuple[str, ...], Dict[str, Any]] = {
    tuple(spec["path"]): spec for spec in COMMANDS
}

#: Keyword parameters every wrapper takes besides its command's options.
COMMON = {"threads": None, "quiet": False}

#: The command that writes readable text only when given --deal.
TEXT_WITH_DEAL = ("prisoners-patience", "solve")

#: A progress bar appears once a run has taken this long (as the CLI's).
BAR_AFTER_SECONDS = 1.0


def python_name(option: Dict[str, Any]) -> str:
    """An option's parameter name: its flag in snake case (`--decks`:
    `decks`, `--until-halfwidth`: `until_halfwidth`), with a trailing
    underscore where that is a Python keyword (`--for`: `for_`, PEP 8's
    way)."""
    name = option["flag"].lstrip("-").replace("-", "_")
    return name + "_" if keyword.iskeyword(name) else name


def python_default(option: Dict[str, Any]) -> Any:
    """The Python value of an option's default as clap writes it (None: no
    default, the option left out)."""
    kind, text = option["kind"], option["default"]
    if kind == "flag":
        return False
    if text is None:
        return None
    if kind == "integer":
        return _whole_number(text)
    if kind == "real":
        return float(text)
    if kind == "integer-or-text":
        return int(text) if text.isdigit() else text
    return text


def _whole_number(text: str) -> int:
    cleaned = text.replace("_", "")
    try:
        return int(cleaned)
    except ValueError:
        value = float(cleaned)
        if value.is_integer():
            return int(value)
        raise


def _type_error(name: str, expected: str, value: Any) -> TypeError:
    return TypeError(f"{name} must be {expected}, not {type(value).__name__} ({value!r})")


def _argument(option: Dict[str, Any], value: Any) -> List[str]:
    """The command-line words that give `option` the Python `value`; a
    value of the wrong type is a TypeError naming the parameter. Values
    themselves are checked by the command line's own parsers."""
    name, flag, kind = python_name(option), option["flag"], option["kind"]
    if value is None:
        return []
    if kind == "flag":
        if not isinstance(value, bool):
            raise _type_error(name, "True or False", value)
        return [flag] if value else []
    if isinstance(value, bool):
        # bool is an int to Python; to a count or a seed it is a mistake.
        raise _type_error(name, _EXPECTED[kind], value)
    if kind == "integer":
        if not isinstance(value, int):
            raise _type_error(name, _EXPECTED[kind], value)
        return [flag, str(value)]
    if kind == "real":
        if not isinstance(value, (int, float)):
            raise _type_error(name, _EXPECTED[kind], value)
        return [flag, repr(float(value))]
    if kind == "integer-or-text":
        if isinstance(value, float) and math.isinf(value) and value > 0:
            return [flag, "inf"]
        if not isinstance(value, (int, str)):
            raise _type_error(name, _EXPECTED[kind], value)
        return [flag, str(value)]
    if not isinstance(value, (str, int)):
        raise _type_error(name, _EXPECTED[kind], value)
    return [flag, str(value)]


_EXPECTED = {
    "integer": "an int",
    "real": "a number",
    "integer-or-text": 'an int or a str such as "inf"',
    "text": "a str",
}


def command_line(path: Tuple[str, ...], params: Dict[str, Any]) -> List[str]:
    """The deckodds command line (without the program's name) that runs the
    command `path` with `params` (its options, by name, and `threads`)."""
    spec = _BY_PATH[tuple(path)]
    argv = list(path)
    known = {python_name(option): option for option in spec["options"]}
    for name, value in params.items():
        if name in COMMON:
            continue
        if name not in known:
            raise TypeError(f"{'.'.join(path)} got an unexpected parameter {name!r}")
        option = known[name]
        words = _argument(option, value)
        # A default is left out, as a user would leave it: given, it would
        # count as given (for options that conflict with others).
        default = python_default(option)
        if type(value) is type(default) and value == default:
            continue
        argv += words
    threads = params.get("threads")
    if threads is not None:
        if isinstance(threads, bool) or not isinstance(threads, int):
            raise _type_error("threads", "an int", threads)
        argv += ["--threads", str(threads)]
    # The document, unless the command writes readable text only (or does
    # with these options: prisoners-patience solve --deal writes a line of
    # play, as text).
    if spec["writes_json"] and not (tuple(path) == TEXT_WITH_DEAL and params.get("deal") is not None):
        argv += ["--format", "json"]
    return argv


def run_command(path: Tuple[str, ...], params: Dict[str, Any]) -> "Result":
    """Runs the command `path` with `params` in process: a :class:`Result`
    holding the JSON document of a command that writes a report, or the
    text of one that writes readable text only."""
    argv = command_line(path, params)
    quiet = params.get("quiet", False)
    if not isinstance(quiet, bool):
        raise _type_error("quiet", "True or False", quiet)
    bar = _Bar(" ".join(path)) if not quiet else None
    try:
        output = _native._run(argv, bar.update if bar is not None else None)
        if bar is not None:
            bar.complete()
    finally:
        if bar is not None:
            bar.close()
    # `command_line` asks for the document last; `klondike.deals` has a
    # `--format` of its own (the deals' format), which writes text.
    if argv[-2:] == ["--format", "json"]:
        return Result(json.loads(output), argv)
    return Result(None, argv, text=output)


class _Bar:
    """A tqdm bar over a run's progress, shown once the run has taken
    :data:`BAR_AFTER_SECONDS` (none without tqdm); a new total starts a
    new bar (a command may run several stages)."""

    def __init__(self, description: str) -> None:
        self.description = description
        self.started = time.monotonic()
        self.bar = None
        self.total = None
        try:
            import tqdm.auto  # noqa: F401

            self.tqdm = tqdm.auto.tqdm
        except ImportError:
            self.tqdm = None

    def update(self, done: int, total: int) -> None:
        if self.tqdm is None or total == 0:
            return
        if time.monotonic() - self.started < BAR_AFTER_SECONDS:
            return
        if self.bar is None or total != self.total:
            self.close()
            self.total = total
            self.bar = self.tqdm(total=total, desc=self.description, unit_scale=True)
        self.bar.n = min(done, total)
        self.bar.refresh()

    def complete(self) -> None:
        """The run ended whole: the bar shows its last stage done."""
        if self.bar is not None and self.total is not None:
            self.bar.n = self.total
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class Result:
    """A command's result.

    ``document`` is the whole JSON document the command line prints with
    ``--format json``, as a dict (a list of them for ``blackjack.eor``),
    or None for a command that writes readable text only (``replay``,
    ``klondike.record``, ``roll_call.longest_zero_strike``,
    ``prisoners_patience.solve(deal=...)``; ``klondike.deals``, whose
    text is the deals, in Solvitaire's JSON a line or as card lines),
    whose text is ``text`` (else None).

    ``frame`` is the table the command's report leads with, in long form
    (one observation a row, flat columns): a pandas DataFrame when pandas
    is installed, else a list of dicts (also ``records``); None for a
    document with no table and for text. By command:

    - distributions (``exact``, ``mc``, ``first_pass``, ``solve`` of
      Prisoner's patience, ``eor``, ...): a row per outcome of each
      distribution: a column per parameter of the distribution (its
      ``params``, or read from its ``key``: ``upcard=2`` is a column
      ``upcard``), ``key``, ``outcome``, then exact ``probability`` as
      :class:`fractions.Fraction` and ``value`` as float, or ``count``
      as int, ``estimate``, ``ci_low`` and ``ci_high`` as float; several
      reports (``eor``, a version table) add the parameters that tell
      them apart (``report_outcome``, ``version_count``, ``order``).
    - ``compare``: a row per compared cell (the key's parameters,
      ``key``, ``outcome``, its ``z`` and whether it was ``pooled``, then
      the row's test figures and ``verdict``); against a published table,
      a row per published cell (``label``, ``outcome``, ``text`` as
      published, ``exact_percent``, ``z``, ``consistent``).
    - ``blackjack.strategy``: a row per chart cell: ``hand_type`` (the
      printed chart's section: hard, soft, pair, 3+ cards, hard, 3+
      cards, soft), ``hand`` (its row: a total, or a pair such as 88),
      ``upcard``, ``action`` (S, H, D, Ds, P, R, Rs, Rp; None where no
      hand of the row reaches the cell). The composition exceptions are
      the document's ``exceptions``.
    - ``blackjack.player``: a row per hand, upcard and action the rules
      allow: ``value`` per unit bet (float), ``value_exact`` (Fraction,
      None with ``float=True``), ``best``, the hand's ``probability``.
    - ``blackjack.house_edge``: the full shoe's row (``removed`` None):
      the overall ``value`` per round, ``value_exact`` and
      ``house_edge_percent``; then a row per value removed, with its
      ``change_points``.
    - ``blackjack.house_edge_grid``: a row per rule set, its rules as
      columns.
    - ``blackjack.table``: with ``count``, a row per true count
      (``true_count``, ``rounds``, ``frequency``, ``mean``, ``sd``,
      ``ci_low``, ``ci_high``, per unit bet); without, the run's one
      row (``rounds``, ``shoes``, ``mean``, ``sd``, ``standard_error``,
      ``ci_low``, ``ci_high`` per unit bet, ``house_edge_percent``,
      ``rounds_per_shoe``).
    - ``blackjack.table_compare``, ``blackjack.player_compare``: a row
      per compared quantity (the mean against the exact value; a
      published claim's figures), the test's figures flat.
    - ``blackjack.cut_card_effect``: a row per rule set, each run's
      figures prefixed with its name (``cut_card_house_edge_percent``).
    - ``idiots_delight.power``: the study's one row.
    - ``klondike.solve``: a row per deal solved.

    With pandas, ``upcard`` columns are ordered categoricals (2..10, A; a
    ten is ``10`` in every frame), outcome columns too (the dealer's
    17..21, bust, natural; other games' labels in the document's order;
    whole numbers such as cards left stay ints), and so are ``true_count``,
    ``hand_type`` and ``hand`` (in the document's order: a chart's
    rows sort as printed).
    """

    def __init__(self, document: Any, argv: List[str], text: Optional[str] = None) -> None:
        self.document = document
        self.argv = argv
        self.text = text

    @property
    def records(self) -> Optional[List[Dict[str, Any]]]:
        """The table as a list of dicts (None for a document with none)."""
        return _frames.records(self.document)

    @property
    def frame(self):
        """The table as a pandas DataFrame, or a list of dicts without
        pandas (None for a document with no table)."""
        records = self.records
        return None if records is None else _frames.frame(records)

    def __getitem__(self, key: str) -> Any:
        if self.document is None:
            raise KeyError(f"{key!r}: this command writes text only (see .text)")
        return self.document[key]

    def __str__(self) -> str:
        return self.text if self.text is not None else json.dumps(self.document, indent=2)

    def __repr__(self) -> str:
        document = self.document if isinstance(self.document, dict) else {}
        what = document.get("title") or document.get("game") or "deckodds"
        return f"<deckodds.Result {what}: deckodds {' '.join(self.argv)}>"
