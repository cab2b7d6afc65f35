"""Every command's frame is the table its report leads with, in long form:
for each command the package offers, the frame's columns, and one value
of it against the document the command line (the binary) prints for the
same parameters. Card and outcome columns are ordered categoricals; the
list-of-dicts path without pandas holds the same rows."""

from fractions import Fraction

import pytest

import deckodds
from deckodds._core import COMMANDS
from deckodds._frames import DEALER_OUTCOMES, UPCARDS
from conftest import cli, cli_json, hide_pandas

pandas = pytest.importorskip("pandas")

#: A deal of Klondike (a new deck's order).
KLONDIKE_DEAL = " ".join(rank + suit for suit in "CDHS" for rank in "A 2 3 4 5 6 7 8 9 10 J Q K".split())


def row(frame, **where):
    """The one row of `frame` with these values."""
    chosen = frame
    for name, value in where.items():
        chosen = chosen[chosen[name] == value]
    assert len(chosen) == 1, (where, chosen)
    return chosen.iloc[0]


def check_dealer_exact(frame, document):
    assert list(frame.columns) == ["upcard", "key", "outcome", "probability", "value"]
    cell = row(frame, upcard="10", outcome="natural")
    expected = next(d for d in document["distributions"] if d["key"] == "upcard=10")
    natural = next(o for o in expected["outcomes"] if o["outcome"] == "natural")
    assert cell.probability == Fraction(natural["probability"])
    assert list(frame["upcard"].cat.categories) == UPCARDS
    assert list(frame["outcome"].cat.categories) == DEALER_OUTCOMES


def check_cell(frame, document, columns, key, outcome):
    """`columns`, and the cell (key, outcome)'s count and interval, or
    exact probability, as the document's."""
    assert list(frame.columns) == columns
    distribution = next(d for d in document["distributions"] if d["key"] == key)
    entry = next(o for o in distribution["outcomes"] if str(o["outcome"]) == str(outcome))
    cell = frame[(frame["key"] == key) & (frame["outcome"].astype(str) == str(outcome))]
    assert len(cell) == 1
    if "probability" in entry:
        assert cell.iloc[0]["probability"] == Fraction(entry["probability"])
    else:
        assert cell.iloc[0]["count"] == entry["count"] and cell.iloc[0]["ci_high"] == entry["ci95"][1]


def check_comparison(frame, document, key, outcome):
    """A row per compared cell: the key's parameters, the key, the
    outcome, its z and the row's figures, all flat."""
    key_columns = [part.split("=")[0] for part in key.split(",") if "=" in part]
    figures = [name for name, value in document["rows"][0].items() if name != "key" and not isinstance(value, list)]
    assert list(frame.columns) == key_columns + ["key", "outcome", "z", "pooled"] + figures
    assert len(frame) == sum(len(r["outcomes"]) for r in document["rows"])
    compared = next(r for r in document["rows"] if r["key"] == key)
    index = compared["outcomes"].index(str(outcome))
    cell = frame[(frame["key"] == key) & (frame["outcome"].astype(str) == str(outcome))].iloc[0]
    z = compared["z_scores"][index]
    assert pandas.isna(cell.z) if z is None else cell.z == z
    assert cell.chi_square == compared["chi_square"] and cell.verdict == compared["verdict"]
    for column in frame.columns:
        assert not isinstance(frame[column].iloc[0], (list, dict)), column


def check_strategy(frame, document):
    assert list(frame.columns) == ["hand_type", "hand", "upcard", "action"]
    chart = document["chart"]
    cells = sum(len(rows) * 10 for rows in (chart["hard"], chart["soft"], chart["pairs"]))
    cells += sum(len(rows) * 10 for rows in chart["multi_card"].values())
    assert len(frame) == cells
    assert row(frame, hand_type="soft", hand="18", upcard="10").action == chart["soft"]["18"]["T"]
    assert row(frame, hand_type="pair", hand="99", upcard="7").action == chart["pairs"]["99"]["7"]
    # The chart, as printed: a pivot on the action.
    hard = frame[frame["hand_type"] == "hard"].pivot(index="hand", columns="upcard", values="action")
    assert list(hard.columns) == UPCARDS and list(hard.index) == list(chart["hard"])
    assert hard.loc["16", "A"] == chart["hard"]["16"]["A"]
    assert list(frame["hand_type"].cat.categories) == ["hard", "soft", "pair", "3+ cards, hard", "3+ cards, soft"]


def check_player(frame, document):
    assert list(frame.columns) == ["hand", "upcard", "action", "value", "value_exact", "best", "probability"]
    hand = next(h for h in document["hands"] if h["hand"] == "A7" and h["upcard"] == "T")
    cell = row(frame, hand="A7", upcard="10", action="stand")
    assert cell.value == hand["stand"]["decimal"]
    assert cell.value_exact == Fraction(hand["stand"]["value"])
    assert row(frame, hand="A7", upcard="10", action=hand["best"]).best
    assert frame["best"].sum() == len(document["hands"])


def check_house_edge(frame, document):
    assert list(frame.columns) == ["removed", "cards_in_shoe", "value", "value_exact", "house_edge_percent", "change_points"]
    full = frame.iloc[0]
    assert pandas.isna(full.removed)
    assert full.house_edge_percent == document["overall"]["house_edge_percent"]
    assert full.value == document["overall"]["decimal"]
    removals = document["effect_of_removal"]["removals"]
    assert len(frame) == 1 + len(removals)
    ten = row(frame, removed="10")
    assert ten.change_points == removals[-1]["change_points"]["decimal"] and removals[-1]["removed"] == "T"
    assert ten.cards_in_shoe == removals[-1]["cards_in_shoe"]


def check_house_edge_exact(frame, document):
    assert list(frame.columns) == ["removed", "cards_in_shoe", "value", "value_exact", "house_edge_percent", "change_points"]
    assert len(frame) == 1 and document["effect_of_removal"] is None
    assert frame.iloc[0].value_exact == Fraction(document["overall"]["value"])


def check_grid(frame, document):
    params = list(document["rows"][0]["params"])
    assert list(frame.columns) == params + ["value", "value_exact", "house_edge_percent"]
    assert len(frame) == len(document["rows"]) == 40
    last = document["rows"][-1]
    cell = frame.iloc[-1]
    # Whole numbers (decks, max_hands) are ints, the other rules text.
    assert {name: str(cell[name]) for name in params} == last["params"]
    assert cell.house_edge_percent == last["overall"]["house_edge_percent"]


def check_player_compare(frame, document):
    engine = ["value", "value_exact", "house_edge_percent"]
    monte_carlo = ["trials", "mean", "standard_deviation", "standard_error"]
    assert list(frame.columns) == ["quantity"] + engine + monte_carlo + list(document["agreement"]) + ["verdict"]
    assert len(frame) == 1
    assert frame.iloc[0]["mean"] == document["monte_carlo"]["mean"]
    assert frame.iloc[0]["z"] == document["agreement"]["z"]


def check_table_by_count(frame, document):
    assert list(frame.columns) == ["true_count", "rounds", "frequency", "mean", "sd", "ci_low", "ci_high"]
    assert len(frame) == len(document["by_true_count"]) > 3
    zero = next(r for r in document["by_true_count"] if r["true_count"] == "0")
    cell = row(frame, true_count="0")
    assert cell["mean"] == zero["mean"] and cell.rounds == zero["rounds"] and cell.ci_high == zero["ci95"][1]
    labels = [r["true_count"] for r in document["by_true_count"]]
    assert list(frame["true_count"].cat.categories) == labels
    assert frame.sort_values("true_count")["true_count"].tolist() == labels


def check_table(frame, document):
    assert list(frame.columns) == [
        "rounds",
        "shoes",
        "mean",
        "sd",
        "standard_error",
        "ci_low",
        "ci_high",
        "house_edge_percent",
        "rounds_per_shoe",
    ]
    assert document["by_true_count"] == [] and len(frame) == 1
    run = frame.iloc[0]
    assert run["mean"] == document["value"]["mean"] and run.ci_low == document["value"]["ci95"][0]
    assert run.house_edge_percent == document["house_edge_percent"] and run.rounds == document["rounds"]


def check_table_compare(frame, document):
    assert list(frame.columns) == ["comparison"] + list(document["agreement"])
    assert len(frame) == 1
    assert frame.iloc[0]["z"] == document["agreement"]["z"]
    assert frame.iloc[0]["exact"] == document["exact_off_the_top"]


def check_cut_card(frame, document):
    assert list(frame.columns)[:3] == ["decks", "soft17", "exact_house_edge_percent"]
    assert "cut_card_house_edge_percent" in frame.columns and "one_round_per_shoe_ci_low" in frame.columns
    assert "cut_card_effect_percent_estimate" in frame.columns
    assert len(frame) == len(document["rows"])
    first = document["rows"][0]
    cell = row(frame, decks=int(first["decks"]), soft17=first["soft17"])
    assert cell.cut_card_house_edge_percent == first["cut_card"]["house_edge_percent"]


def check_counts(frame, document):
    """`blackjack counts`: a row per counting system."""
    assert len(frame) == len(document["systems"])
    assert "betting_correlation" in frame.columns and "insurance_correlation" in frame.columns
    first = document["systems"][0]
    assert row(frame, system=first["system"]).playing_efficiency == first["playing_efficiency"]


def check_count_distribution(frame, document):
    """`blackjack count-distribution`: a row per running count, exact
    beside simulated."""
    assert len(frame) == len(document["running_count"])
    assert "decimal" in frame.columns and "simulated" in frame.columns
    assert int(frame["simulated"].sum()) == document["trials"]


def check_indices(frame, document):
    """`blackjack indices`: a row per index play, as the index file."""
    assert len(frame) == len(document["plays"])
    assert "crossing" in frame.columns and "deviation" in frame.columns
    first = document["plays"][0]
    assert list(frame["index"])[0] == first["index"]


def check_power(frame, document):
    assert list(frame.columns)[:4] == ["seed", "trials", "level", "reference_chi_square"]
    assert "replicate_check_rejections" in frame.columns and "games_for_power_90" in frame.columns
    assert len(frame) == 1
    assert frame.iloc[0]["reference_chi_square"] == document["reference"]["chi_square"]
    assert document["replicate_check"] is None and pandas.isna(frame.iloc[0]["replicate_check_rejections"])


def check_klondike_solve(frame, document):
    assert list(frame.columns) == [
        "index", "verdict", "moves", "stock-turns", "nodes", "seconds", "policy"
    ]
    assert len(frame) == len(document["deals"]) == 1
    assert frame.iloc[0]["verdict"] == document["deals"][0]["verdict"]
    assert frame.iloc[0]["moves"] == document["deals"][0]["moves"]
    assert frame.iloc[0]["stock-turns"] == document["deals"][0]["stock-turns"]


def check_klondike_solve_trials(frame, document):
    assert list(frame.columns)[:2] == ["index", "verdict"]
    assert len(frame) == len(document["deals"]) > 0
    assert frame["verdict"].tolist() == [d["verdict"] for d in document["deals"]]


def check_solve(frame, document):
    check_cell(frame, document, ["key", "outcome", "count", "estimate", "ci_low", "ci_high"], "free-choice", "winnable")
    assert list(frame["outcome"].cat.categories)[:3] == ["winnable", "unwinnable", "undecided"]


def check_eor(frame, document):
    assert list(frame.columns) == ["report_outcome", "upcard", "key", "outcome", "probability", "value"]
    assert list(frame["report_outcome"].cat.categories) == DEALER_OUTCOMES
    bust = next(r for r in document if r["params"].get("outcome") == "bust")
    distribution = next(d for d in bust["distributions"] if d["key"] == "upcard=6")
    entry = distribution["outcomes"][0]
    cell = frame[(frame["report_outcome"] == "bust") & (frame["upcard"] == "6") & (frame["outcome"] == entry["outcome"])]
    assert len(cell) == 1 and cell.iloc[0]["probability"] == Fraction(entry["probability"])


MC = ["key", "outcome", "count", "estimate", "ci_low", "ci_high"]
EXACT = ["key", "outcome", "probability", "value"]

# (function, parameters, the command line, the check of the frame)
CASES = [
    (deckodds.blackjack.exact, dict(decks=1), ["blackjack", "exact", "--decks", "1"], check_dealer_exact),
    (
        deckodds.blackjack.mc,
        dict(trials=3000, seed=5),
        ["blackjack", "mc", "--trials", "3000", "--seed", "5"],
        lambda f, d: check_cell(f, d, ["upcard"] + MC, "upcard=A", "natural"),
    ),
    (
        deckodds.blackjack.compare,
        dict(decks=1, trials=4000),
        ["blackjack", "compare", "--decks", "1", "--trials", "4000"],
        lambda f, d: check_comparison(f, d, "upcard=6", "bust"),
    ),
    (deckodds.blackjack.eor, dict(decks=1), ["blackjack", "eor", "--decks", "1"], check_eor),
    (deckodds.blackjack.player, dict(decks="inf"), ["blackjack", "player", "--decks", "inf"], check_player),
    (
        deckodds.blackjack.player_compare,
        dict(decks=1, float=True, trials=5000),
        ["blackjack", "player", "compare", "--decks", "1", "--float", "--trials", "5000"],
        check_player_compare,
    ),
    (deckodds.blackjack.strategy, dict(decks=1, float=True), ["blackjack", "strategy", "--decks", "1", "--float"], check_strategy),
    (deckodds.blackjack.house_edge, dict(decks=1, float=True), ["blackjack", "house-edge", "--decks", "1", "--float"], check_house_edge),
    (deckodds.blackjack.house_edge_grid, dict(float=True), ["blackjack", "house-edge-grid", "--float"], check_grid),
    (
        deckodds.blackjack.table,
        dict(decks=1, trials=20000, count="hi-lo"),
        ["blackjack", "table", "--decks", "1", "--trials", "20000", "--count", "hi-lo"],
        check_table_by_count,
    ),
    (
        deckodds.blackjack.table_compare,
        dict(decks=1, trials=5000),
        ["blackjack", "table", "compare", "--decks", "1", "--trials", "5000"],
        check_table_compare,
    ),
    (
        deckodds.blackjack.cut_card_effect,
        dict(trials=2000),
        ["blackjack", "cut-card-effect", "--trials", "2000"],
        check_cut_card,
    ),
    (deckodds.blackjack.counts, dict(), ["blackjack", "counts"], check_counts),
    (
        deckodds.blackjack.count_distribution,
        dict(decks=1, trials=2000),
        ["blackjack", "count-distribution", "--decks", "1", "--trials", "2000"],
        check_count_distribution,
    ),
    (
        deckodds.blackjack.indices,
        dict(decks=2, pilot_shoes=40, max_shoes=80, seed=3),
        ["blackjack", "indices", "--decks", "2", "--pilot-shoes", "40", "--max-shoes", "80", "--seed", "3"],
        check_indices,
    ),
    (
        deckodds.idiots_delight.exact,
        dict(suits=2, ranks=4),
        ["idiots-delight", "exact", "--suits", "2", "--ranks", "4"],
        lambda f, d: check_cell(f, d, EXACT, d["distributions"][0]["key"], 0),
    ),
    (
        deckodds.idiots_delight.mc,
        dict(trials=20000, seed=3),
        ["idiots-delight", "mc", "--trials", "20000", "--seed", "3"],
        lambda f, d: check_cell(f, d, MC, d["distributions"][0]["key"], 2),
    ),
    (
        deckodds.idiots_delight.compare,
        dict(suits=2, ranks=4, trials=5000, seed=2),
        ["idiots-delight", "compare", "--suits", "2", "--ranks", "4", "--trials", "5000", "--seed", "2"],
        lambda f, d: check_comparison(f, d, d["rows"][0]["key"], d["rows"][0]["outcomes"][0]),
    ),
    (
        deckodds.idiots_delight.power,
        dict(trials=20000, replicates=2),
        ["idiots-delight", "power", "--trials", "20000", "--replicates", "2"],
        check_power,
    ),
    (
        deckodds.klondike.mc,
        dict(trials=3000, seed=11, draw=3),
        ["klondike", "mc", "--trials", "3000", "--seed", "11", "--draw", "3"],
        lambda f, d: check_cell(f, d, MC, d["distributions"][0]["key"], 8),
    ),
    (
        deckodds.klondike.solve,
        dict(deal=KLONDIKE_DEAL, max_nodes=200000),
        ["klondike", "solve", "--deal", KLONDIKE_DEAL, "--max-nodes", "200000"],
        check_klondike_solve,
    ),
    (
        deckodds.prisoners_patience.exact,
        dict(suits=2, ranks=4),
        ["prisoners-patience", "exact", "--suits", "2", "--ranks", "4"],
        lambda f, d: check_cell(f, d, EXACT, d["distributions"][0]["key"], d["distributions"][0]["outcomes"][0]["outcome"]),
    ),
    (
        deckodds.prisoners_patience.mc,
        dict(trials=20000, seed=4),
        ["prisoners-patience", "mc", "--trials", "20000", "--seed", "4"],
        lambda f, d: check_cell(f, d, MC, d["distributions"][0]["key"], d["distributions"][0]["outcomes"][1]["outcome"]),
    ),
    (
        deckodds.prisoners_patience.compare,
        dict(suits=2, ranks=4, trials=5000),
        ["prisoners-patience", "compare", "--suits", "2", "--ranks", "4", "--trials", "5000"],
        lambda f, d: check_comparison(f, d, d["rows"][0]["key"], d["rows"][0]["outcomes"][-1]),
    ),
    (
        deckodds.prisoners_patience.solve,
        dict(suits=2, ranks=4, trials=2000),
        ["prisoners-patience", "solve", "--suits", "2", "--ranks", "4", "--trials", "2000"],
        check_solve,
    ),
    (
        deckodds.roll_call.exact,
        dict(ranks=4, copies=2),
        ["roll-call", "exact", "--ranks", "4", "--copies", "2"],
        lambda f, d: check_cell(f, d, ["K"] + EXACT, "K=2", 3),
    ),
    (
        deckodds.roll_call.mc,
        dict(trials=20000, seed=9),
        ["roll-call", "mc", "--trials", "20000", "--seed", "9"],
        lambda f, d: check_cell(f, d, ["K"] + MC, "K=3", 0),
    ),
    (
        deckodds.roll_call.compare,
        dict(ranks=4, copies=2, trials=20000),
        ["roll-call", "compare", "--ranks", "4", "--copies", "2", "--trials", "20000"],
        lambda f, d: check_comparison(f, d, "K=1", 1),
    ),
    (
        deckodds.roll_call.first_pass,
        dict(),
        ["roll-call", "first-pass"],
        lambda f, d: check_cell(f, d, EXACT, "first-pass-matches", 4),
    ),
]

#: Commands that write readable text only: their Result holds the text.
TEXT_CASES = [
    (deckodds.roll_call.replay, dict(ranks=4, copies=2, deal="A 2 3 4 A 2 3 4"), ["roll-call", "replay", "--ranks", "4", "--copies", "2", "--deal", "A 2 3 4 A 2 3 4"]),
    (
        deckodds.roll_call.longest_zero_strike,
        dict(ranks=4, copies=2),
        ["roll-call", "longest-zero-strike", "--ranks", "4", "--copies", "2"],
    ),
    (
        deckodds.prisoners_patience.replay,
        dict(suits=2, ranks=4, deal="A 2 3 4 A 2 3 4"),
        ["prisoners-patience", "replay", "--suits", "2", "--ranks", "4", "--deal", "A 2 3 4 A 2 3 4"],
    ),
    (
        deckodds.prisoners_patience.solve,
        dict(suits=2, ranks=4, deal="A 2 3 4 A 2 3 4"),
        ["prisoners-patience", "solve", "--suits", "2", "--ranks", "4", "--deal", "A 2 3 4 A 2 3 4"],
    ),
    (deckodds.klondike.record, dict(games=1), ["klondike", "record", "--games", "1"]),
    (deckodds.klondike.record, dict(deal=KLONDIKE_DEAL), ["klondike", "record", "--deal", KLONDIKE_DEAL]),
    (deckodds.klondike.deals, dict(trials=3, seed=2), ["klondike", "deals", "--trials", "3", "--seed", "2"]),
    (deckodds.klondike.deals, dict(trials=2, format="cards"), ["klondike", "deals", "--trials", "2", "--format", "cards"]),
]


@pytest.mark.parametrize("function, params, argv, check", CASES, ids=[" ".join(c[2][:3]) for c in CASES])
def test_the_frame_is_the_reports_table(function, params, argv, check):
    result = function(**params, quiet=True)
    assert isinstance(result, deckodds.Result)
    document = cli_json(*argv)
    check(result.frame, document)


@pytest.mark.parametrize("function, params, argv", TEXT_CASES, ids=[" ".join(c[2][:3]) for c in TEXT_CASES])
def test_text_commands_return_a_result_with_the_text(function, params, argv):
    result = function(**params, quiet=True)
    assert isinstance(result, deckodds.Result)
    done = cli(*argv)
    assert done.returncode == 0, done.stderr
    assert result.text == done.stdout and str(result) == done.stdout
    assert result.document is None and result.frame is None


def test_every_command_has_a_frame_test():
    """Each command the package offers is in CASES or TEXT_CASES, so that
    a new command cannot come without its frame checked."""
    offered = {tuple(spec["path"]) for spec in COMMANDS}
    tested = set()
    for _, _, argv, *_ in CASES + TEXT_CASES:
        # The command an argv runs: its longest path (player compare, not player).
        tested.add(max((path for path in offered if tuple(argv[: len(path)]) == path), key=len))
    assert offered - tested == set()


def test_klondike_solve_of_random_deals_is_a_row_per_deal():
    result = deckodds.klondike.solve(trials=20, max_nodes=20000, quiet=True)
    check_klondike_solve_trials(result.frame, cli_json("klondike", "solve", "--trials", "20", "--max-nodes", "20000"))


def test_a_table_without_a_count_is_its_value_per_round():
    result = deckodds.blackjack.table(decks=1, trials=5000, quiet=True)
    check_table(result.frame, cli_json("blackjack", "table", "--decks", "1", "--trials", "5000"))


def test_an_exact_house_edge_holds_the_fraction():
    result = deckodds.blackjack.house_edge(decks="inf", quiet=True)
    check_house_edge_exact(result.frame, cli_json("blackjack", "house-edge", "--decks", "inf"))


def test_a_published_comparison_is_a_row_per_published_cell():
    published = str(__import__("conftest").REPOSITORY / "analysis" / "published" / "woo-2a-1-deck-s17.csv")
    result = deckodds.blackjack.compare(decks=1, published=published, quiet=True)
    document = cli_json("blackjack", "compare", "--decks", "1", "--published", published)
    frame = result.frame
    assert "cells" not in frame.columns
    for column in ("label", "key", "outcome", "text", "exact_percent", "z", "consistent"):
        assert column in frame.columns, column
    assert len(frame) == sum(len(r["cells"]) for r in document["rows"])
    first = document["rows"][0]
    cell = first["cells"][0]
    got = frame[(frame["key"] == first["key"]) & (frame["outcome"] == cell["outcome"])].iloc[0]
    assert got.text == cell["text"] and got.exact_percent == cell["exact_percent"]
    for column in frame.columns:
        assert not isinstance(frame[column].iloc[0], (list, dict)), column


def test_upcards_and_dealer_outcomes_sort_as_the_table_does():
    frame = deckodds.blackjack.exact(decks=1, quiet=True).frame
    ordered = frame.sort_values(["upcard", "outcome"])
    assert ordered["upcard"].drop_duplicates().tolist() == UPCARDS
    assert ordered[ordered["upcard"] == "A"]["outcome"].tolist() == DEALER_OUTCOMES
    wide = frame.pivot(index="upcard", columns="outcome", values="value")
    assert list(wide.index) == UPCARDS and list(wide.columns) == DEALER_OUTCOMES


def test_without_pandas_the_frames_are_lists_of_the_same_rows(monkeypatch):
    with_pandas = {
        "strategy": deckodds.blackjack.strategy(decks=1, float=True, quiet=True),
        "house_edge": deckodds.blackjack.house_edge(decks=1, float=True, quiet=True),
    }
    hide_pandas(monkeypatch)
    for name, result in with_pandas.items():
        rows = result.frame
        assert isinstance(rows, list) and rows == result.records, name
    strategy = with_pandas["strategy"].frame
    assert {r["upcard"] for r in strategy} == set(UPCARDS)
    soft_18 = next(r for r in strategy if (r["hand_type"], r["hand"], r["upcard"]) == ("soft", "18", "10"))
    assert soft_18["action"] == with_pandas["strategy"].document["chart"]["soft"]["18"]["T"]
    assert with_pandas["house_edge"].frame[0]["removed"] is None


def test_a_table_compare_with_a_claim_is_a_row_per_compared_quantity(tmp_path):
    claim = tmp_path / "claim.txt"
    claim.write_text("house-edge-percent = 0.45\nrounds = 1e6\nwin-percent = 43.3\nloss-percent = 47.9\n")
    params = dict(decks=1, trials=5000, published=str(claim))
    argv = ["blackjack", "table", "compare", "--decks", "1", "--trials", "5000", "--published", str(claim)]
    document = cli_json(*argv)
    frame = deckodds.blackjack.table_compare(**params, quiet=True).frame
    assert list(frame.columns) == ["comparison"] + list(document["agreement"])
    assert frame["comparison"].tolist() == [
        "mean vs exact off the top",
        "claim vs exact off the top",
        "claim vs this simulation",
        "claim's win rate vs this simulation",
        "claim's loss rate vs this simulation",
    ]
    assert row(frame, comparison="claim vs exact off the top").z == document["claim"]["against_exact"]["z"]
    loss = next(r for r in document["claim"]["rates"] if r["rate"] == "loss")
    assert row(frame, comparison="claim's loss rate vs this simulation")["mean"] == loss["agreement"]["mean"]
