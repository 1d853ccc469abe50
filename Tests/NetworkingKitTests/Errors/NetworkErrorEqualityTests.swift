import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What code written against URLSession (and the seeds' tests) expects of errors and retries,
/// written the way such a test would be.
@Suite("NetworkError compared in tests, seed-style constructors and retries")
struct NetworkErrorEqualityTests {
    private func client(answering status: HTTPResponse.Status, body: String = "{}") -> LiveAPIClient {
        let transport = StubTransport { _ in .json(body, status: status) }
        return LiveAPIClient(configuration: LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport))
    }

    @Test("the client's 404 and 503 equal httpError(statusCode:) and serverError(statusCode:), whatever their request and body")
    func statusCodes() async throws {
        await #expect(throws: NetworkError.httpError(statusCode: 404)) {
            try await client(answering: .notFound, body: #"{"message":"no such film"}"#).send(Request<Void>(path: "/films/nope"))
        }
        await #expect(throws: NetworkError.serverError(statusCode: 503)) {
            try await client(answering: .serviceUnavailable).send(Request<Void>(path: "/films"))
        }
        // The constructors give the client's own cases.
        guard case .notFound = NetworkError.httpError(statusCode: 404) else {
            Issue.record("404 is not notFound")
            return
        }
        guard case .serverError(let failure) = NetworkError.serverError(statusCode: 503) else {
            Issue.record("503 is not serverError")
            return
        }
        #expect(failure.status.code == 503)
        #expect(NetworkError.httpError(statusCode: 404) != .httpError(statusCode: 410))
        #expect(NetworkError.serverError(statusCode: 503) != .serverError(statusCode: 500))
        #expect(NetworkError.httpError(statusCode: 404) != .serverError(statusCode: 500))
    }

    @Test("clientError(statusCode:message:) carries the server's message to the user")
    func clientErrorMessage() throws {
        let error = NetworkError.clientError(statusCode: 409, message: "That title is taken.")
        guard case .conflict(let failure) = error else {
            Issue.record("409 is not conflict: \(error)")
            return
        }
        #expect(failure.serverMessage == "That title is taken.")
        #expect(error.localizedDescription.contains("That title is taken."))
        #expect(error == .httpError(statusCode: 409))
    }

    @Test("cases with values compare their values; the request and underlying errors do not count")
    func values() {
        let request = RequestSummary(method: .get, url: URL(string: "https://a.example/x"))
        #expect(NetworkError.timeout(request) == .timeout(nil))
        #expect(NetworkError.cancelled == .cancelled)
        #expect(NetworkError.cancelled != .timeout(nil))
        #expect(
            NetworkError.transport(TransportFailure(kind: .connectionLost, underlying: URLError(.networkConnectionLost), request: request))
                == .transport(TransportFailure(kind: .connectionLost)))
        #expect(NetworkError.transport(TransportFailure(kind: .connectionLost)) != .transport(TransportFailure(kind: .hostNotFound)))
        #expect(NetworkError.responseTooLarge(limit: 10, request: request) == .responseTooLarge(limit: 10, request: nil))
        #expect(NetworkError.responseTooLarge(limit: 10, request: nil) != .responseTooLarge(limit: 11, request: nil))
        #expect(NetworkError.unknown(URLError(.timedOut)) == .unknown(URLError(.timedOut)))
        #expect(NetworkError.unknown(URLError(.timedOut)) != .unknown(URLError(.cancelled)))
        #expect(NetworkError.invalidURL("x", reason: "relative") != .invalidURL("x", reason: "not HTTP"))
    }

    @Test("withRetry retries a thrown URLError timeout, bare or wrapped in unknown, as URLSession code throws it")
    func retriesURLErrors() async throws {
        let clock = ImmediateClock()
        for thrown in [URLError(.timedOut), URLError(.networkConnectionLost)] as [any Error] + [NetworkError.unknown(URLError(.timedOut))] {
            let attempts = Counter()
            let result = try await withRetry(policy: RetryPolicy(maxAttempts: 3, baseDelay: 0.01), clock: clock) {
                attempts.increment()
                if attempts.value < 3 { throw thrown }
                return "done"
            }
            #expect(result == "done")
            #expect(attempts.value == 3, "\(thrown)")
        }
        // A cancellation or a bad URL is not retried.
        for thrown in [URLError(.cancelled), URLError(.badURL)] {
            let attempts = Counter()
            await #expect(throws: URLError.self) {
                try await withRetry(policy: RetryPolicy(maxAttempts: 3, baseDelay: 0.01), clock: clock) {
                    attempts.increment()
                    throw thrown
                }
            }
            #expect(attempts.value == 1, "\(thrown)")
        }
    }

    @Test("RetryPolicy takes its base delay in seconds as a Double")
    func secondsAsDouble() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 0.25)
        #expect(policy.maxAttempts == 5)
        #expect(policy.baseDelay == .milliseconds(250))
        #expect(RetryPolicy(maxAttempts: 1, baseDelay: 0).baseDelay == .zero)
        #expect(RetryPolicy(maxAttempts: 2, baseDelay: -1).baseDelay == .zero)
        #expect(RetryPolicy(maxAttempts: 2, baseDelay: .infinity).baseDelay == .zero)
    }

    struct OfflineMode: LocalizedError {
        var errorDescription: String? { "You are offline; changes will be sent later." }
    }

    @Test("an app's own error in unknown speaks for itself when it is a LocalizedError; any other stays generic")
    func unknownMessages() {
        #expect(NetworkError.unknown(OfflineMode()).localizedDescription == "You are offline; changes will be sent later.")
        #expect(NetworkError.unknown(CancellationError()).localizedDescription == "An unexpected error occurred. Please try again.")
    }

    @Test("small enums print their names")
    func descriptions() {
        #expect("\(CacheStatus.hit)" == "HIT")
        #expect("\(CacheStatus.revalidated)" == "REVALIDATED")
        #expect("\(TransportFailure.Kind.connectionLost)" == "connectionLost")
        #expect("\(CachePolicy.returnCacheDataElseLoad)" == "returnCacheDataElseLoad")
        #expect("\(RetryPolicy.Jitter.decorrelated)" == "decorrelated")
        #expect("\(RedirectFailure.Reason.tooManyRedirects(limit: 5))" == "too many redirects (more than 5)")
        #expect("\(FileFailure.Reason.notFound)" == "no such file")
    }
}
