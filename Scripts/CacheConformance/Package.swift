// swift-tools-version: 6.1
import PackageDescription

// A reverse proxy that answers through NetworkingKit's HTTPCache, so that the public HTTP cache
// test suite (http-tests/cache-tests, published at cache-tests.fyi) can be run against it.
// Kept out of the library's package: nothing here is part of NetworkingKit. See README.md.
let package = Package(
    name: "CacheConformance",
    platforms: [.macOS(.v14)],
    dependencies: [
        // `name:` so that `package: "NetworkingKit"` holds whatever the clone's folder is called.
        // DemoAPI brings the AsyncHTTPClient transport (one trait flag, as everywhere in the repo).
        .package(name: "NetworkingKit", path: "../..", traits: ["DemoAPI"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "cache-proxy",
            dependencies: [
                .product(name: "NetworkingKit", package: "NetworkingKit"),
                .product(name: "NetworkingKitAsyncHTTPClient", package: "NetworkingKit"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
