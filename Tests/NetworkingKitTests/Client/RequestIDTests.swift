import Foundation
import HTTPTypes
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

@Suite("Request ids")
struct RequestIDTests {
    /// Records the request id each call carries.
    private struct IDRecorder: Middleware {
        let ids = LockedState<[String]>([])

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: @escaping MiddlewareNext
        ) async throws -> HTTPAnswer {
            ids.withLock { $0.append(context.requestID) }
            return try await next(request, body, context)
        }
    }

    @Test("every call has its own id, 16 lower-case hex digits, concurrent calls included")
    func distinctIDs() async throws {
        let recorder = IDRecorder()
        let (client, _) = makeClient(middlewares: [recorder])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 {
                group.addTask { try await client.request(TestEndpoint(path: "/films")) }
            }
            try await group.waitForAll()
        }
        let ids = recorder.ids.withLock { $0 }
        #expect(ids.count == 1_000)
        #expect(Set(ids).count == 1_000)
        #expect(ids.allSatisfy { $0.utf8.count == 16 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
    }
}
