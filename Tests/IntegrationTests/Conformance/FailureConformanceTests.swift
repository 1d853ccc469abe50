import DemoAPI
import Foundation
import NetworkingKit
import Testing

/// How things go wrong, the same over every transport: every status mapping, timeouts,
/// cancellation, closed connections, truncated bodies, refused connections.
@Suite("Conformance: failures", .timeLimit(.minutes(3)))
struct FailureConformanceTests {
    @Test("each status maps to its NetworkError case", arguments: TransportKind.allCases)
    func statusMapping(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            func error(for code: Int) async -> NetworkError? {
                await networkError { try await client.send(Request<Void>(path: "/status/\(code)")) }
            }
            func matches(_ code: Int, _ check: (NetworkError) -> Bool) async {
                let error = await error(for: code)
                #expect(error.map(check) == true, "status \(code) gave \(String(describing: error))")
                #expect(error?.statusCode == code)
                #expect(error?.failure?.serverMessage == "status \(code)")
            }
            await matches(400) { if case .badRequest = $0 { true } else { false } }
            await matches(401) { if case .unauthorized = $0 { true } else { false } }
            await matches(403) { if case .forbidden = $0 { true } else { false } }
            await matches(404) { if case .notFound = $0 { true } else { false } }
            await matches(409) { if case .conflict = $0 { true } else { false } }
            await matches(422) { if case .validationFailed = $0 { true } else { false } }
            await matches(429) { if case .rateLimited = $0 { true } else { false } }
            await matches(418) { if case .clientError = $0 { true } else { false } }
            await matches(500) { if case .serverError = $0 { true } else { false } }
            await matches(503) { if case .serverError = $0 { true } else { false } }
        }
    }

    @Test("429 carries Retry-After, in seconds or as a date", arguments: TransportKind.allCases)
    func retryAfter(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let seconds = await networkError {
                try await client.send(
                    Request<Void>(path: "/faults/status/429", query: [URLQueryItem(name: "retry_after", value: "7")]))
            }
            guard case .rateLimited(_, let retryAfter)? = seconds else {
                Issue.record("expected rateLimited, got \(String(describing: seconds))")
                return
            }
            #expect(retryAfter == .seconds(7))
            #expect(seconds?.localizedDescription == "Too many requests. Try again in 7 seconds.")

            let dated = await networkError {
                try await client.send(
                    Request<Void>(
                        path: "/faults/status/429",
                        query: [URLQueryItem(name: "retry_after", value: "Wed, 21 Oct 2037 07:28:00 GMT")]))
            }
            guard case .rateLimited(_, .date(let date)?)? = dated else {
                Issue.record("expected a dated Retry-After, got \(String(describing: dated))")
                return
            }
            #expect(date == Date(timeIntervalSince1970: 2_139_722_880))
        }
    }

    @Test("server error bodies are decoded: messages and field errors", arguments: TransportKind.allCases)
    func errorBodies(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let missing = await networkError { try await client.send(Request<Void>(path: "/films/cars-4")) }
            #expect(missing?.localizedDescription == "No film with id 'cars-4'.")

            let invalid = await networkError {
                try await client.send(Request<Void>(path: "/films/up/rating", method: .post, body: .json(["rating": 9])))
            }
            guard case .validationFailed(let failure)? = invalid else {
                Issue.record("expected validationFailed, got \(String(describing: invalid))")
                return
            }
            #expect(failure.fieldErrors == [FieldError(field: "rating", message: "must be between 1 and 5")])
        }
    }

    @Test("a server that answers too late times out", arguments: TransportKind.allCases)
    func headTimeout(kind: TransportKind) async throws {
        try await withDemoServer { server in
            // The server would answer in a minute: a loaded machine delays the timeout, never the outcome.
            let client = makeClient(server, kind, timeout: .milliseconds(300))
            let error = await networkError { try await client.send(Request<Void>(path: "/faults/delay/60000")) }
            #expect(error?.isTimeout == true, "got \(String(describing: error))")
            #expect(error?.request?.url?.path == "/faults/delay/60000")
        }
    }

    @Test(
        "the timeout bounds the whole exchange: a body that trickles past it times out, whether the request had a body or not",
        arguments: TransportKind.allCases)
    func bodyTimeout(kind: TransportKind) async throws {
        try await withDemoServer { server in
            // 100 s of trickle against a 600 ms timeout: only the timeout can end it. A request with
            // a body goes through AsyncHTTPClient another way than one without.
            let client = makeClient(server, kind, timeout: .milliseconds(600))
            let query = [URLQueryItem(name: "interval_ms", value: "50")]
            for request in [
                Request<Data>(path: "/faults/trickle/2000", query: query),
                Request<Data>(path: "/faults/trickle/2000", method: .post, query: query, body: .json(["a": 1])),
            ] {
                let error = await networkError { _ = try await client.send(request) }
                #expect(error?.isTimeout == true, "\(request.method): got \(String(describing: error))")
            }
        }
    }

    @Test("cancelling the task cancels the request, before the answer and during the body", arguments: TransportKind.allCases)
    func cancellation(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            for (request, route) in [
                (Request<Data>(path: "/faults/delay/60000"), "GET /faults/delay/{ms}"),
                (
                    Request<Data>(path: "/faults/trickle/2000", query: [URLQueryItem(name: "interval_ms", value: "50")]),
                    "GET /faults/trickle/{n}"
                ),
                (
                    Request<Data>(
                        path: "/faults/trickle/2000", method: .post, query: [URLQueryItem(name: "interval_ms", value: "50")],
                        body: .json(["a": 1])),
                    "POST /faults/trickle/{n}"
                ),
            ] {
                let task = Task { try await client.send(request) }
                // Cancelled once the request has reached the server: an event, not a guess at a delay.
                try await server.stats.waitForRequests(route)
                task.cancel()
                let error = await networkError { _ = try await task.value }
                #expect(error?.isCancelled == true, "\(request.path): got \(String(describing: error))")
            }
        }
    }

    @Test("a connection closed with no answer is a lost connection", arguments: TransportKind.allCases)
    func connectionClosed(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let error = await networkError { try await makeClient(server, kind).send(Request<Void>(path: "/faults/close")) }
            #expect(error?.transportKind == .connectionLost, "got \(String(describing: error))")
        }
    }

    @Test("a body shorter than its Content-Length is an error, never a partial value", arguments: TransportKind.allCases)
    func truncatedBody(kind: TransportKind) async throws {
        try await withDemoServer { server in
            let client = makeClient(server, kind)
            let request = Request<Data>(
                path: "/faults/truncated", query: [URLQueryItem(name: "declared", value: "100"), URLQueryItem(name: "sent", value: "10")])
            let error = await networkError { _ = try await client.send(request) }
            #expect(error?.transportKind == .truncatedBody, "got \(String(describing: error))")
            let text = await networkError { _ = try await client.send(request.expecting(String.self)) }
            #expect(text?.transportKind == .truncatedBody, "got \(String(describing: text))")
        }
    }

    @Test("nothing listening is a refused connection", arguments: TransportKind.allCases)
    func connectionRefused(kind: TransportKind) async throws {
        let error = try await withRefusingPort { port in
            let client = LiveAPIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, transport: kind.transport)
            return await networkError { try await client.send(Request<Void>(path: "/films")) }
        }
        #expect(error?.transportKind == .connectionRefused, "got \(String(describing: error))")
        if case .transport(let failure)? = error {
            #expect(failure.code != nil)
            #expect(failure.underlying != nil)
        }
        #expect(error?.localizedDescription == "Unable to reach the server. Check your internet connection and try again.")
    }
}
