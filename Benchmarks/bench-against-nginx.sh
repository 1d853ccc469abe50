#!/usr/bin/env bash
# Measures NetworkingKit against raw AsyncHTTPClient and raw URLSession over loopback, with nginx
# as the server (so DemoAPI's own cost does not hide the client's): 64 requests in flight, then 1.
#
#   Benchmarks/bench-against-nginx.sh [extra netkit bench options]
#
# Needs nginx (Debian: apt-get install nginx-light). Builds netkit in release mode first.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v nginx > /dev/null || { echo "nginx is not installed (apt-get install nginx-light)" >&2; exit 1; }
swift build -c release --traits DemoAPI --product netkit

prefix=$(mktemp -d)
trap 'kill "$(cat "$prefix/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$prefix"' EXIT
mkdir -p "$prefix/tmp"
# A free port of 127.0.0.1, taken from the kernel and handed to nginx.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
sed "s/PORT/$port/" Benchmarks/nginx.conf > "$prefix/nginx.conf"
cp Benchmarks/todos.json "$prefix/todos"
# nginx's workers run as another user when it is started as root: let them read the list.
chmod 755 "$prefix"
chmod 644 "$prefix/todos"
nginx -p "$prefix" -c "$prefix/nginx.conf" &
for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/todos/1" > /dev/null 2>&1 && break
    sleep 0.1
done

for concurrency in 64 1; do
    requests=$((concurrency == 1 ? 5000 : 20000))
    .build/release/netkit bench --url "http://127.0.0.1:$port" --concurrency "$concurrency" \
        --requests "$requests" --rounds 3 "$@"
    # wrk against the same nginx in the same run: what an HTTP/1.1 client costs at its least.
    if command -v wrk > /dev/null; then
        rates=()
        for _ in 1 2 3; do
            rates+=("$(wrk -t1 -c"$concurrency" -d3s "http://127.0.0.1:$port/todos/1" | awk '/Requests\/sec/ { printf "%d", $2 }')")
        done
        median=$(printf '%s\n' "${rates[@]}" | sort -n | sed -n 2p)
        echo "wrk -t1 -c$concurrency, the same answer: ${rates[*]} requests/s (median $median)"
    fi
done
