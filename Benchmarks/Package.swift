// swift-tools-version: 6.1
import PackageDescription

// NetworkingKit's benchmarks, kept out of the library's package so that its users never resolve
// the benchmark harness. Run from this folder: `swift package benchmark`.
let package = Package(
    name: "NetworkingKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // `name:` so that `package: "NetworkingKit"` holds whatever the clone's folder is called.
        .package(name: "NetworkingKit", path: "..", traits: ["AsyncHTTPClientTransport"]),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The WebSocket echo row's reference: swift-websocket's own client, used directly.
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        // Malloc counts through the interposer; the default traits would also ask for a runtime
        // interposer that this toolchain's mirror does not carry.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The in-memory rows, shared by the two executables below.
        .target(
            name: "BenchmarkScenarios",
            dependencies: [
                .product(name: "NetworkingKit", package: "NetworkingKit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Time and allocations per call (`swift package benchmark`). The plugin runs every
        // executable in Benchmarks/, so InstructionCounts lives in Sources/.
        .executableTarget(
            name: "ClientOverhead",
            dependencies: [
                "BenchmarkScenarios",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NetworkingKit", package: "NetworkingKit"),
            ],
            path: "Benchmarks/ClientOverhead",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Instructions per call, counted by callgrind (instruction-counts.sh).
        // Its NIOTransport row runs a server and the transport in the process.
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [
                "BenchmarkScenarios",
                .product(name: "NetworkingKitAsyncHTTPClient", package: "NetworkingKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Instructions per request over loopback, counted by callgrind (loopback-instruction-counts.sh).
        .executableTarget(
            name: "LoopbackInstructionCounts",
            dependencies: [
                "BenchmarkScenarios",
                .product(name: "NetworkingKit", package: "NetworkingKit"),
                .product(name: "NetworkingKitAsyncHTTPClient", package: "NetworkingKit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Echo round trips over one WebSocket connection against WSClient, and memory over many
        // messages (websocket-echo.sh).
        .executableTarget(
            name: "WebSocketEcho",
            dependencies: [
                .product(name: "NetworkingKit", package: "NetworkingKit"),
                .product(name: "NetworkingKitAsyncHTTPClient", package: "NetworkingKit"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
