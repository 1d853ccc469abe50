// swift-tools-version: 6.1
import PackageDescription

// Upcoming features the house style asks for, applied to every target of ours.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// What the AsyncHTTPClient transport needs, asked for only when its trait is on: an app that uses
// NetworkingKit alone never fetches SwiftNIO, AsyncHTTPClient, Hummingbird or ArgumentParser
// (SwiftPM leaves out a dependency when every reference to it is guarded by a disabled trait).
// The DemoAPI trait brings the transport too (netkit sends with it), as a condition of its own
// rather than by enabling the other trait: a build with one trait flag per package keeps its
// command lines the same from one plan to the next (SwiftPM orders several flags at random, and
// every module compiled with them is built again when the order changes).
let whenAsyncHTTPClient: TargetDependencyCondition? = .when(traits: ["AsyncHTTPClientTransport", "DemoAPI"])
let whenDemoAPI: TargetDependencyCondition? = .when(traits: ["DemoAPI"])

let package = Package(
    name: "NetworkingKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "NetworkingKit", targets: ["NetworkingKit"]),
        .library(name: "NetworkingKitTesting", targets: ["NetworkingKitTesting"]),
        .library(name: "NetworkingKitAsyncHTTPClient", targets: ["NetworkingKitAsyncHTTPClient"]),
        .library(name: "DemoAPI", targets: ["DemoAPI"]),
        // The samples' models and services, so that a sample can be tried as it is written.
        .library(name: "ExampleServices", targets: ["ExampleServices"]),
        .executable(name: "netkit", targets: ["netkit"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClientTransport",
            description: "The NetworkingKitAsyncHTTPClient product: AsyncHTTPClientTransport, and NIOTransport on SwiftNIO alone."
        ),
        .trait(
            name: "DemoAPI",
            description: "The DemoAPI product (a local server on Hummingbird), the netkit tool, and the AsyncHTTPClient transport."
        ),
        // NetworkingKit and NetworkingKitTesting alone: the light dependency an app gets by default.
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Docs: `swift package generate-documentation`; a plugin no target uses, never fetched by apps.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // SHA-256 for cache keys: a credential's partition is a digest, never the credential.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // NIOTransport's WebSocket connections: swift-websocket's message layer (WSCore), on our own
        // connection and handshake. Up to the next minor version: its handler is used through its
        // `WSInternal` SPI, which Hummingbird's own WebSocket server uses the same way.
        .package(url: "https://github.com/hummingbird-project/swift-websocket", .upToNextMinor(from: "1.6.2")),
        // permessage-deflate's inflate limit is told apart from corrupt data by its error type
        // (already fetched: swift-websocket's WSCompression depends on it).
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.3.0"),
        // DemoAPI only: its WebSocket routes.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // One trait, not the default two: SwiftPM orders a package's trait flags differently from
        // one build plan to the next, and a module compiled with two of them is built again
        // whenever the order changes (see .ci/run). DemoAPI reads no swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        // DemoAPI stops through a graceful shutdown (Hummingbird's own dependency).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // DemoAPI only: an independent streaming multipart parser for the upload route.
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        // Tests only: the W3C Trace Context codec OpenTelemetry's propagator uses.
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context", from: "1.0.0"),
    ],
    targets: [
        .target(
            name: "NetworkingKit",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                // Request bodies compressed on the way out (RequestCompression).
                "CZlib",
            ],
            swiftSettings: strictSettings
        ),
        // The system's zlib: request bodies compressed by the core, answers decoded by the
        // AsyncHTTPClient transport.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // One file each: a build without the trait a product needs stops at once, with one error
        // that says what to write.
        .target(name: "AsyncHTTPClientTraitCheck", swiftSettings: strictSettings),
        .target(name: "DemoAPITraitCheck", swiftSettings: strictSettings),
        // The fast transports for Linux and servers: over AsyncHTTPClient, and our own on SwiftNIO.
        .target(
            name: "NetworkingKitAsyncHTTPClient",
            dependencies: [
                "AsyncHTTPClientTraitCheck",
                "NetworkingKit",
                "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: whenAsyncHTTPClient),
                // SHA-256 of a certificate's public key, for the NIO transport's pins.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: whenAsyncHTTPClient),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: whenAsyncHTTPClient),
                .product(name: "NIOPosix", package: "swift-nio", condition: whenAsyncHTTPClient),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: whenAsyncHTTPClient),
                .product(name: "NIOTLS", package: "swift-nio", condition: whenAsyncHTTPClient),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: whenAsyncHTTPClient),
                .product(name: "WSCore", package: "swift-websocket", condition: whenAsyncHTTPClient),
                .product(name: "WSCompression", package: "swift-websocket", condition: whenAsyncHTTPClient),
                .product(name: "CompressNIO", package: "compress-nio", condition: whenAsyncHTTPClient),
            ],
            swiftSettings: strictSettings
        ),
        // A real HTTP server with the seeds' APIs, auth, cache validators and scriptable faults.
        .target(
            name: "DemoAPI",
            dependencies: [
                "DemoAPITraitCheck",
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird", condition: whenDemoAPI),
                .product(name: "NIOPosix", package: "swift-nio", condition: whenDemoAPI),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: whenDemoAPI),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: whenDemoAPI),
                .product(name: "MultipartKit", package: "multipart-kit", condition: whenDemoAPI),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: whenDemoAPI),
                .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket", condition: whenDemoAPI),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: whenDemoAPI),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: whenDemoAPI),
                .product(name: "Crypto", package: "swift-crypto", condition: whenDemoAPI),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio", condition: whenDemoAPI),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "netkit",
            dependencies: [
                "NetworkingKit",
                "NetworkingKitAsyncHTTPClient",
                "DemoAPI",
                "ExampleServices",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: whenDemoAPI),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: whenDemoAPI),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: whenDemoAPI),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: whenDemoAPI),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "NetworkingKitTesting",
            dependencies: ["NetworkingKit"],
            swiftSettings: strictSettings
        ),
        // The seeds' example APIs (Pixar films, todos) written the way an app would write them.
        .target(
            name: "ExampleServices",
            dependencies: ["NetworkingKit"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NetworkingKitTests",
            dependencies: [
                "NetworkingKit",
                "NetworkingKitTesting",
                // Only so that the transport's samples (doc comment and DocC page) are compiled with the others.
                "NetworkingKitAsyncHTTPClient",
                // Only for the HTTPClient and TLS of the NetworkingKitAsyncHTTPClient page's samples.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Only for the README's sample of an app on Hummingbird (the Request/Response names)
                // and DemoAPI's doc-comment sample.
                .product(name: "Hummingbird", package: "hummingbird"),
                "DemoAPI",
                "ExampleServices",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        // DemoAPI's routes, exercised in-process without a socket.
        .testTarget(
            name: "DemoAPITests",
            dependencies: [
                "DemoAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The library against a real DemoAPI server, over every transport, and the netkit command.
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "NetworkingKit",
                "NetworkingKitAsyncHTTPClient",
                "NetworkingKitTesting",
                "ExampleServices",
                "DemoAPI",
                "netkit",
                "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
