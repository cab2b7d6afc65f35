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
from fractions import Fraction
from typing import Any, Dict, Iterable, List, Optional, Tuple

from . import _native

#: Every command of the games, with its options, as clap defines them.
COMMANDS: List[Dict[str, Any]] = json.loads(_native._commands())
_BY_PATH: Dict[Tuple[str, ...], Dict[str, Any]] = {
    tuple(spec["path"]): spec for spec in COMMANDS
}

#: Keyword parameters every wrapper takes besides its command's options.
COMMON = {"threads": None, "quiet": False}

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
    # with these options: solve --deal).
    if spec["writes_json"] and not (path[-1] == "solve" and params.get("deal") is not None):
        # (prisoners-patience solve --deal writes a line of play, as text.)
        argv += ["--format", "json"]
    return argv


def run_command(path: Tuple[str, ...], params: Dict[str, Any]):
    """Runs the command `path` with `params` in process: a :class:`Result`
    for a command that writes a report, the text for one that writes
    readable text only."""
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
    if "--format" in argv:
        return Result(json.loads(output), argv)
    return output


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
    ``--format json``, as a dict; ``frame`` its table in long form: a
    pandas DataFrame when pandas is installed, else a list of dicts (also
    ``records``).

    For distributions, a row per outcome of each distribution: a column
    per parameter of the distribution (its ``params``, or read from its
    ``key``: ``upcard=2`` is a column ``upcard``), ``key``, ``outcome``,
    then exact ``probability`` as :class:`fractions.Fraction` and
    ``value`` as float, or ``count`` as int, ``estimate``, ``ci_low`` and
    ``ci_high`` as float. For comparisons, a row per comparison row
    (its key's parameters, the test's figures and verdict). A column of
    whole numbers written as text (outcomes such as cards left, an
    upcard's 2..10) is made int only if every value in it is one.
    """

    def __init__(self, document: Dict[str, Any], argv: List[str]) -> None:
        self.document = document
        self.argv = argv

    @property
    def records(self) -> Optional[List[Dict[str, Any]]]:
        """The table as a list of dicts (None for a document with none)."""
        records = _records(self.document)
        return None if records is None else _typed_columns(records)

    @property
    def frame(self):
        """The table as a pandas DataFrame, or a list of dicts without
        pandas (None for a document with no table)."""
        records = self.records
        if records is None:
            return None
        try:
            import pandas
        except ImportError:
            return records
        return pandas.DataFrame.from_records(records)

    def __getitem__(self, key: str) -> Any:
        return self.document[key]

    def __repr__(self) -> str:
        what = self.document.get("title") or self.document.get("game") or "deckodds"
        return f"<deckodds.Result {what}: deckodds {' '.join(self.argv)}>"


def _records(document: Any) -> Optional[List[Dict[str, Any]]]:
    """The rows of a document's table in long form (see :class:`Result`)."""
    if isinstance(document, list):
        # Several reports (blackjack eor: one per outcome): their rows, each
        # with the report parameters that tell them apart.
        reports = [r for r in document if isinstance(r, dict)]
        differing = _differing_params([r.get("params", {}) for r in reports])
        records = []
        for report in reports:
            told = {name: report.get("params", {}).get(name) for name in differing}
            records += [_joined(told, row, "report") for row in _records(report) or []]
        return records
    if not isinstance(document, dict):
        return None
    if isinstance(document.get("distributions"), list):
        return _distribution_records(document["distributions"])
    if isinstance(document.get("versions"), list):
        # A version table (roll-call --count all): each version's report,
        # with the version's parameters.
        records = []
        for version in document["versions"]:
            named = version.get("version", {})
            for row in _records(version.get("report", {})) or []:
                records.append(_joined(named, row, "version"))
        return records
    if isinstance(document.get("rows"), list):
        return _comparison_records(document["rows"])
    # Any other report: its first list of records (the player's hands, a
    # strategy chart, the effects of removal).
    for value in document.values():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            return [dict(v) for v in value]
    return None


def _joined(params: Dict[str, Any], row: Dict[str, Any], source: str) -> Dict[str, Any]:
    """`row` led by the columns `params` (of its version or report); a
    parameter named as one of the row's own fields (a version's `count`
    beside an outcome's count) is prefixed with its `source`
    (`version_count`)."""
    joined = {(f"{source}_{name}" if name in row else name): value for name, value in params.items()}
    joined.update(row)
    return joined


def _differing_params(params: List[Dict[str, Any]]) -> List[str]:
    names = []
    for name in dict.fromkeys(n for p in params for n in p):
        values = [p.get(name) for p in params]
        scalar = all(not isinstance(v, (list, dict)) for v in values)
        if scalar and len(set(map(repr, values))) > 1:
            names.append(name)
    return names


def _key_params(distribution: Dict[str, Any]) -> Dict[str, Any]:
    params = distribution.get("params")
    if isinstance(params, dict):
        return dict(params)
    return _split_key(distribution.get("key", ""))


def _split_key(key: str) -> Dict[str, Any]:
    """`upcard=2,K=1` as {"upcard": "2", "K": "1"}; a key with no `=` names
    its distribution and gives no parameter."""
    params = {}
    for part in key.split(","):
        if "=" in part:
            name, value = part.split("=", 1)
            params[name.strip()] = value.strip()
    return params


def _distribution_records(distributions: Iterable[Dict[str, Any]]) -> List[Dict[str, Any]]:
    records = []
    for distribution in distributions:
        params = _key_params(distribution)
        for outcome in distribution.get("outcomes", []):
            record = dict(params)
            record["key"] = distribution.get("key")
            for field, value in outcome.items():
                if field == "probability":
                    record[field] = Fraction(value)
                elif field == "ci95" and isinstance(value, list) and len(value) == 2:
                    record["ci_low"], record["ci_high"] = float(value[0]), float(value[1])
                elif field in ("value", "estimate") and value is not None:
                    record[field] = float(value)
                else:
                    record[field] = value
            records.append(record)
    return records


def _comparison_records(rows: Iterable[Dict[str, Any]]) -> List[Dict[str, Any]]:
    records = []
    for row in rows:
        record = _split_key(row.get("key", "")) if isinstance(row.get("key"), str) else {}
        record.update(row)
        records.append(record)
    return records


def _typed_columns(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Text columns whose every value is a whole number, as ints."""
    columns = {name for record in records for name in record}
    for name in columns:
        values = [record[name] for record in records if name in record]
        if values and all(isinstance(v, str) and _is_whole(v) for v in values):
            for record in records:
                if name in record:
                    record[name] = int(record[name])
    return records


def _is_whole(text: str) -> bool:
    return text.isdigit() or (text.startswith("-") and text[1:].isdigit())
