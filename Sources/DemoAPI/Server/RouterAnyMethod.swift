#if DemoAPI
import Hummingbird

/// The methods an "ANY" route answers. Hummingbird's router is keyed by method, so a route meant to
/// accept whatever a client sends is registered once per method.
@available(macOS 14, iOS 17, tvOS 17, *)
extension Router {
    static var anyMethods: [HTTPRequest.Method] { [.get, .head, .post, .put, .patch, .delete, .options] }

    /// Registers `handler` for `path` under every method of ``anyMethods``.
    func any(
        _ path: RouterPath,
        use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        for method in Self.anyMethods {
            on(path, method: method, use: handler)
        }
    }
}
#endif
