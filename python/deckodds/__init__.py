"""deckodds: exact and Monte-Carlo odds for card games, and whether the two
agree, in Python.

One function per command of the ``deckodds`` command line, with its
options as keyword parameters under the same names (snake case) and
defaults, run in process by the Rust library (no subprocess)::

    import deckodds
    table = deckodds.blackjack.exact(decks=2, h17=True)
    table.frame            # pandas DataFrame: upcard, outcome, probability (Fraction), value
    deckodds.idiots_delight.mc(trials=10**6, seed=1, shuffle="naive").document

Modules: :mod:`deckodds.blackjack`, :mod:`deckodds.idiots_delight`,
:mod:`deckodds.roll_call`, :mod:`deckodds.prisoners_patience`,
:mod:`deckodds.klondike`. Every function returns a :class:`Result`: the JSON
document as ``.document``, and the table its report leads with, in long
form, as ``.frame`` (a pandas DataFrame; see :class:`Result` for each
command's); for commands that write readable text (``replay``,
``klondike.record``) or deals (``klondike.deals``), the text as ``.text``.

Bad values raise ``ValueError`` with the command line's one-line message,
values of the wrong type ``TypeError`` naming the parameter. The GIL is
released while a command runs, and Ctrl-C stops a Monte-Carlo run at its
next chunk with ``KeyboardInterrupt``.
"""

from . import blackjack, idiots_delight, klondike, prisoners_patience, roll_call
from ._core import COMMANDS, Result
from ._native import __version__

__all__ = [
    "blackjack",
    "idiots_delight",
    "roll_call",
    "prisoners_patience",
    "klondike",
    "compare",
    "Result",
    "COMMANDS",
    "__version__",
]

_GAMES = {
    "blackjack": blackjack,
    "idiots-delight": idiots_delight,
    "roll-call": roll_call,
    "prisoners-patience": prisoners_patience,
}


def compare(game: str, **params):
    """A game's ``compare`` command: ``compare("idiots-delight", suits=2,
    ranks=4)`` is ``deckodds.idiots_delight.compare(suits=2, ranks=4)``
    (Monte Carlo against exact, or as the game's command offers). `game` is
    a command-line game name with a compare command: blackjack,
    idiots-delight, roll-call, prisoners-patience."""
    module = _GAMES.get(game) or _GAMES.get(str(game).replace("_", "-"))
    if module is None:
        raise ValueError(
            f"game {game!r}: must be one of {', '.join(_GAMES)} (the games with a compare command)"
        )
    return module.compare(**params)
