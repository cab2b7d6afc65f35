"""A long run is interrupted cleanly: KeyboardInterrupt within a second or
two of Ctrl-C, the interpreter fine and the next run whole; progress
reaches the caller while the GIL is released."""

import _thread
import signal
import threading
import time
from fractions import Fraction

import pytest

import deckodds
from deckodds import _native


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Ctrl-C raising KeyboardInterrupt, as in an interactive session,
    however the tests were started. A shell that starts a command in the
    background (`command &` without job control) starts it with SIGINT
    ignored; Python then keeps it ignored, and `_thread.interrupt_main()`
    does nothing, so a test of interrupts would run its ten-minute run to
    the end and fail."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_an_interrupt_stops_a_long_monte_carlo_run_promptly():
    interrupted_at = []

    def interrupt():
        interrupted_at.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(1.0, interrupt)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        # About ten minutes' work on two cores if it ran to its end.
        deckodds.idiots_delight.mc(trials=10**10, quiet=True)
    ended = time.monotonic()
    timer.join()
    assert interrupted_at, "the run ended before the interrupt"
    assert ended - interrupted_at[0] < 2.0, ended - interrupted_at[0]
    assert interrupted_at[0] - started >= 0.9
    # The stop was this run's only: the next one runs whole.
    again = deckodds.idiots_delight.mc(trials=20000, seed=5, quiet=True)
    assert sum(o["count"] for o in again.document["distributions"][0]["outcomes"]) == 20000


def test_an_interrupt_stops_a_long_exact_enumeration_promptly():
    interrupted_at = []

    def interrupt():
        interrupted_at.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(1.0, interrupt)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        # Every one of 13! arrangements: minutes on two cores to its end.
        deckodds.roll_call.exact(ranks=13, copies=1, quiet=True)
    ended = time.monotonic()
    timer.join()
    assert interrupted_at, "the enumeration ended before the interrupt"
    assert ended - interrupted_at[0] < 3.0, ended - interrupted_at[0]
    # The next enumeration runs whole: its fractions add up to one.
    again = deckodds.roll_call.exact(ranks=4, copies=2, quiet=True)
    for distribution in again.document["distributions"]:
        total = sum(Fraction(o["probability"]) for o in distribution["outcomes"])
        assert total == 1, distribution["key"]


def test_progress_reaches_the_caller_and_the_gil_is_free_meanwhile():
    calls = []
    ticks = []
    stop_ticking = threading.Event()

    def tick():
        # A Python thread runs only while the run has released the GIL.
        while not stop_ticking.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        output = _native._run(
            ["idiots-delight", "mc", "--trials", "8e6", "--format", "json"],
            lambda done, total: calls.append((done, total)),
        )
    finally:
        stop_ticking.set()
        ticker.join()
    assert '"trials": 8000000' in output
    assert len(calls) >= 2, calls
    totals = {total for _, total in calls}
    assert totals == {8_000_000}, totals
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[-1] <= 8_000_000
    assert len(ticks) > 20, len(ticks)


def test_an_exception_in_the_progress_callback_stops_the_run():
    def refuse(done, total):
        raise RuntimeError("enough")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        _native._run(["idiots-delight", "mc", "--trials", "1e10", "--format", "json"], refuse)
    assert time.monotonic() - started < 3.0


def test_a_clap_error_is_the_binarys_line_and_help_is_text():
    from conftest import cli_error

    for argv in (["blackjack", "exact", "--h1"], ["blackjack", "exact", "--decks", "0"], ["poker"]):
        with pytest.raises(ValueError) as raised:
            _native._run(argv)
        assert str(raised.value) == cli_error(*argv)
    with pytest.raises(ValueError, match="did you mean '--h17'"):
        _native._run(["blackjack", "exact", "--h1"])
    assert "Usage" in _native._run(["blackjack", "exact", "--help"])


def test_a_long_run_shows_a_tqdm_bar_unless_quiet(monkeypatch, capsys):
    pytest.importorskip("tqdm")
    from deckodds import _core

    monkeypatch.setattr(_core, "BAR_AFTER_SECONDS", 0.0)
    deckodds.idiots_delight.mc(trials=3 * 10**6)
    shown = capsys.readouterr().err
    assert "idiots-delight mc" in shown and "3.00M/3.00M" in shown, shown[-500:]
    deckodds.idiots_delight.mc(trials=3 * 10**6, quiet=True)
    assert capsys.readouterr().err == ""
