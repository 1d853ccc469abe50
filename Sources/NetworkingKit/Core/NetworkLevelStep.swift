import HTTPTypes
import Logging

/// Work a middleware leaves to the client's redirect step, which runs below every middleware and
/// sees each request it sends and each answer it gets, redirects included: the cookie jar's, whose
/// cookies a `302` may set and each hop must carry anew.
///
/// A class: the context that holds it is copied at every step of every call, and a class
/// existential copies as one reference (a struct's copied through its value witnesses cost
/// about 4,000 instructions per call with none set).
protocol NetworkLevelStep: AnyObject, Sendable {
    /// Called with each answer from the transport, the redirects' included.
    func received(_ response: HTTPResponse, to request: HTTPRequest, logger: Logger) async
    /// Adjusts the request of a redirect hop before it is sent; `credentialsRemoved` says the
    /// chain has left the origin of the caller's credentials.
    func prepare(hop request: inout HTTPRequest, credentialsRemoved: Bool)
}
