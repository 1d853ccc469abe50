// NetworkingKitAsyncHTTPClient's files compile only with the trait on, so that an app using
// NetworkingKit alone never fetches AsyncHTTPClient and SwiftNIO. Without it, say what to do:
// from this module of one file and no dependency, built first, so that the error comes once and
// at once (in the transport's module itself, it came once per file).
#if !AsyncHTTPClientTransport && !DemoAPI
#error(
    """
    NetworkingKitAsyncHTTPClient needs the AsyncHTTPClientTransport trait. In a package: \
    .package(url: "https://github.com/networkingkit/NetworkingKit", branch: "main", traits: ["AsyncHTTPClientTransport"]); \
    in this repository: swift build --traits DemoAPI
    """)
#endif
