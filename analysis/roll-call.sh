#!/usr/bin/env bash
# Regenerates the Roll-Call results in results/ (RULES.md section 2).
#
# Usage: analysis/roll-call.sh [RESULTS_DIR]   (default: results)
# Every file is written by deckodds itself; CI regenerates them all and
# fails if a committed file differs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results}
mkdir -p "$out"
cargo build --release --quiet
deckodds=target/release/deckodds
rc() { "$deckodds" roll-call "$@"; }
base="$out/roll-call"

# Exact distributions of every version's outcomes on small decks (ranks x
# copies), every distinct arrangement played; the standard rules.
decks="3x2 3x3 3x4 4x2 4x3 4x4 5x2 5x3 6x2 7x2 11x1 12x1"
for deck in $decks; do
  ranks=${deck%x*} copies=${deck#*x}
  rc exact --quiet --ranks "$ranks" --copies "$copies" --out "$base-exact-$deck.md" --out "$base-exact-$deck.json"
done

# The stretch deck, 13 x 1: 6,227,020,800 arrangements, about 6 minutes on
# two cores. Only with DECKODDS_SLOW=1; CI leaves it out (its files
# are listed in analysis/slow-results.txt) to stay well under 30 minutes.
if [ "${DECKODDS_SLOW:-0}" = 1 ]; then
  rc exact --quiet --ranks 13 --copies 1 --out "$base-exact-13x1.md" --out "$base-exact-13x1.json"
fi

# Monte Carlo against exact, every distribution, every version, on the
# small decks quick to enumerate (1,000,000 games each).
mc_vs_exact="$base-mc-vs-exact.md"
: > "$mc_vs_exact"
for deck in 3x3 4x2 4x3 5x2 6x2; do
  ranks=${deck%x*} copies=${deck#*x}
  for count in continuous restart; do
    for order in same reversed; do
      rc compare --quiet --ranks "$ranks" --copies "$copies" --count "$count" --order "$order" --format md >> "$mc_vs_exact"
      echo >> "$mc_vs_exact"
    done
  done
done

# The exact first pass of the standard deck, the 52-card runs of each
# version and the comparisons between versions are made by their specs,
# analysis/roll-call-*.toml.
