#!/usr/bin/env bash
# Regenerates the blackjack dealer tables in results/ (RULES.md section 5).
#
# Usage: analysis/blackjack-dealer.sh [RESULTS_DIR]   (default: results)
# (analysis/reproduce.sh runs every script and writes results/README.md)
# Every file is written by deckodds itself; nothing here is edited by hand.
# CI runs this into a scratch folder and diffs it against results/, so the
# committed tables are always what the program prints.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results}
mkdir -p "$out"
cargo build --release --quiet
deckodds=target/release/deckodds
base="$out/blackjack-dealer-2-decks-s17"

# The exact table of the quiz (2 decks, S17, no peek, upcard removed) is
# made by its spec, analysis/blackjack-dealer-2-decks-s17.toml.

# Both seed tables of RULES.md, checked against it.
"$deckodds" blackjack compare --quiet \
  --published analysis/published/quiz151-exact.csv \
  --out "$base-vs-quiz151-exact.md"
"$deckodds" blackjack compare --quiet \
  --published analysis/published/quiz151-simulation.csv --hands 100000 --level 0.05 \
  --out "$base-vs-quiz151-simulation.md"
# The same simulated table against the exact table under the scoring error
# the write-up describes (ten, ace, ace scored 22): it fits.
"$deckodds" blackjack compare --quiet --scoring sorted-fold \
  --published analysis/published/quiz151-simulation.csv --hands 100000 --level 0.05 \
  --out "$base-vs-quiz151-simulation-sorted-fold.md"
