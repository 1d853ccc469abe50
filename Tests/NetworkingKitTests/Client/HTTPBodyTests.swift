import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("HTTPBody")
struct HTTPBodyTests {
    @Test("a buffered body is replayable and reads the same twice")
    func bufferedReplay() async throws {
        let body = HTTPBody("hello")
        #expect(body.isReplayable)
        #expect(body.length == .known(5))
        #expect(try await body.collect(upTo: 100) == Data("hello".utf8))
        #expect(try await body.collect(upTo: 100) == Data("hello".utf8))
    }

    @Test("a one-shot stream cannot be read twice, even through a copy")
    func singleStream() async throws {
        let body = HTTPBody(CountingChunks(chunkSize: 2, chunkCount: 2, pulled: Counter()), length: .unknown, iterationBehavior: .single)
        #expect(!body.isReplayable)
        #expect(try await body.collect(upTo: 100).count == 4)
        let copy = body
        await #expect(throws: NetworkError.self) { try await copy.collect(upTo: 100) }
        do {
            _ = try await copy.collect(upTo: 100)
        } catch NetworkError.bodyNotReplayable {
        } catch {
            Issue.record("expected bodyNotReplayable, got \(error)")
        }
    }

    @Test("a multiple-iteration stream reads again from the start")
    func multipleStream() async throws {
        let body = HTTPBody(CountingChunks(chunkSize: 3, chunkCount: 2, pulled: Counter()), length: .known(6), iterationBehavior: .multiple)
        #expect(body.isReplayable)
        #expect(try await body.collect(upTo: 100).count == 6)
        #expect(try await body.collect(upTo: 100).count == 6)
    }

    @Test("a middleware that resends a one-shot stream gets bodyNotReplayable, not a half-sent body")
    func resendOneShot() async throws {
        struct NaiveRetry: Middleware {
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
            ) async throws -> HTTPAnswer {
                _ = try await next(request, body, context)
                return try await next(request, body, context)
            }
        }
        let (client, transport) = makeClient(middlewares: [NaiveRetry()])
        let stream = HTTPBody(CountingChunks(chunkSize: 2, chunkCount: 2, pulled: Counter()), length: .known(4), iterationBehavior: .single)
        let error = await networkError { try await client.send(Request<Void>(path: "/upload", method: .post, body: .stream(stream))) }
        guard case .bodyNotReplayable = error else {
            Issue.record("expected bodyNotReplayable, got \(String(describing: error))")
            return
        }
        #expect(transport.requests.count == 1)
    }

    @Test("a stream that ends before its declared length is a truncated body, never a partial value")
    func shortStream() async throws {
        let chunks = CountingChunks(chunkSize: 4, chunkCount: 1, pulled: Counter())
        let (client, _) = makeClient { _ in StubResponse(body: HTTPBody(chunks, length: .known(10), iterationBehavior: .single)) }
        let error = await networkError { _ = try await client.send(Request<Data>(path: "/x")) }
        guard case .transport(let failure) = error else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .truncatedBody)
        #expect(failure.description.contains("4 of 10"))
    }

    @Test("a stream longer than its declared length is an error")
    func longStream() async throws {
        let chunks = CountingChunks(chunkSize: 4, chunkCount: 3, pulled: Counter())
        let body = HTTPBody(chunks, length: .known(10), iterationBehavior: .single)
        await #expect(throws: NetworkError.self) { try await body.collect(upTo: 100) }
    }

    @Test("a stream that fails midway surfaces its error, never a partial value")
    func failingStream() async throws {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        continuation.yield(Data("[1,2".utf8))
        continuation.finish(throwing: NetworkError.transport(TransportFailure(kind: .connectionLost)))
        let (client, _) = makeClient { _ in StubResponse(body: HTTPBody(stream, length: .unknown, iterationBehavior: .single)) }
        let error = await networkError { _ = try await client.send(Request<[Int]>(path: "/x")) }
        guard case .transport(let failure) = error else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .connectionLost)
        #expect(failure.request?.description == "GET https://api.example.com/v1/x")
    }
}
