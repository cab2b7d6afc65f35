#!/usr/bin/env bash
# Regenerates the Prisoner's patience results in results/ (RULES.md section 3).
#
# Usage: analysis/prisoners-patience.sh [RESULTS_DIR]   (default: results)
# Every file is written by deckodds itself; CI regenerates them all and
# fails if a committed file differs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results}
mkdir -p "$out"
cargo build --release --quiet
deckodds=target/release/deckodds
pp() { "$deckodds" prisoners-patience "$@"; }
base="$out/prisoners-patience"

# Exact distributions of stacks left on small decks (suits x ranks), both
# stack-move rules, by the memoised enumerator (checked against the
# exhaustive one by the tests on every deck up to 12 cards).
decks="2x3 3x3 4x3 5x3 2x4 3x4 4x4 2x5 3x5 2x6 2x7 1x11 1x12 1x13"
for rule in reversed kept; do
  for deck in $decks; do
    suits=${deck%x*} ranks=${deck#*x}
    pp exact --quiet --suits "$suits" --ranks "$ranks" --stack-move "$rule" --out "$base-exact-$deck-$rule.md" --out "$base-exact-$deck-$rule.json"
  done
done

# The largest deck, 2 x 8: about 100 s and 1.4 GiB a run. Only with
# DECKODDS_SLOW=1 (listed in analysis/slow-results.txt).
if [ "${DECKODDS_SLOW:-0}" = 1 ]; then
  for rule in reversed kept; do
    pp exact --quiet --suits 2 --ranks 8 --stack-move "$rule" --out "$base-exact-2x8-$rule.md" --out "$base-exact-2x8-$rule.json"
  done
fi

# Monte Carlo against exact on small decks, both rules (1,000,000 games).
mc_vs_exact="$base-mc-vs-exact.md"
: > "$mc_vs_exact"
for deck in 3x4 2x6 2x7 1x12; do
  suits=${deck%x*} ranks=${deck#*x}
  for rule in reversed kept; do
    pp compare --quiet --suits "$suits" --ranks "$ranks" --stack-move "$rule" --format md >> "$mc_vs_exact"
    echo >> "$mc_vs_exact"
  done
done

# The 52-card runs under each rule and their comparisons (with the seed's
# figure, and with each other) are made by analysis/prisoners-patience-52-*.toml.

# Which deals can be won at all, with free choice of moves, beside what the
# fixed sweep wins: every arrangement of small decks, solved exactly.
for rule in reversed kept; do
  for deck in 3x4 2x5 1x9 1x10; do
    suits=${deck%x*} ranks=${deck#*x}
    pp solve --every --quiet --suits "$suits" --ranks "$ranks" --stack-move "$rule" --out "$base-winnable-exact-$deck-$rule.md" --out "$base-winnable-exact-$deck-$rule.json"
  done
done

# The same on 52 cards, random deals with a budget of 4,000,000 states a
# deal (undecided beyond it): minutes of search, so only with
# DECKODDS_SLOW=1 (listed in analysis/slow-results.txt).
if [ "${DECKODDS_SLOW:-0}" = 1 ]; then
  pp solve --trials 2000 --quiet --stack-move reversed --out "$base-winnable-52-reversed.md" --out "$base-winnable-52-reversed.json"
  pp solve --trials 1000 --quiet --stack-move kept --out "$base-winnable-52-kept.md" --out "$base-winnable-52-kept.json"
fi
