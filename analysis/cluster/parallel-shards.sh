#!/usr/bin/env bash
# A Monte-Carlo run cut into parts under GNU parallel, then merged: the
# merged table is byte for byte the table of the one run.
#
# Usage: analysis/cluster/parallel-shards.sh PARTS OUT_DIR DECKODDS_COMMAND...
#   e.g. analysis/cluster/parallel-shards.sh 4 runs/pp prisoners-patience mc --trials 1e9 --seed 1
#
# Runs the parts two at a time on this machine (-j2). To spread them over
# machines that share OUT_DIR and have deckodds on their PATH, add
# `-S host1,host2` (GNU parallel logs in by ssh), and set DECKODDS to the
# program's path there.
set -euo pipefail
parts=$1 out=$2
shift 2
deckodds=${DECKODDS:-deckodds}
mkdir -p "$out"
# Part k of n writes its count file; parallel numbers the parts 0..n-1.
seq 0 $((parts - 1)) | parallel -j2 --halt now,fail=1 \
  "$deckodds" "$@" --quiet --threads 1 --shard {}/"$parts" --out "$out"/part-{}.json
# Checks the parts belong together and writes the one run's outputs.
"$deckodds" --quiet merge "$out"/part-*.json --out "$out"/merged.json --out "$out"/merged.md
echo "merged $parts parts into $out/merged.json and $out/merged.md"
