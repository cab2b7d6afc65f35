#!/usr/bin/env bash
# Regenerates the Klondike results in results/ (RULES.md section 4).
#
# Usage: analysis/klondike.sh [RESULTS_DIR]   (default: results)
# Every file is written by deckodds itself; CI regenerates them all and
# fails if a committed file differs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-results}
mkdir -p "$out"
cargo build --release --quiet
deckodds=target/release/deckodds
kl() { "$deckodds" klondike "$@"; }
base="$out/klondike"

# The exercise's rules (one card at a time, one pass), and the variants:
# 10,000,000 games each.
kl mc --quiet --trials 1e7 --out "$base-52.md" --out "$base-52.json"
kl mc --quiet --trials 1e7 --draw 3 --out "$base-52-draw3.md" --out "$base-52-draw3.json"
kl mc --quiet --trials 1e7 --passes 3 --out "$base-52-passes3.md" --out "$base-52-passes3.json"
kl mc --quiet --trials 1e7 --draw 3 --passes 3 --out "$base-52-draw3-passes3.md" --out "$base-52-draw3-passes3.json"

# Complete records of two games: the first two of the run above, and the
# first two of it that went out.
kl record --quiet --games 2 --out "$base-records.txt"
kl record --quiet --games 2 --went-out --out "$base-records-went-out.txt"
