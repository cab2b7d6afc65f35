"""A document's table in long form: the rows of the table its report
leads with, one observation a row, flat columns (:class:`deckodds.Result`
says which table for each kind of document), and the typed pandas
DataFrame made of them.

Built in Python from the JSON document the command line writes, so that
the frame says nothing the document does not.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional

#: The dealer's upcards in the order of every table (a ten is `10`).
UPCARDS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]

#: The dealer's final outcomes in the order of every table.
DEALER_OUTCOMES = ["17", "18", "19", "20", "21", "bust", "natural"]

#: Columns of card values: a ten is written `10` (the player's documents
#: write `T`, the dealer's `10`), and they stay text.
CARD_COLUMNS = ("upcard", "removed")

#: Columns of outcomes: the dealer's are ordered as DEALER_OUTCOMES, any
#: other labels in the order the document lists them.
OUTCOME_COLUMNS = ("outcome", "report_outcome")

#: Columns of labels in an order of their own, kept as the document lists
#: them (true counts `<=-5` .. `>=5`, the chart's sections, its hands:
#: totals 5..20, then pairs AA..TT), and kept as text.
ORDERED_COLUMNS = ("true_count", "hand_type", "hand")

Record = Dict[str, Any]


def records(document: Any) -> Optional[List[Record]]:
    """The rows of the table a document's report leads with (None for a
    document with no table)."""
    if isinstance(document, list):
        return _report_list_records(document)
    if not isinstance(document, dict):
        return None
    builder = _BUILDERS.get(_kind(document))
    if builder is not None:
        rows = builder(document)
    else:
        rows = _generic_records(document)
    return None if rows is None else _typed_columns(rows)


def frame(rows: List[Record]):
    """`rows` as a pandas DataFrame with card, outcome and ordered label
    columns as ordered categoricals, or the rows themselves without
    pandas."""
    try:
        import pandas
    except ImportError:
        return rows
    table = pandas.DataFrame.from_records(rows)
    for name in table.columns:
        values = [record.get(name) for record in rows]
        categories = _categories(name, values)
        if categories is not None:
            table[name] = pandas.Categorical(values, categories=categories, ordered=True)
    return table


def _categories(name: str, values: List[Any]) -> Optional[List[Any]]:
    present = [v for v in values if v is not None]
    if not present:
        return None
    if name == "upcard" and set(present) <= set(UPCARDS):
        return UPCARDS
    if name in OUTCOME_COLUMNS:
        if set(present) <= set(DEALER_OUTCOMES):
            return DEALER_OUTCOMES
        if all(isinstance(v, str) for v in present):
            return list(dict.fromkeys(present))
        return None
    if name in ORDERED_COLUMNS and all(isinstance(v, str) for v in present):
        return list(dict.fromkeys(present))
    return None


def _kind(document: Dict[str, Any]) -> str:
    """`blackjack-strategy` for `deckodds.blackjack-strategy/v1`."""
    schema = document.get("schema")
    if not isinstance(schema, str) or not schema.startswith("deckodds."):
        return ""
    return schema[len("deckodds."):].split("/", 1)[0]


def card(value: Any) -> Any:
    """A card value as the frames write it: `10` for a ten."""
    return "10" if value == "T" else value


def exact(value: Optional[Dict[str, Any]]) -> Optional[Fraction]:
    """A player's value's exact fraction (None when computed in f64)."""
    if not isinstance(value, dict) or value.get("value") is None:
        return None
    return Fraction(value["value"])


def decimal(value: Optional[Dict[str, Any]]) -> Optional[float]:
    return None if not isinstance(value, dict) else value.get("decimal")


def _overall(overall: Dict[str, Any]) -> Record:
    """The round's value off the top: per unit bet as float and exact
    fraction, and the house edge in percent."""
    return {
        "value": overall.get("decimal"),
        "value_exact": exact(overall),
        "house_edge_percent": overall.get("house_edge_percent"),
    }


def _interval(prefix: str, ci95: Any) -> Record:
    low, high = ci95 if isinstance(ci95, list) and len(ci95) == 2 else (None, None)
    return {f"{prefix}ci_low": low, f"{prefix}ci_high": high}


def flat(values: Dict[str, Any], prefix: str = "") -> Record:
    """A nested object as one row: nested objects' fields prefixed with
    their name (`reference_chi_square`), a 95% interval as `ci_low` and
    `ci_high`, a player's value as its float and `_exact` fraction; lists
    other than intervals are left out (they are rows of other tables)."""
    row: Record = {}
    for name, value in values.items():
        if name == "schema":
            continue
        if name == "ci95":
            row.update(_interval(prefix, value))
        elif isinstance(value, dict) and "decimal" in value and set(value) <= {"value", "decimal"}:
            row[prefix + name] = value["decimal"]
            row[prefix + name + "_exact"] = exact(value)
        elif isinstance(value, dict):
            row.update(flat(value, prefix + name + "_"))
        elif not isinstance(value, list):
            row[prefix + name] = value
    return row


# ---------------------------------------------------------------------------
# Distributions, version tables, comparisons.


def _report_records(document: Dict[str, Any]) -> List[Record]:
    rows = []
    for distribution in document.get("distributions", []):
        params = _key_params(distribution)
        for outcome in distribution.get("outcomes", []):
            row = dict(params)
            row["key"] = distribution.get("key")
            for field, value in outcome.items():
                if field == "probability":
                    row[field] = Fraction(value)
                elif field == "ci95" and isinstance(value, list) and len(value) == 2:
                    row["ci_low"], row["ci_high"] = float(value[0]), float(value[1])
                elif field in ("value", "estimate") and value is not None:
                    row[field] = float(value)
                else:
                    row[field] = value
            rows.append(row)
    return rows


def _versions_records(document: Dict[str, Any]) -> List[Record]:
    """A version table (roll-call --count all): each version's report,
    with the version's parameters."""
    rows = []
    for version in document.get("versions", []):
        named = version.get("version", {})
        for row in _report_records(version.get("report") or {}):
            rows.append(_joined(named, row, "version"))
    return rows


def _report_list_records(reports: List[Any]) -> List[Record]:
    """Several reports (blackjack eor: one per outcome): their rows, each
    with the report parameters that tell them apart."""
    reports = [r for r in reports if isinstance(r, dict)]
    differing = _differing_params([r.get("params", {}) for r in reports])
    rows = []
    for report in reports:
        told = {name: report.get("params", {}).get(name) for name in differing}
        rows += [_joined(told, row, "report") for row in records(report) or []]
    return rows


def _comparison_records(document: Dict[str, Any]) -> List[Record]:
    """A comparison: one row per compared cell (a distribution's key and
    an outcome), led by the key's parameters; the row's test figures
    repeated on each of its cells."""
    rows = []
    for row in document.get("rows", []):
        key = row.get("key", "")
        base = {**_split_key(key), "key": key}
        if "cells" in row:
            # A published table checked: each published cell.
            figures = {
                "label": row.get("label"),
                "hands": row.get("hands"),
                "chi_square": row.get("chi_square"),
                "degrees_of_freedom": row.get("degrees_of_freedom"),
                "p_value": row.get("p_value"),
            }
            for cell in row["cells"]:
                rows.append({**base, **figures, **flat(cell)})
            continue
        # The row's test figures: its every field but the key and the lists.
        figures = {name: value for name, value in row.items() if name != "key" and not isinstance(value, (list, dict))}
        pooled = {o for group in row.get("pooled_outcomes", []) for o in group}
        outcomes = row.get("outcomes", [])
        z_scores = row.get("z_scores", [])
        for index, outcome in enumerate(outcomes):
            z = z_scores[index] if index < len(z_scores) else None
            rows.append({**base, "outcome": outcome, "z": z, "pooled": outcome in pooled, **figures})
        if not outcomes:
            rows.append({**base, **figures})
    return rows


def _joined(params: Dict[str, Any], row: Record, source: str) -> Record:
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


# ---------------------------------------------------------------------------
# The blackjack player's and table's documents.

#: The player's actions, in the order of the player's table.
ACTIONS = ("stand", "hit", "double", "split", "surrender")

#: The strategy chart's sections: where in the document, and the heading
#: the printed chart gives them.
CHART_SECTIONS = (
    (("hard",), "hard"),
    (("soft",), "soft"),
    (("pairs",), "pair"),
    (("multi_card", "hard"), "3+ cards, hard"),
    (("multi_card", "soft"), "3+ cards, soft"),
)


def _player_records(document: Dict[str, Any]) -> List[Record]:
    """`blackjack player`: one row per hand, upcard and action the rules
    allow, its value per unit bet (float, and exact fraction unless
    --float), and whether it is the hand's best."""
    rows = []
    for hand in document.get("hands", []):
        for action in ACTIONS:
            value = hand.get(action)
            if value is None:
                continue
            rows.append(
                {
                    "hand": hand.get("hand"),
                    "upcard": card(hand.get("upcard")),
                    "action": action,
                    "value": decimal(value),
                    "value_exact": exact(value),
                    "best": hand.get("best") == action,
                    "probability": decimal(hand.get("probability")),
                }
            )
    return rows


def _strategy_records(document: Dict[str, Any]) -> List[Record]:
    """`blackjack strategy`: one row per chart cell, its section (the
    printed chart's heading), the row's label (a hard or soft total, a
    pair), the upcard and the code (None where no hand of the row reaches
    the cell, `-` in print)."""
    rows = []
    chart = document.get("chart", {})
    for path, hand_type in CHART_SECTIONS:
        section: Any = chart
        for name in path:
            section = section.get(name, {}) if isinstance(section, dict) else {}
        for label, cells in section.items():
            for upcard, action in cells.items():
                rows.append({"hand_type": hand_type, "hand": label, "upcard": card(upcard), "action": action})
    return rows


def _house_edge_records(document: Dict[str, Any]) -> List[Record]:
    """`blackjack house-edge`: the full shoe's row (`removed` None: the
    overall value and house edge), then one row per value removed."""
    full = {"removed": None, "cards_in_shoe": None, **_overall(document.get("overall", {})), "change_points": None}
    rows = [full]
    removal = document.get("effect_of_removal") or {}
    for entry in removal.get("removals", []):
        value = entry.get("overall")
        rows.append(
            {
                "removed": card(entry.get("removed")),
                "cards_in_shoe": entry.get("cards_in_shoe"),
                "value": decimal(value),
                "value_exact": exact(value),
                "house_edge_percent": None if decimal(value) is None else -100 * decimal(value),
                "change_points": decimal(entry.get("change_points")),
            }
        )
    return rows


def _house_edge_grid_records(document: Dict[str, Any]) -> List[Record]:
    """`blackjack house-edge-grid`: one row per rule set, its rules as
    columns."""
    return [{**row.get("params", {}), **_overall(row.get("overall", {}))} for row in document.get("rows", [])]


def _player_compare_records(document: Dict[str, Any]) -> List[Record]:
    """`blackjack player compare`: its one compared cell, the value per
    round, engine against Monte Carlo."""
    agreement = document.get("agreement", {})
    monte_carlo = document.get("monte_carlo", {})
    return [
        {
            "quantity": "value per round",
            **_overall(document.get("exact", {})),
            "trials": document.get("trials"),
            "mean": monte_carlo.get("mean"),
            "standard_deviation": monte_carlo.get("standard_deviation"),
            "standard_error": monte_carlo.get("standard_error"),
            **flat(agreement),
            "verdict": document.get("verdict"),
        }
    ]


def _table_records(document: Dict[str, Any]) -> List[Record]:
    """`blackjack table`: with a count, one row per true count; without,
    the run's one row: the figures of its value-per-round table (the mean
    per unit bet, its interval, the house edge in percent, a round's
    standard deviation, rounds per shoe), in the units of the true-count
    rows."""
    by_true_count = document.get("by_true_count") or []
    if by_true_count:
        return [flat(row) for row in by_true_count]
    value = document.get("value", {})
    return [
        {
            "rounds": document.get("rounds"),
            "shoes": document.get("shoes"),
            "mean": value.get("mean"),
            "sd": value.get("sd"),
            "standard_error": value.get("standard_error"),
            **_interval("", value.get("ci95")),
            "house_edge_percent": document.get("house_edge_percent"),
            "rounds_per_shoe": (document.get("rounds_per_shoe") or {}).get("mean"),
        }
    ]


def _table_compare_records(document: Dict[str, Any]) -> List[Record]:
    """`blackjack table compare`: one row per compared quantity: the
    mean against the exact value off the top and, with a published claim,
    the claim against the exact value, against this simulation, and its
    win and loss rates."""
    rows = [{"comparison": "mean vs exact off the top", **flat(document.get("agreement", {}))}]
    claim = document.get("claim")
    if claim:
        rows.append({"comparison": "claim vs exact off the top", **flat(claim.get("against_exact", {}))})
        rows.append({"comparison": "claim vs this simulation", **flat(claim.get("against_simulation", {}))})
        for rate in claim.get("rates", []):
            rows.append({"comparison": f"claim's {rate.get('rate')} rate vs this simulation", **flat(rate.get("agreement", {}))})
    return rows


def _rows_records(document: Dict[str, Any]) -> List[Record]:
    """A document whose table is its list of rows (cut-card-effect: one
    per rule set), each row flat."""
    return [flat(row) for row in document.get("rows", [])]


#: The replicate check's fields (the same columns when there is none).
REPLICATE_FIELDS = ("replicates", "rejections", "games_each", "predicted_rejection_rate")


def _power_records(document: Dict[str, Any]) -> List[Record]:
    """`idiots-delight power`: the study's one row (the replicate check's
    columns None where no check was run)."""
    study = {name: value for name, value in document.items() if name not in ("game", "params", "shard")}
    study["replicate_check"] = study.get("replicate_check") or {name: None for name in REPLICATE_FIELDS}
    return [flat(study)]


def _klondike_solve_records(document: Dict[str, Any]) -> List[Record]:
    """`klondike solve`: one row per deal solved."""
    return [flat(deal) for deal in document.get("deals", [])]


def _generic_records(document: Dict[str, Any]) -> Optional[List[Record]]:
    if isinstance(document.get("distributions"), list):
        return _report_records(document)
    if isinstance(document.get("versions"), list):
        return _versions_records(document)
    if isinstance(document.get("rows"), list):
        return _comparison_records(document)
    for value in document.values():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            return [flat(v) for v in value]
    return None


_BUILDERS: Dict[str, Callable[[Dict[str, Any]], Optional[List[Record]]]] = {
    "report": _report_records,
    "versions": _versions_records,
    "comparison": _comparison_records,
    "blackjack-player": _player_records,
    "blackjack-strategy": _strategy_records,
    "blackjack-house-edge": _house_edge_records,
    "blackjack-house-edge-grid": _house_edge_grid_records,
    "blackjack-player-compare": _player_compare_records,
    "blackjack-table": _table_records,
    "blackjack-table-compare": _table_compare_records,
    "blackjack-cut-card-effect": _rows_records,
    "power": _power_records,
    "klondike-solve": _klondike_solve_records,
}


def _typed_columns(rows: List[Record]) -> List[Record]:
    """Text columns whose every value is a whole number, as ints (cards
    left, a count of strikes); card values and ordered labels stay text."""
    columns = {name for row in rows for name in row} - set(CARD_COLUMNS) - set(ORDERED_COLUMNS)
    for name in columns:
        values = [row[name] for row in rows if name in row and row[name] is not None]
        if values and all(isinstance(v, str) and _is_whole(v) for v in values):
            for row in rows:
                if row.get(name) is not None:
                    row[name] = int(row[name])
    return rows


def _is_whole(text: str) -> bool:
    return text.isdigit() or (text.startswith("-") and text[1:].isdigit())

