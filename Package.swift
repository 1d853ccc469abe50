// swift-tools-version: 6.0
import PackageDescription

// Upcoming features the house style asks for, applied to every target of ours.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "NetworkingKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "NetworkingKit", targets: ["NetworkingKit"]),
        .library(name: "NetworkingKitTesting", targets: ["NetworkingKitTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Test-only: a minimal HTTP server on 127.0.0.1 for the URLSession transport tests.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "NetworkingKit",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
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
                "ExampleServices",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
