#!/usr/bin/env bash
# Builds a throwaway app the way a new user would: its Package.swift takes the README's
# Installation excerpt word for word (the package URL mirrored to this clone), an app target on
# NetworkingKit and a test target on NetworkingKitTesting, resolved and built from nothing. Prints
# the packages fetched and the cold build time, and fails if a package the two products do not
# use was fetched (the light dependency the package traits promise).
#
#   Scripts/consumer-check.sh                 # the README's excerpt
#   Scripts/consumer-check.sh --trait NAME    # the same with one of NetworkingKit's traits on
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
trait=""
if [ "${1:-}" = "--trait" ]; then
    trait=${2:?"--trait needs a name"}
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
app="$work/Consumer"
mkdir -p "$app/Sources/App" "$app/Tests/AppTests"

# The README's manifest excerpt: the ```swift block that starts with `// Package.swift`.
excerpt=$(awk '/^```swift$/ { inside = 1; first = 1; next }
    inside && /^```$/ { inside = 0; if (found) exit; next }
    inside && first { first = 0; if ($0 == "// Package.swift") { found = 1; next } }
    inside && found { print }' "$repo/README.md")
if [ -z "$excerpt" ]; then
    echo "error: README.md has no \`// Package.swift\` excerpt" >&2
    exit 1
fi
url=$(printf '%s\n' "$excerpt" | sed -n 's/.*\.package(url: "\([^"]*\)".*/\1/p' | head -1)
if [ -n "$trait" ]; then
    excerpt=$(printf '%s\n' "$excerpt" | sed "s|\(\.package(url: \"$url\"[^)]*\))|\1, traits: [\"$trait\"])|")
fi
{
    echo '// swift-tools-version: 6.1'
    echo 'import PackageDescription'
    echo 'let package = Package('
    echo '    name: "Consumer",'
    echo '    platforms: [.macOS(.v13), .iOS(.v16)],'
    printf '%s\n' "$excerpt"
    echo ')'
} > "$app/Package.swift"

cat > "$app/Sources/App/Films.swift" <<'SWIFT'
import Foundation
import NetworkingKit

public struct Film: Decodable, Sendable, Equatable {
    public let id: String
    public let title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

public struct FilmsService: Sendable {
    let client: any APIClient

    public init(client: any APIClient) {
        self.client = client
    }

    public func films() async throws -> [Film] {
        try await client.send(Request<[Film]>(path: "/films"))
    }
}

public func liveService() -> FilmsService {
    FilmsService(client: LiveAPIClient(baseURL: URL(string: "https://api.example.com")!))
}
SWIFT
# An app's error-to-message switch over every case: NetworkError may grow in a minor release
# (it is @nonexhaustive), so the switch ends with `@unknown default`, and compiles.
cat > "$app/Sources/App/Messages.swift" <<'SWIFT'
import NetworkingKit

public func message(for error: NetworkError) -> String {
    switch error {
    case .invalidURL, .invalidRequest, .encodingFailed, .bodyNotReplayable: "The app could not make this request."
    case .badRequest, .clientError, .validationFailed, .conflict: "The server refused this request."
    case .unauthorized, .invalidCredentials, .forbidden: "Please sign in again."
    case .notFound: "This item is no longer available."
    case .rateLimited: "Too many requests: try again in a moment."
    case .serverError, .unexpectedStatus, .redirectFailed: "The service is having trouble."
    case .transport, .timeout: "Check your connection and try again."
    case .cancelled: "Cancelled."
    case .responseTooLarge, .decodingFailed, .unacceptableContentType: "The answer could not be read."
    case .fileFailed: "The file could not be used."
    case .webSocket: "The live connection failed."
    case .circuitOpen: "The service is unavailable for now."
    case .unknown: "Something went wrong."
    @unknown default: error.localizedDescription
    }
}
SWIFT
cat > "$app/Tests/AppTests/FilmsTests.swift" <<'SWIFT'
import App
import NetworkingKit
import NetworkingKitTesting
import Testing

@Test func filmsComeFromTheClient() async throws {
    let mock = MockAPIClient()
    mock.stub(Request<[Film]>(path: "/films"), with: [Film(id: "up", title: "Up")])
    #expect(try await FilmsService(client: mock).films() == [Film(id: "up", title: "Up")])
}
SWIFT

# The package URL resolves to this clone's `main`, the way it would resolve to GitHub.
swift package --package-path "$app" config set-mirror --original "$url" --mirror "$repo"

start=$(date +%s)
swift package --package-path "$app" resolve > "$work/resolve.log" 2>&1 || { cat "$work/resolve.log"; exit 1; }
swift build --package-path "$app" --build-tests > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
seconds=$(( $(date +%s) - start ))

# The same switch without `@unknown default` must not compile: a case added later would break it.
sed '/@unknown default/d' "$app/Sources/App/Messages.swift" > "$work/Exhaustive.swift"
modules="$app/.build/debug/Modules"
[ -d "$modules" ] || modules="$app/.build/debug"
# NetworkingKit imports the system's zlib through the package's CZlib module map, which a module's
# client must be able to load too: SwiftPM passes its folder to a build; here it is passed by hand.
czlib="$app/.build/checkouts/$(basename "$repo")/Sources/CZlib"
if swiftc -typecheck -swift-version 6 -I "$modules" -I "$czlib" "$work/Exhaustive.swift" > "$work/exhaustive.log" 2>&1; then
    echo "error: a switch over NetworkError without @unknown default compiled outside the package" >&2
    exit 1
elif ! grep -q "may have additional unknown values" "$work/exhaustive.log"; then
    cat "$work/exhaustive.log"
    echo "error: the switch without @unknown default failed for another reason than the one expected" >&2
    exit 1
fi

# Every checkout but NetworkingKit's own (named after the mirrored folder).
fetched=$(ls "$app/.build/checkouts" | grep -vx "$(basename "$repo")" | sort)
count=$(printf '%s\n' "$fetched" | grep -c .)
echo "consumer${trait:+ with the $trait trait}: $count packages fetched besides NetworkingKit; resolved and built (debug, with its test target) in ${seconds} s"
printf '  %s\n' $fetched

if [ -z "$trait" ]; then
    allowed="swift-asn1 swift-crypto swift-distributed-tracing swift-http-types swift-log swift-metrics swift-service-context"
    unexpected=""
    for package in $fetched; do
        case " $allowed " in *" $package "*) ;; *) unexpected="$unexpected $package" ;; esac
    done
    if [ -n "$unexpected" ]; then
        echo "error: an app on NetworkingKit and NetworkingKitTesting fetched packages they do not use:$unexpected" >&2
        exit 1
    fi
fi
