#!/usr/bin/env bash
# Instructions per request over loopback, counted by callgrind: the HTTP library used directly
# (raw AsyncHTTPClient, raw URLSession), NetworkingKit's bare transport, the client, and the full
# stack, against nginx (Benchmarks/nginx.conf), with the ratio of raw's count to each row's (1.00
# is raw's cost; below is dearer). Where netkit bench's time ratios move by several points from run
# to run on a shared machine, these move by one or two: they count the process's own work (not the
# kernel's, nor time spent waiting).
#
#   Benchmarks/loopback-instruction-counts.sh [IN_FLIGHT (64)] [ROW...]
#
# Each row runs twice under callgrind, 1,000 and 3,000 requests (200 and 600 for the medium
# answer's rows, `*_medium*`, whose baseline is raw_asynchttpclient_medium); the difference is its
# count per request, with start-up and the first connections cancelled out. Needs
# valgrind and nginx (Debian: apt-get install valgrind nginx-light). A few minutes per row.
set -euo pipefail
cd "$(dirname "$0")"

in_flight=${1:-64}
shift || true
# Counts move with the machine's load: nginx answering later or sooner changes how many reads and
# loop turns a request takes. Refuse a busy machine (the 1-minute load average above 0.7) unless
# LOOPBACK_ALLOW_BUSY=1 says the figures are wanted anyway.
load=$(cut -d' ' -f1 /proc/loadavg 2> /dev/null || echo 0)
if awk -v load="$load" 'BEGIN { exit !(load > 0.7) }' && [ "${LOOPBACK_ALLOW_BUSY:-0}" != 1 ]; then
    echo "the machine is busy (load average $load): counts would move; wait, or set LOOPBACK_ALLOW_BUSY=1" >&2
    exit 2
fi
command -v nginx > /dev/null || { echo "nginx is not installed (apt-get install nginx-light)" >&2; exit 1; }
source ./callgrind.sh
work=$(mktemp -d)
trap 'kill "$(cat "$work/nginx/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT
prepare_for_callgrind LoopbackInstructionCounts "$work"

mkdir -p "$work/nginx/tmp"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
sed "s/PORT/$port/" nginx.conf > "$work/nginx/nginx.conf"
cp todos.json "$work/nginx/todos"
# nginx's workers run as another user when it is started as root: let them read the list.
chmod 755 "$work" "$work/nginx"
chmod 644 "$work/nginx/todos"
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" &
for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/todos/1" > /dev/null 2>&1 && break
    sleep 0.1
done

count() { # row requests -> instructions of the whole process
    callgrind_count "$work" "$work/callgrind.out" "http://127.0.0.1:$port" "$1" "$2" "$in_flight"
}

rows=("$@")
[ ${#rows[@]} -gt 0 ] || mapfile -t rows < <("$work/program" --list)
echo "load average at the start: $load"
echo "| row, $in_flight in flight | instructions per request | vs raw |"
echo "|---|---:|---:|"
raw=""
for row in "${rows[@]}"; do
    # The medium answer's rows: fewer requests, each of them decodes 200 todos.
    case "$row" in *_medium*) calls_a=200 calls_b=600 ;; *) calls_a=1000 calls_b=3000 ;; esac
    a=$(count "$row" "$calls_a")
    b=$(count "$row" "$calls_b")
    if [ -z "$a" ] || [ -z "$b" ]; then
        echo "error: $row did not run under valgrind" >&2
        exit 1
    fi
    per_request=$(((b - a) / (calls_b - calls_a)))
    case "$row" in raw_asynchttpclient | raw_urlsession | raw_asynchttpclient_medium) raw=$per_request ;; esac
    ratio=""
    if [ -n "$raw" ]; then ratio=$(awk -v raw="$raw" -v row="$per_request" 'BEGIN { printf "%.2f", raw / row }'); fi
    echo "| $row | $per_request | $ratio |"
done
