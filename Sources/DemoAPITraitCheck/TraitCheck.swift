// DemoAPI's (and netkit's) files compile only with the trait on, so that an app using
// NetworkingKit alone never fetches Hummingbird and SwiftNIO. Without it, say what to do: from
// this module of one file and no dependency, built first, so that the error comes once and at
// once (in DemoAPI itself, it came once per file, after swift-crypto had been compiled).
#if !DemoAPI
#error(
    """
    DemoAPI needs the DemoAPI trait. In a package: \
    .package(url: "https://github.com/networkingkit/NetworkingKit", branch: "main", traits: ["DemoAPI"]); \
    in this repository: swift build --traits DemoAPI
    """)
#endif
