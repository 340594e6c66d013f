#!/usr/bin/env bash
# How fast the map decoders are fuzzed: the whole-map target (decode) against the lump targets, side by side.
# Each round runs decode and then every lump target for SECONDS (default 20) from a copy of its campaign corpus
# (build-san/campaign/TARGET/corpus, left by tools/fuzz.sh --campaign; else the corpus tools/fuzz.sh seeded), seed 1, the
# campaign's flags and input lengths. libFuzzer's own inputs/s are printed per round, then per target the median
# over the ROUNDS (default 3) and its ratio to decode's median. Rounds alternate the targets so that a machine whose
# speed drifts (other work, a virtual machine's steal time) moves both sides of a ratio alike.
# Usage: tools/fuzz-speed.sh [SECONDS] [ROUNDS]   (after tools/fuzz.sh has built build-san)
set -euo pipefail

seconds="${1:-20}"
rounds="${2:-3}"
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build-san"
targets=(decode lumps_q3 lumps_q2 lumps_vbsp)
for t in "${targets[@]}"; do
    [ -x "$build/luxel_fuzz_$t" ] || { echo "fuzz-speed.sh: $build/luxel_fuzz_$t missing: run tools/fuzz.sh --runs 1 first" >&2; exit 2; }
done

max_len() { case "$1" in decode) echo 262144 ;; *) echo 131072 ;; esac; }
corpus_of() {
    for dir in "$build/campaign/$1/corpus" "$build/corpus-$1" "$build/corpus-$1-repeatable"; do
        if [ -d "$dir" ]; then echo "$dir"; return; fi
    done
    echo "fuzz-speed.sh: no corpus for $1: run tools/fuzz.sh first" >&2
    exit 2
}

scratch="$(mktemp -d /tmp/luxel-fuzz-speed.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
declare -A rates
echo "fuzz-speed.sh: ${seconds} s a target, ${rounds} rounds, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'))"
for round in $(seq "$rounds"); do
    line="round $round:"
    for t in "${targets[@]}"; do
        rm -rf "$scratch/new" && mkdir "$scratch/new"
        # New inputs go to the scratch folder; the campaign corpus is only read.
        "$build/luxel_fuzz_$t" "$scratch/new" "$(corpus_of "$t")" -seed=1 -max_total_time="$seconds" -timeout=10 \
            -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len="$(max_len "$t")" -print_final_stats=1 >"$scratch/log" 2>&1 || true
        rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$scratch/log")
        rates[$t]="${rates[$t]:-} ${rate:-0}"
        line="$line $t ${rate:-?}/s"
    done
    echo "$line"
done
median() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
base=$(median "${rates[decode]}")
printf '%-12s %12s %12s\n' target "inputs/s" "x decode"
for t in "${targets[@]}"; do
    m=$(median "${rates[$t]}")
    printf '%-12s %12s %12s\n' "$t" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN {printf (b > 0 ? "%.1f" : "-"), a / b}')"
done
