public import NetworkingKit

/// The short ways to script a ``MockAPIClient``: one value or one error, by response type, by
/// endpoint, by request, or by a ``MockAPIClient/Match``.
///
/// ```swift
/// mock.stub([PixarFilm].self, with: films)
/// mock.stub(PixarAPIEndpoint.filmDetail(id: "up"), with: PixarFilm.up)
/// mock.stub(Films.list, throwing: .timeout(nil))
/// mock.stub(.where { $0.queryValue("page") == "2" }, with: page2)
/// ```
extension MockAPIClient {
    // MARK: By response type

    /// Answers every call asking for `type` with `value`.
    public func stub<Value: Sendable>(_ type: Value.Type, with value: Value) {
        stub(type, answers: [.value(value)])
    }

    /// Makes every call asking for `type` throw `error`.
    public func stub<Value: Sendable>(_ type: Value.Type, throwing error: NetworkError) {
        stub(type, answers: [.failure(error)])
    }

    // MARK: By match

    /// Answers calls matching `match` with `value`.
    public func stub<Value: Sendable>(_ match: Match, with value: Value) {
        stub(match, answers: [.value(value)])
    }

    /// Makes calls matching `match` throw `error`, whatever type they ask for.
    public func stub(_ match: Match, throwing error: NetworkError) {
        stub(match, answers: [Answer<EmptyResponse>.failure(error)])
    }

    // MARK: By endpoint (path and method)

    /// Answers calls with `endpoint`'s path and method with `value`.
    public func stub<Value: Sendable>(_ endpoint: some APIEndpoint, with value: Value) {
        stub(.endpoint(endpoint), answers: [.value(value)])
    }

    /// Makes calls with `endpoint`'s path and method throw `error`.
    public func stub(_ endpoint: some APIEndpoint, throwing error: NetworkError) {
        stub(.endpoint(endpoint), throwing: error)
    }

    /// Answers calls with `endpoint`'s path and method with `answers`, in order, then the last.
    public func stub<Value: Sendable>(_ endpoint: some APIEndpoint, answers: [Answer<Value>]) {
        stub(.endpoint(endpoint), answers: answers)
    }

    // MARK: By request (path and method)

    /// Answers calls with `request`'s path and method with `value`.
    public func stub<Value: Sendable>(_ request: Request<Value>, with value: Value) {
        stub(.request(request), answers: [.value(value)])
    }

    /// Makes calls with `request`'s path and method throw `error`.
    public func stub<Value>(_ request: Request<Value>, throwing error: NetworkError) {
        stub(.request(request), throwing: error)
    }

    /// Answers calls with `request`'s path and method with `answers`, in order, then the last.
    public func stub<Value: Sendable>(_ request: Request<Value>, answers: [Answer<Value>]) {
        stub(.request(request), answers: answers)
    }

    // MARK: Recorded calls

    /// The calls made to `path`, in order.
    public func calls(to path: String) -> [Call] {
        calls.filter { $0.path == path }
    }
}
