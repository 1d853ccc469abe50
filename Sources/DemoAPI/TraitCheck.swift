// Every other file of this module compiles only with the trait on, so that an app using
// NetworkingKit alone never fetches Hummingbird and SwiftNIO. Without it, say what to do.
#if !DemoAPI
#error(
    """
    DemoAPI needs the DemoAPI trait. In a package: \
    .package(url: "https://github.com/networkingkit/NetworkingKit", from: "…", traits: ["DemoAPI"]); \
    in this repository: swift build --traits DemoAPI
    """)
#endif
