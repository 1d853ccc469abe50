#!/usr/bin/env bash
# Runs the public HTTP cache test suite (github.com/http-tests/cache-tests, the one cache-tests.fyi
# publishes) against NetworkingKit's HTTPCache, over each transport.
#
#   Scripts/CacheConformance/run.sh /path/to/cache-tests      # or CACHE_TESTS_DIR=/path/to/cache-tests
#
# Environment (all optional):
#   TRANSPORTS   "urlsession ahc"     the proxy's transports
#   MODES        "private shared browser"
#                                     private: the tests that apply to a private cache (see
#                                     harness/selection.mjs); shared: exactly `npm run cli`, the
#                                     reverse-proxy (shared cache) run; browser: the tests
#                                     test-browser.html runs
#   OUT_DIR      /tmp                 results: cacheconf-results-<transport>.json (private mode),
#                                     cacheconf-results-<transport>-<mode>.json, and *.summary.json
#   BUILD_PATH   /tmp/cacheconf-build the proxy's build folder (kept out of the repository)
#   SKIP_BUILD   1 to use the proxy already built in BUILD_PATH
#   NK_COMMIT    build against that commit of NetworkingKit (a `git archive` of it, with this
#                folder copied in) instead of the work tree, which may hold edits in progress
#
# Needs node (>= 18) and swift. The suite needs no npm package: its origin server and client use
# node's own modules, and the one its interim-response tests import (undici) falls back to
# harness/undici-shim.mjs when it is not installed. Every server started here listens on
# 127.0.0.1 and is stopped on exit.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=${1:-${CACHE_TESTS_DIR:-}}
if [ -z "$SUITE" ] || [ ! -f "$SUITE/test-engine/cli.mjs" ]; then
    echo "usage: $0 CACHE_TESTS_DIR   (a work tree of github.com/http-tests/cache-tests)" >&2
    exit 64
fi
SUITE=$(cd "$SUITE" && pwd)
TRANSPORTS=${TRANSPORTS:-urlsession ahc}
MODES=${MODES:-private shared browser}
OUT_DIR=${OUT_DIR:-/tmp}
BUILD_PATH=${BUILD_PATH:-/tmp/cacheconf-build}
HARNESS="$HERE/harness"
WORK=$(mktemp -d /tmp/cacheconf.XXXXXX)

PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT

# The port a server printed once it listens, read from its log (port 0: the system chose it).
port_from() { # log-file pattern
    local i
    for i in $(seq 1 150); do
        if grep -q "$2" "$1" 2>/dev/null; then
            grep -o "$2" "$1" | head -1 | grep -o '[0-9]*$'
            return 0
        fi
        sleep 0.2
    done
    echo "no '$2' in $1:" >&2
    cat "$1" >&2
    return 1
}

REPO=$(cd "$HERE/../.." && pwd)
PACKAGE="$HERE"
if [ -n "${NK_COMMIT:-}" ]; then
    commit=$(git -C "$REPO" rev-parse "$NK_COMMIT")
    PACKAGE="$WORK/NetworkingKit-${commit:0:10}/Scripts/CacheConformance"
    mkdir -p "$WORK/NetworkingKit-${commit:0:10}"
    git -C "$REPO" archive "$commit" | tar -x -C "$WORK/NetworkingKit-${commit:0:10}"
    rm -rf "$PACKAGE"
    mkdir -p "$PACKAGE"
    (cd "$HERE" && tar -c --exclude=.build --exclude=.swiftpm .) | tar -x -C "$PACKAGE"
    echo "== NetworkingKit: commit $commit (snapshot in ${PACKAGE%/Scripts/CacheConformance})"
else
    dirty=$(git -C "$REPO" status --porcelain -- Sources Package.swift | wc -l)
    echo "== NetworkingKit: work tree at $(git -C "$REPO" rev-parse HEAD), $dirty changed file(s) under Sources/ and Package.swift"
fi
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    echo "== building cache-proxy (release, $BUILD_PATH)"
    (cd "$PACKAGE" && swift build -c release --build-path "$BUILD_PATH" 2>&1 | tail -30)
fi
PROXY="$BUILD_PATH/release/cache-proxy"
[ -x "$PROXY" ] || { echo "no $PROXY" >&2; exit 1; }

echo "== origin: $SUITE/test-engine/server/server.mjs"
(
    cd "$SUITE"
    CACHECONF_LOOPBACK=1 npm_package_config_protocol=http npm_package_config_port=0 \
        npm_package_config_pidfile="$WORK/origin.pid" \
        exec node --import "$HARNESS/preload.mjs" test-engine/server/server.mjs
) >"$WORK/origin.log" 2>&1 &
PIDS+=($!)
ORIGIN_PORT=$(port_from "$WORK/origin.log" 'Listening on http://127.0.0.1:[0-9]*')
ORIGIN="http://127.0.0.1:$ORIGIN_PORT"
echo "   listening on $ORIGIN"

for transport in $TRANSPORTS; do
    for mode in $MODES; do
        suffix=$([ "$mode" = private ] && echo "" || echo "-$mode")
        out="$OUT_DIR/cacheconf-results-$transport$suffix.json"
        log="$WORK/proxy-$transport-$mode.log"
        # A fresh proxy, so a fresh cache, for every run.
        "$PROXY" --transport "$transport" --port 0 --origin "$ORIGIN" --verbose >"$log" 2>&1 &
        proxy_pid=$!
        PIDS+=("$proxy_pid")
        proxy_port=$(port_from "$log" 'listening on http://127.0.0.1:[0-9]*')
        base="http://127.0.0.1:$proxy_port"
        echo "== $transport, $mode mode: proxy $base -> $ORIGIN"
        if [ "$mode" = shared ]; then
            # Exactly the suite's `npm run --silent cli --base=...`.
            (cd "$SUITE" && npm_config_base="$base" npm_package_config_id='' \
                timeout 900 node --no-warnings --import "$HARNESS/preload.mjs" test-engine/cli.mjs) \
                >"$out" 2>"$WORK/client-$transport-$mode.err"
        else
            timeout 900 node --no-warnings --import "$HARNESS/preload.mjs" "$HARNESS/run-suite.mjs" \
                --suite "$SUITE" --base "$base" --mode "$mode" \
                >"$out" 2>"$WORK/client-$transport-$mode.err"
        fi
        kill "$proxy_pid" 2>/dev/null || true
        wait "$proxy_pid" 2>/dev/null || true
        node "$HARNESS/summarize.mjs" --suite "$SUITE" --results "$out" --mode "$mode" \
            --json "${out%.json}.summary.json" | tee "$WORK/summary-$transport-$mode.txt"
        echo "   raw results: $out; proxy log: $log"
    done
done
echo "== logs kept in $WORK"
