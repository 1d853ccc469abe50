#!/usr/bin/env bash
# Checks that NetworkingKit's seams are a layer: the files under Sources/NetworkingKit/Core (the
# transport and middleware protocols, the context and call plan, HTTPBody, NetworkError and the
# HTTP rules they use) and Sources/NetworkingKit/Support (locks, the deadline watch) type-check
# on their own, as one module, with nothing else of NetworkingKit. A file there that uses a type
# from a folder above (the client, an endpoint, a middleware) fails the check with the compiler's
# "cannot find ... in scope", naming the file.
#
#   Scripts/layer-check.sh    # after `swift build` (it reads the dependencies' built modules)
set -euo pipefail
cd "$(dirname "$0")/.."

modules=$(swift build --traits DemoAPI --show-bin-path)/Modules
if [ ! -d "$modules" ]; then
    echo "error: no built modules in $modules: run swift build --traits DemoAPI first" >&2
    exit 1
fi

# The same language mode and upcoming features as Package.swift's strictSettings.
find Sources/NetworkingKit/Core Sources/NetworkingKit/Support -name '*.swift' -print0 | sort -z |
    xargs -0 swiftc -typecheck -swift-version 6 -parse-as-library -module-name NetworkingKit -package-name main \
        -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
        -enable-upcoming-feature InternalImportsByDefault -I "$modules"
echo "layer check: Sources/NetworkingKit/Core and Support type-check without the rest of NetworkingKit"
