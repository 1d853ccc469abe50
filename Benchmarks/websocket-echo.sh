#!/usr/bin/env bash
# Echo round trips over one WebSocket connection: NetworkingKit (NIOTransport) against
# swift-websocket's WSClient used directly, in the same run, against one in-process echo server;
# then resident memory over many small messages on one connection, and memory and descriptors over
# many connections opened and closed one after another (flat is the goal).
#
#   Benchmarks/websocket-echo.sh [round-trips [messages [connections]]]   # defaults: 20000 1000000 10000
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product WebSocketEcho
"$(swift build -c release --show-bin-path)/WebSocketEcho" "${1:-20000}" "${2:-1000000}" "${3:-10000}"
