#!/usr/bin/env bash
# Instructions per call of each in-memory row (Sources/BenchmarkScenarios), counted by callgrind,
# checked against Thresholds/instructions-per-call.txt. Instruction counts repeat run to run where
# time does not, and this machine's kernel exposes no hardware counters for ordo-one/benchmark to
# read, so they are counted here instead.
#
#   Benchmarks/instruction-counts.sh            # count, and fail when a row grew by more than 3%
#   Benchmarks/instruction-counts.sh --record   # count, and record the counts as the new thresholds
#   Benchmarks/instruction-counts.sh --profile ROW   # leave a callgrind profile of 2,000 calls
#
# Each row runs twice, 1,000 and 3,000 calls (fewer for the rows that decode large documents:
# InstructionCounts --calls ROW); the difference is its cost per call, with start-up and first
# calls cancelled out. Needs valgrind (Debian: apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")"

thresholds=Thresholds/instructions-per-call.txt
# Percent. A build repeats its counts to within a few instructions, but a change anywhere moves
# every row by up to about 1,000 per call: the runtime's table of generic type metadata, which
# JSONDecoder looks up many times per call, probes differently.
tolerance=3
mode=check
case "${1:-}" in
--record) mode=record ;;
--profile) mode=profile; profile_row=${2:?"--profile needs a row (InstructionCounts --list)"} ;;
"") ;;
*) echo "usage: $0 [--record | --profile ROW]" >&2; exit 2 ;;
esac

source ./callgrind.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prepare_for_callgrind InstructionCounts "$work"
count() { # row calls -> instructions of the whole process
    callgrind_count "$work" "$work/$1.$2.out" "$1" "$2"
}

if [ "$mode" = profile ]; then
    callgrind_run "$work" "$PWD/callgrind.$profile_row.out" "$profile_row" 2000
    echo "callgrind_annotate --inclusive=yes $PWD/callgrind.$profile_row.out | less"
    exit 0
fi

declare -A recorded=()
if [ -f "$thresholds" ]; then
    while read -r row value; do
        case "$row" in '#'* | "") continue ;; esac
        recorded[$row]=$value
    done < "$thresholds"
fi

results="$work/results"
: > "$results"
failed=0
improved=0
echo "| row | instructions per call | recorded | change |"
echo "|---|---:|---:|---:|"
for row in $("$work/program" --list); do
    # The two runs at once, one core each: 1,000 and 3,000 calls, fewer for the large documents.
    read -r calls_a calls_b < <("$work/program" --calls "$row")
    count "$row" "$calls_a" > "$work/a" &
    count "$row" "$calls_b" > "$work/b"
    wait $!
    a=$(cat "$work/a")
    b=$(cat "$work/b")
    if [ -z "$a" ] || [ -z "$b" ]; then
        echo "error: $row did not run under valgrind" >&2
        exit 1
    fi
    per_call=$(((b - a) / (calls_b - calls_a)))
    echo "$row $per_call" >> "$results"
    old=${recorded[$row]:-}
    if [ -z "$old" ]; then
        echo "| $row | $per_call | none | |"
        [ "$mode" = check ] && failed=1
        continue
    fi
    change=$(awk -v new="$per_call" -v old="$old" 'BEGIN { printf "%+.1f%%", (new - old) * 100 / old }')
    echo "| $row | $per_call | $old | $change |"
    if [ $((per_call * 100)) -gt $((old * (100 + tolerance))) ]; then
        echo "error: $row costs $per_call instructions per call, more than $tolerance% over the $old recorded" >&2
        failed=1
    elif [ $((per_call * 100)) -lt $((old * (100 - tolerance))) ]; then
        improved=1
    fi
done

if [ "$mode" = record ]; then
    {
        echo "# Instructions per call of each in-memory row, counted by Benchmarks/instruction-counts.sh"
        echo "# (callgrind, Swift $(swift --version 2>&1 | awk '/Swift version/ { print $3; exit }'), Linux x86_64)."
        cat "$results"
    } > "$thresholds"
    echo "recorded in Benchmarks/$thresholds"
    exit 0
fi
if [ "$failed" -ne 0 ]; then
    echo "error: a row costs more instructions than Benchmarks/$thresholds allows, or has none recorded" >&2
    echo "(after a change that is worth it: Benchmarks/instruction-counts.sh --record)" >&2
    exit 1
fi
if [ "$improved" -ne 0 ]; then
    echo "note: a row costs more than $tolerance% fewer instructions than recorded; record them again (--record)"
fi
