# %% [markdown]
# # The dealer's outcomes, 2 decks, S17: a table of results/ from Python
#
# `results/blackjack-dealer-2-decks-s17.json` is what `deckodds blackjack
# exact` (2 decks, the dealer stands on soft 17, no peek) wrote when the
# results were made. Here the same computation runs in process from
# Python; we check that it is exactly the committed table (every
# probability an exact fraction) and draw it.
#
# Run it as a script (`python python/examples/reproduce_table.py`) or cell
# by cell (`# %%`) in an editor that knows the format (VS Code, Spyder,
# Jupytext). Needs pandas and matplotlib.

# %%
import json
import sys
from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # a file, not a window; drop this line in a notebook
import matplotlib.pyplot as plt
import pandas as pd

import deckodds

REPOSITORY = Path(__file__).resolve().parents[2] if "__file__" in globals() else Path.cwd()
COMMITTED = REPOSITORY / "results" / "blackjack-dealer-2-decks-s17.json"

# %% [markdown]
# ## The computation: 2 decks, S17 (the defaults spelled out)

# %%
dealer = deckodds.blackjack.exact(decks=2, h17=False, peek=False)
table = dealer.frame
table.head(8)

# %% [markdown]
# ## Exactly the committed table
#
# The whole document, and the probabilities as fractions: not close, equal.

# %%
committed = json.loads(COMMITTED.read_text())
# A document of an older program may lack the newer keys (the schema tag):
# compare what both hold.
shared = {key: committed[key] for key in committed if key in dealer.document}
assert shared == {key: dealer.document[key] for key in shared}, "the table differs from results/"
committed_fractions = {
    (d["key"], o["outcome"]): Fraction(o["probability"])
    for d in committed["distributions"]
    for o in d["outcomes"]
}
ours = {(row.key, row.outcome): row.probability for row in table.itertuples()}
assert ours == committed_fractions
assert all(total == 1 for total in table.groupby("upcard")["probability"].sum())
print(f"{len(ours)} exact probabilities, each equal to {COMMITTED.relative_to(REPOSITORY)}'s")

# %% [markdown]
# ## The table: outcome by upcard, in percent

# %%
upcards = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]
outcomes = ["17", "18", "19", "20", "21", "natural", "bust"]
wide = (
    table.assign(percent=100 * table["value"])
    .pivot(index="upcard", columns="outcome", values="percent")
    .loc[upcards, outcomes]
)
wide.round(2)

# %% [markdown]
# ## The chart: stacked outcomes for every upcard

# %%
fig, ax = plt.subplots(figsize=(8, 4.5))
bottom = pd.Series(0.0, index=upcards)
for outcome in outcomes:
    ax.bar(upcards, wide[outcome], bottom=bottom, label=outcome)
    bottom += wide[outcome]
ax.set_xlabel("dealer's upcard")
ax.set_ylabel("probability (%)")
ax.set_title("Dealer's final outcome by upcard, 2 decks, S17 (exact)")
ax.legend(title="outcome", bbox_to_anchor=(1.01, 1), loc="upper left")
fig.tight_layout()
out = Path(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].endswith(".png") else Path(__file__).with_suffix(".png")
fig.savefig(out, dpi=120)
print(f"wrote {out}")
