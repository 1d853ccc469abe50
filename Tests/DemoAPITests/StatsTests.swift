import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DemoAPI

@Suite("Stats and unknown routes")
struct StatsTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func countsRequestsByRoutePatternAndResets() async throws {
        try await withDemoRouter { client, state in
            _ = try await client.execute(uri: "/films", method: .get)
            _ = try await client.execute(uri: "/films", method: .get)
            _ = try await client.execute(uri: "/films/up", method: .get)
            _ = try await client.execute(uri: "/todos/1", method: .get)
            try await client.execute(uri: "/stats", method: .get) { response in
                #expect(response.status == .ok)
                let stats = try JSONDecoder().decode(DemoStats.Snapshot.self, from: Data(response.body.readableBytesView))
                #expect(stats.requests == ["GET /films": 2, "GET /films/{id}": 1, "GET /todos/{id}": 1])
                #expect(stats.total == 4)
                #expect(stats == state.stats.snapshot)
                let json = response.json
                #expect(json["not_modified"] == .number(0))
                #expect(json["fault_attempts"] == .object([:]))
            }
            try await client.execute(uri: "/stats", method: .delete) { #expect($0.status == .noContent) }
            #expect(state.stats.snapshot == DemoStats.Snapshot())
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func unknownRoutesGetJSON404AndAreNotCounted() async throws {
        try await withDemoRouter { client, state in
            try await client.execute(uri: "/nope", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.json == .object(["message": .string("No route for GET /nope."), "code": .string("not_found")]))
            }
            #expect(state.stats.snapshot.total == 0)
        }
    }
}
