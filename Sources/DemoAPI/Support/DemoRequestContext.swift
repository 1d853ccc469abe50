#if DemoAPI
import Hummingbird
import NIOCore

/// The request context of every DemoAPI route.
///
/// Besides what Hummingbird needs it keeps the connection's channel, because `/faults/close` and
/// `/faults/truncated` must close the connection themselves, which no `Response` can express.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DemoRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
#endif
