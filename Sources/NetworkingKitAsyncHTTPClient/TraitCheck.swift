// Every other file of this module compiles only with the trait on, so that an app using
// NetworkingKit alone never fetches AsyncHTTPClient and SwiftNIO. Without it, say what to do.
#if !AsyncHTTPClientTransport && !DemoAPI
#error(
    """
    NetworkingKitAsyncHTTPClient needs the AsyncHTTPClientTransport trait. In a package: \
    .package(url: "https://github.com/networkingkit/NetworkingKit", from: "…", traits: ["AsyncHTTPClientTransport"]); \
    in this repository: swift build --traits DemoAPI
    """)
#endif
