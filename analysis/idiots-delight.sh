#!/usr/bin/env bash
# Regenerates the Idiot's Delight results in results/ (RULES.md section 1).
#
# Usage: analysis/idiots-delight.sh [RESULTS_DIR]   (default: results)
# Every file is written by deckodds itself. Files ending in .cost.txt hold
# run times and peak memory, which vary from run to run; CI regenerates
# everything else and fails if a committed file differs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results}
mkdir -p "$out"
cargo build --release --quiet
deckodds=target/release/deckodds
id() { "$deckodds" idiots-delight "$@"; }
base="$out/idiots-delight"

# Exact distributions of cards left on small decks (memoised enumerator),
# each with what it cost.
decks="2x4 3x3 4x2 5x2 4x3 3x4 2x6 2x8 3x5 5x3 4x4 2x10"
cost="$base-exact.cost.txt"
: > "$cost"
for deck in $decks; do
  suits=${deck%x*} ranks=${deck#*x}
  id exact --suits "$suits" --ranks "$ranks" --out "$base-exact-$deck.md" 2>> "$cost"
  id exact --quiet --suits "$suits" --ranks "$ranks" --out "$base-exact-$deck.json"
done
sed -i '/^wrote /d' "$cost"

# Monte Carlo against exact on every small deck (1,000,000 games each).
mc_vs_exact="$base-mc-vs-exact.md"
: > "$mc_vs_exact"
for deck in $decks; do
  suits=${deck%x*} ranks=${deck#*x}
  id compare --quiet --suits "$suits" --ranks "$ranks" --format md >> "$mc_vs_exact"
  echo >> "$mc_vs_exact"
done

# The naive shuffle exactly, on decks small enough, beside the uniform
# distribution, and its Monte Carlo against both.
for deck in 2x4 3x3 4x2 2x5 5x2; do
  suits=${deck%x*} ranks=${deck#*x}
  id exact --quiet --suits "$suits" --ranks "$ranks" --shuffle both --out "$base-exact-$deck-naive-vs-uniform.md"
done

# 52 cards: the SAS paper's table against 10,000,000 games under each
# shuffle, with the chart. (The runs of each shuffle alone, and the power
# of detecting the naive shuffle, are made by analysis/idiots-delight-52-*.toml.)
id compare --quiet --published sas --shuffle all --trials 1e7 \
  --chart "$base-52-vs-sas.svg" --out "$base-52-vs-sas.md"
