"""For every game, each Python function returns exactly the document the
command line prints with --format json for the same parameters and seed:
the same counts, the same exact fractions, the same everything; and the
frame holds those counts and fractions, typed."""

from fractions import Fraction

import pytest

import deckodds
from conftest import cli, cli_json, hide_pandas

# (function, its parameters, the command line a user would type for them)
CASES = [
    (deckodds.blackjack.exact, dict(decks=1, h17=True), ["blackjack", "exact", "--decks", "1", "--h17"]),
    (deckodds.blackjack.dealer, dict(decks="inf", peek=True), ["blackjack", "exact", "--decks", "inf", "--peek"]),
    (deckodds.blackjack.mc, dict(trials=3000, seed=5), ["blackjack", "mc", "--trials", "3000", "--seed", "5"]),
    (deckodds.blackjack.eor, dict(decks=1), ["blackjack", "eor", "--decks", "1"]),
    (deckodds.blackjack.strategy, dict(decks=1, float=True), ["blackjack", "strategy", "--decks", "1", "--float"]),
    (deckodds.idiots_delight.exact, dict(suits=2, ranks=4), ["idiots-delight", "exact", "--suits", "2", "--ranks", "4"]),
    (
        deckodds.idiots_delight.mc,
        dict(trials=20000, seed=3, shuffle="naive"),
        ["idiots-delight", "mc", "--trials", "20000", "--seed", "3", "--shuffle", "naive"],
    ),
    (
        deckodds.idiots_delight.compare,
        dict(suits=2, ranks=4, trials=5000, seed=2),
        ["idiots-delight", "compare", "--suits", "2", "--ranks", "4", "--trials", "5000", "--seed", "2"],
    ),
    (deckodds.roll_call.exact, dict(ranks=4, copies=2), ["roll-call", "exact", "--ranks", "4", "--copies", "2"]),
    (deckodds.roll_call.mc, dict(trials=20000, seed=9), ["roll-call", "mc", "--trials", "20000", "--seed", "9"]),
    (deckodds.roll_call.first_pass, dict(), ["roll-call", "first-pass"]),
    (
        deckodds.prisoners_patience.exact,
        dict(suits=2, ranks=4, stack_move="kept"),
        ["prisoners-patience", "exact", "--suits", "2", "--ranks", "4", "--stack-move", "kept"],
    ),
    (deckodds.prisoners_patience.mc, dict(trials=20000, seed=4), ["prisoners-patience", "mc", "--trials", "20000", "--seed", "4"]),
    (deckodds.klondike.mc, dict(trials=5000, seed=11, draw=3), ["klondike", "mc", "--trials", "5000", "--seed", "11", "--draw", "3"]),
]


@pytest.mark.parametrize("function, params, argv", CASES, ids=[" ".join(c[2]) for c in CASES])
def test_the_document_is_the_command_lines(function, params, argv):
    result = function(**params, quiet=True)
    assert result.document == cli_json(*argv)


def test_threads_change_nothing():
    one = deckodds.idiots_delight.mc(trials=50000, seed=8, threads=1)
    two = deckodds.idiots_delight.mc(trials=50000, seed=8, threads=2)
    assert one.document == two.document
    other_seed = deckodds.idiots_delight.mc(trials=50000, seed=9, threads=2)
    assert other_seed.document != two.document


def test_text_commands_return_the_command_lines_text():
    deal = "A 2 3 4 A 2 3 4"
    result = deckodds.roll_call.replay(ranks=4, copies=2, deal=deal)
    done = cli("roll-call", "replay", "--ranks", "4", "--copies", "2", "--deal", deal)
    assert done.returncode == 0
    assert result.text == done.stdout and result.document is None


def test_exact_frames_hold_the_documents_fractions():
    result = deckodds.blackjack.exact(decks=1)
    frame = result.frame
    document = result.document
    expected = {
        (distribution["key"], outcome["outcome"]): Fraction(outcome["probability"])
        for distribution in document["distributions"]
        for outcome in distribution["outcomes"]
    }
    got = {(row.key, row.outcome): row.probability for row in frame.itertuples()}
    assert got == expected
    assert all(isinstance(p, Fraction) for p in frame["probability"])
    # Exact: each upcard's outcomes add up to exactly 1.
    for upcard, probabilities in frame.groupby("upcard")["probability"]:
        assert sum(probabilities, Fraction(0)) == 1, upcard
    assert set(frame["upcard"]) == {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10"}


def test_monte_carlo_frames_hold_the_counts():
    result = deckodds.roll_call.mc(trials=30000, seed=2)
    frame = result.frame
    counts = {
        (distribution["key"], str(outcome["outcome"])): outcome["count"]
        for distribution in result.document["distributions"]
        for outcome in distribution["outcomes"]
    }
    assert {(row.key, str(row.outcome)): row.count for row in frame.itertuples()} == counts
    assert frame["count"].dtype.kind == "i"
    # A column per parameter of the key (count=..., order=..., K=...).
    key_params = {part.split("=")[0] for key in frame["key"] for part in key.split(",") if "=" in part}
    assert key_params and key_params <= set(frame.columns)
    for row in frame.itertuples():
        for part in row.key.split(","):
            if "=" in part:
                name, value = part.split("=", 1)
                assert str(getattr(row, name)) == value
    assert (frame["ci_low"] <= frame["estimate"]).all() and (frame["estimate"] <= frame["ci_high"]).all()


def test_without_pandas_the_frame_is_a_list_of_dicts(monkeypatch):
    hide_pandas(monkeypatch)
    result = deckodds.idiots_delight.exact(suits=2, ranks=3)
    frame = result.frame
    assert isinstance(frame, list) and frame == result.records
    total = sum(record["probability"] for record in frame)
    assert total == 1 and isinstance(total, Fraction)


def test_the_top_level_compare_is_the_games():
    direct = deckodds.idiots_delight.compare(suits=2, ranks=4, trials=3000, quiet=True)
    by_name = deckodds.compare("idiots-delight", suits=2, ranks=4, trials=3000, quiet=True)
    assert direct.document == by_name.document
    with pytest.raises(ValueError, match="klondike"):
        deckodds.compare("klondike")


def test_version_tables_and_lists_of_reports_are_one_long_frame():
    versions = deckodds.roll_call.mc(trials=20000, seed=2, count="all", order="all")
    frame = versions.frame
    assert set(zip(frame["version_count"], frame["order"])) == {
        (count, order) for count in ("continuous", "restart") for order in ("same", "reversed")
    }
    assert len(frame) == sum(
        len(distribution["outcomes"])
        for version in versions.document["versions"]
        for distribution in version["report"]["distributions"]
    )
    eor = deckodds.blackjack.eor(decks=1).frame
    # One report per outcome of the dealer's, told apart by its "outcome"
    # parameter, beside the rows' own outcome ("removed 2").
    assert set(eor["report_outcome"]) == {"bust", "17", "18", "19", "20", "21", "natural"}
    assert set(eor["outcome"]) >= {"removed 2", "removed A"}
    assert len(eor) == sum(
        len(d["outcomes"]) for report in deckodds.blackjack.eor(decks=1).document for d in report["distributions"]
    )
