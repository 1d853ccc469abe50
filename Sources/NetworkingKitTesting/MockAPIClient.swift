public import Foundation
import HTTPTypes
@_spi(Transport) public import NetworkingKit

/// An `APIClient` that answers from a script instead of the network, and records every call,
/// for unit tests of view models and services that depend on `any APIClient` (seed 000).
///
/// ```swift
/// let mock = MockAPIClient()
/// mock.stub([PixarFilm].self, with: [.toyStory, .up])              // by response type
/// mock.stub(PixarAPIEndpoint.filmDetail(id: "up"), with: PixarFilm.up)  // by path + method
/// mock.stub(.path("/films/cars"), throwing: .notFound(failure))       // an error
/// mock.stub([Todo].self, answers: [.value(page1), .value(page2)])     // first call, then second
///
/// let model = FilmsViewModel(client: mock)
/// await model.load()
/// #expect(mock.calls.map(\.path) == ["/films"])
/// ```
///
/// The newest stub that matches a call answers it, and stubs for an endpoint, a request or a
/// predicate come before stubs for a response type. A stub with several answers gives them in
/// order and then repeats the last. A call nothing matches throws
/// ``/NetworkingKit/NetworkError/unknown(_:)`` with a ``ScriptError/unscripted(_:)`` naming the call, unless
/// ``stubUnscripted(throwing:)`` set another answer; the mock never crashes a test.
///
/// Values come back as a `Response` with status `200 OK`, and as `data` the value encoded as
/// JSON when it is `Encodable` (empty otherwise). Request bodies are encoded the way
/// `LiveAPIClient` encodes them, so ``Call/body`` holds the bytes a server would receive.
///
/// Scripting and calls may happen from any task at once: every access goes through one lock.
public final class MockAPIClient: APIClient {
    /// A scripted answer with its value's type erased.
    struct ErasedAnswer: Sendable {
        enum Outcome: Sendable {
            case value(any Sendable, data: Data, status: HTTPResponse.Status, headers: HTTPFields)
            case failure(NetworkError)
        }

        let outcome: Outcome
        let typeName: String
    }

    private struct Script: Sendable {
        let match: Match
        let answers: [ErasedAnswer]
        var next = 0
        let isTypeStub: Bool

        mutating func take() -> ErasedAnswer? {
            guard !answers.isEmpty else { return nil }
            let answer = answers[min(next, answers.count - 1)]
            next += 1
            return answer
        }
    }

    private struct State {
        var scripts: [Script] = []
        var unscripted: NetworkError?
        var calls: [Call] = []
    }

    private let state = LockedState(State())
    private let encoder: JSONEncoder

    /// The base URL the recorded calls' URLs are built on.
    public static let baseURL: URL? = URL(string: "https://mock.invalid")

    /// Creates a mock with no stubs.
    /// - Parameter encoder: Encodes request bodies and the `data` of scripted values; the
    ///   client's default encoder unless given.
    public init(encoder: JSONEncoder = LiveAPIClient.Configuration.defaultEncoder()) {
        self.encoder = encoder
    }

    /// Every call made so far, in the order they were made.
    public var calls: [Call] {
        state.withLock { $0.calls }
    }

    /// Forgets the calls made so far; the stubs stay.
    public func removeAllCalls() {
        state.withLock { $0.calls.removeAll() }
    }

    /// Removes every stub, and the answer for unscripted calls.
    public func removeAllStubs() {
        state.withLock {
            $0.scripts.removeAll()
            $0.unscripted = nil
        }
    }

    /// Makes calls that no stub matches throw `error` instead of the ``ScriptError/unscripted(_:)``
    /// failure.
    public func stubUnscripted(throwing error: NetworkError) {
        state.withLock { $0.unscripted = error }
    }

    /// Adds a stub that answers calls matching `match` with `answers`, in order, then the last.
    public func stub<Value: Sendable>(_ match: Match, answers: [Answer<Value>]) {
        add(match, answers: answers, isTypeStub: match.isTypeMatch)
    }

    /// Adds a stub that answers every call asking for `type` with `answers`, in order, then the last.
    public func stub<Value: Sendable>(_ type: Value.Type, answers: [Answer<Value>]) {
        add(.type(type), answers: answers, isTypeStub: true)
    }

    private func add<Value: Sendable>(_ match: Match, answers: [Answer<Value>], isTypeStub: Bool) {
        let typeName = String(describing: Value.self)
        let erased = answers.map { answer in
            switch answer {
            case .value(let value):
                ErasedAnswer(outcome: .value(value, data: encodedData(value), status: .ok, headers: [:]), typeName: typeName)
            case .response(let value, let status, let headers):
                ErasedAnswer(
                    outcome: .value(value, data: encodedData(value), status: status, headers: HTTPFields(scripted: headers)),
                    typeName: typeName)
            case .failure(let error):
                ErasedAnswer(outcome: .failure(error), typeName: typeName)
            }
        }
        state.withLock { $0.scripts.append(Script(match: match, answers: erased, isTypeStub: isTypeStub)) }
    }

    private func encodedData(_ value: some Sendable) -> Data {
        guard let encodable = value as? any Encodable else { return Data() }
        return (try? encoder.encode(encodable)) ?? Data()
    }

    // MARK: APIClient

    /// Records the call and answers it from the script.
    public func response<T: Decodable & Sendable>(_ endpoint: some APIEndpoint, as type: T.Type) async throws -> Response<T> {
        let captured = await capture { try await $0.response(endpoint, as: EmptyResponse.self) }
        let call = Call(
            path: endpoint.path, method: (try? EndpointMembers.method(endpoint.method)) ?? .get, queryItems: endpoint.queryItems ?? [],
            headers: endpoint.headers, body: captured.body, responseType: String(describing: type),
            url: captured.url, responseTypeID: ObjectIdentifier(type))
        return try answer(call, as: type, encodingError: captured.error)
    }

    /// Records the call and answers it from the script with `Data`, as a stream of one chunk.
    public func bytes(_ endpoint: some APIEndpoint) async throws -> StreamedResponse {
        let captured = await capture { try await $0.response(endpoint, as: EmptyResponse.self) }
        let call = Call(
            path: endpoint.path, method: (try? EndpointMembers.method(endpoint.method)) ?? .get, queryItems: endpoint.queryItems ?? [],
            headers: endpoint.headers, body: captured.body, responseType: String(describing: Data.self),
            url: captured.url, responseTypeID: ObjectIdentifier(Data.self))
        return streamed(try answer(call, as: Data.self, encodingError: captured.error, contentType: "application/octet-stream"))
    }

    private func streamed(_ response: Response<Data>) -> StreamedResponse {
        StreamedResponse(request: response.request, response: response.response, body: HTTPBody(response.value))
    }

    private struct Captured {
        var body: Data?
        var url: URL?
        var error: NetworkError?
    }

    /// Builds the request as `LiveAPIClient` would, over a transport that records it, so that the
    /// call holds the body's real bytes whatever kind of body it was.
    private func capture(_ send: (LiveAPIClient) async throws -> Response<EmptyResponse>) async -> Captured {
        let transport = StubTransport(always: .status(.noContent))
        let client = LiveAPIClient(configuration: .init(baseURL: Self.baseURL, transport: transport, encoder: encoder))
        var captured = Captured()
        do {
            _ = try await send(client)
        } catch let error as NetworkError {
            // Only a request that could not be built fails here (the transport always answers).
            captured.error = error
        } catch {
            captured.error = .unknown(error)
        }
        let request = transport.requests.first
        captured.body = request?.body
        captured.url = request?.url
        return captured
    }

    /// - Parameter contentType: The `Content-Type` of a value's encoded bytes, unless the stub gave one.
    private func answer<T: Sendable>(
        _ call: Call, as type: T.Type, encodingError: NetworkError?, contentType: String = "application/json"
    ) throws -> Response<T> {
        let chosen: ErasedAnswer? = state.withLock { state in
            state.calls.append(call)
            // Endpoint stubs first, then type stubs; the newest of each kind first.
            for preferTypeStubs in [false, true] {
                for index in state.scripts.indices.reversed()
                where state.scripts[index].isTypeStub == preferTypeStubs && state.scripts[index].match.test(call) {
                    return state.scripts[index].take()
                }
            }
            return state.unscripted.map { ErasedAnswer(outcome: .failure($0), typeName: "") }
        }
        // The live client would have failed before sending; so does the mock.
        if let encodingError { throw encodingError }
        guard let chosen else { throw NetworkError.unknown(ScriptError.unscripted(call)) }
        switch chosen.outcome {
        case .failure(let error):
            throw error
        case .value(let value, let data, let status, var fields):
            guard let typed = value as? T else {
                throw NetworkError.unknown(ScriptError.typeMismatch(call, scripted: chosen.typeName))
            }
            if !data.isEmpty, fields[.contentType] == nil { fields[.contentType] = contentType }
            return Response(
                value: typed, request: RequestSummary(method: call.method, url: call.url),
                response: HTTPResponse(status: status, headerFields: fields), data: data, duration: .zero)
        }
    }
}
