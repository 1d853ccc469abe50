import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Response size limit")
struct SizeLimitTests {
    private func expectTooLarge(_ error: NetworkError?, limit: Int) {
        guard case .responseTooLarge(let actualLimit, let request) = error else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(actualLimit == limit)
        #expect(request != nil)
    }

    @Test("a buffered body over the limit is an error, never a truncated value")
    func bufferedOverLimit() async throws {
        let (client, _) = makeClient(maxResponseBodySize: 100) { _ in .data(Data(count: 101)) }
        let error = await networkError { _ = try await client.send(Request<Data>(path: "/x")) }
        expectTooLarge(error, limit: 100)
    }

    @Test("a body exactly at the limit is accepted")
    func atLimit() async throws {
        let (client, _) = makeClient(maxResponseBodySize: 100) { _ in .data(Data(count: 100)) }
        #expect(try await client.send(Request<Data>(path: "/x")).count == 100)
    }

    @Test("a stream of unknown length stops being read as soon as it crosses the limit")
    func streamedOverLimit() async throws {
        let pulled = Counter()
        let chunks = CountingChunks(chunkSize: 1000, chunkCount: 1000, pulled: pulled)
        let (client, _) = makeClient(maxResponseBodySize: 10_500) { _ in
            StubResponse(body: HTTPBody(chunks, length: .unknown, iterationBehavior: .single))
        }
        let error = await networkError { _ = try await client.send(Request<Data>(path: "/x")) }
        expectTooLarge(error, limit: 10_500)
        #expect(pulled.value == 11)
    }

    @Test("a declared length over the limit fails before a byte is read")
    func declaredLengthOverLimit() async throws {
        let pulled = Counter()
        let chunks = CountingChunks(chunkSize: 1000, chunkCount: 5, pulled: pulled)
        let (client, _) = makeClient(maxResponseBodySize: 1000) { _ in
            StubResponse(body: HTTPBody(chunks, length: .known(5000), iterationBehavior: .single))
        }
        let error = await networkError { _ = try await client.send(Request<Data>(path: "/x")) }
        expectTooLarge(error, limit: 1000)
        #expect(pulled.value == 0)
    }

    @Test("an endpoint can raise or lower the client's limit")
    func perEndpointLimit() async throws {
        let (client, _) = makeClient(maxResponseBodySize: 10) { _ in .data(Data(count: 50)) }
        #expect(try await client.send(Request<Data>(path: "/x", options: RequestOptions(maxResponseBodySize: 50))).count == 50)
        let error = await networkError {
            _ = try await client.send(Request<Data>(path: "/x", options: RequestOptions(maxResponseBodySize: 49)))
        }
        expectTooLarge(error, limit: 49)
    }

    @Test("the default limit is sane")
    func defaultLimit() {
        #expect(LiveAPIClient.Configuration.defaultMaxResponseBodySize == 32 * 1024 * 1024)
    }
}
