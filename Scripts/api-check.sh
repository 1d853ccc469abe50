#!/usr/bin/env bash
# The public API of the library products, compared with the baseline recorded in .ci/api-baseline/
# by swift-api-digester (in the toolchain): a change that breaks callers (a declaration removed or
# renamed, a type or a requirement changed) fails, unless .ci/api-breakage-allowlist.txt lists it.
# Additions never fail. So a change to the public API is a decision, written down in the same
# commit, not an accident.
#
#   Scripts/api-check.sh            # check (after `swift build --traits DemoAPI`)
#   Scripts/api-check.sh --record   # record the current API as the baseline, after a decided change
#
# Only what callers outside the package see is compared (Scripts/api-public.py drops `package`
# declarations). SwiftPM's `diagnose-api-breaking-changes` builds the baseline revision again,
# without the package's traits (so DemoAPI's trait check stops it); a recorded baseline needs no
# second build. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(NetworkingKit NetworkingKitTesting NetworkingKitAsyncHTTPClient)
baseline=.ci/api-baseline
allowlist=.ci/api-breakage-allowlist.txt
mode=check
case "${1:-}" in
--record) mode=record ;;
"") ;;
*) echo "usage: $0 [--record]" >&2; exit 2 ;;
esac

bin=$(swift build --traits DemoAPI --show-bin-path)
# The C modules the products import (zlib, SwiftNIO's and swift-crypto's shims): their module maps.
search=(-I "$bin/Modules" -I Sources/CZlib)
while IFS= read -r dir; do search+=(-I "$dir"); done < <(
    {
        find .build/checkouts -path "*/include/module.modulemap" -printf "%h\n"
        find -L "$bin" -maxdepth 2 -name module.modulemap -printf "%h\n"
    } 2> /dev/null | sort -u
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
found=0
for module in "${modules[@]}"; do
    swift-api-digester -dump-sdk -module "$module" "${search[@]}" -avoid-location -avoid-tool-args -o "$work/$module.dump.json"
    python3 Scripts/api-public.py "$work/$module.dump.json" "$work/$module.json"
    if [ "$mode" = record ]; then
        mkdir -p "$baseline"
        gzip -9 -n -c "$work/$module.json" > "$baseline/$module.json.gz"
        echo "recorded $baseline/$module.json.gz"
        continue
    fi
    gunzip -c "$baseline/$module.json.gz" > "$work/$module.baseline.json"
    swift-api-digester -diagnose-sdk -input-paths "$work/$module.baseline.json" -input-paths "$work/$module.json" \
        -o "$work/$module.report"
    # Every breaking change (the report's lines under its /* section */ headings), less those
    # decided (the allowlist's lines, compared whole).
    if grep -v -e '^/\*' -e '^[[:space:]]*$' "$work/$module.report" | sed 's/^API breakage: //' | grep -vxF -f "$allowlist" \
        | sed "s/^/$module: /"; then
        found=1
    fi
done
if [ "$found" -ne 0 ]; then
    echo "error: the public API changed in a way that breaks callers (above). If that is decided, add each line" >&2
    echo "       (without the module's name) to $allowlist, or record a new baseline: $0 --record" >&2
    exit 1
fi
if [ "$mode" = check ]; then echo "public API: no breaking change against $baseline"; fi
