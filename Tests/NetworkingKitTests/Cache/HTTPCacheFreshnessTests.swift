import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Storage of fresh responses and the freshness arithmetic of RFC 9111 §4.2.
@Suite("HTTPCache freshness")
struct HTTPCacheFreshnessTests {
    @Test("A fresh response is served from the cache as HIT, with its body and Age")
    func maxAgeHit() async throws {
        let harness = CacheHarness(scripted([ok("toy story", ["Cache-Control": "max-age=100", "Date": ManualDate.httpDate()])]))
        let first = try await harness.send()
        #expect(first.cacheStatus == .miss)
        #expect(first.body == "toy story")
        harness.clock.advance(by: 99)
        let second = try await harness.send()
        #expect(second.cacheStatus == .hit)
        #expect(second.body == "toy story")
        #expect(second.response.header("Age") == "99")
        #expect(harness.networkCount == 1)
    }

    @Test("max-age: stale once the age reaches the lifetime")
    func maxAgeExpires() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100", "Date": ManualDate.httpDate()])]))
        try await harness.send()
        harness.clock.advance(by: 100)
        let second = try await harness.send()
        #expect(second.cacheStatus == .miss)
        #expect(harness.networkCount == 2)
    }

    @Test("Expires minus Date gives the lifetime")
    func expiresMinusDate() async throws {
        // Date says the response is 50 s old already on arrival; Expires is 60 s after Date.
        let headers = ["Date": ManualDate.httpDate(-50), "Expires": ManualDate.httpDate(10)]
        let harness = CacheHarness(scripted([ok("a", headers)]))
        try await harness.send()
        harness.clock.advance(by: 9)
        #expect(try await harness.send().cacheStatus == .hit)
        harness.clock.advance(by: 1)
        #expect(try await harness.send().cacheStatus == .miss)
    }

    @Test("An invalid Expires means already expired")
    func invalidExpires() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Date": ManualDate.httpDate(), "Expires": "0"])]))
        try await harness.send()
        #expect(try await harness.send().cacheStatus == .miss)
        #expect(harness.networkCount == 2)
    }

    @Test("max-age wins over Expires")
    func maxAgeOverExpires() async throws {
        let headers = ["Cache-Control": "max-age=10", "Date": ManualDate.httpDate(), "Expires": ManualDate.httpDate(1000)]
        let harness = CacheHarness(scripted([ok("a", headers)]))
        try await harness.send()
        harness.clock.advance(by: 10)
        #expect(try await harness.send().cacheStatus == .miss)
    }

    @Test("Heuristic freshness: 10% of the time since Last-Modified")
    func heuristic() async throws {
        let headers = ["Date": ManualDate.httpDate(), "Last-Modified": ManualDate.httpDate(-1000)]
        let harness = CacheHarness(scripted([ok("a", headers), ok("b", headers)]))
        try await harness.send()
        harness.clock.advance(by: 99)
        #expect(try await harness.send().cacheStatus == .hit)
        harness.clock.advance(by: 1)
        // Stale: revalidated with If-Modified-Since; the stub answers 200.
        #expect(try await harness.send().cacheStatus == .miss)
        #expect(harness.transport.requests.last?.header("If-Modified-Since") == ManualDate.httpDate(-1000))
    }

    @Test("No heuristic freshness for a status not cacheable by default")
    func noHeuristicForOtherStatuses() async throws {
        let headers = ["Date": ManualDate.httpDate(), "Last-Modified": ManualDate.httpDate(-1000)]
        let harness = CacheHarness(scripted([StubResponse(status: .created, headers: headers, body: HTTPBody("a"))]))
        try await harness.send()
        try await harness.send()
        #expect(harness.networkCount == 2)
        #expect((await harness.storage.all()).isEmpty)
    }

    @Test("The Age header counts toward the current age")
    func ageHeader() async throws {
        let headers = ["Cache-Control": "max-age=100", "Date": ManualDate.httpDate(), "Age": "60"]
        let harness = CacheHarness(scripted([ok("a", headers)]))
        try await harness.send()
        harness.clock.advance(by: 39)
        let hit = try await harness.send()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.response.header("Age") == "99")
        harness.clock.advance(by: 1)
        #expect(try await harness.send().cacheStatus == .miss)
    }

    @Test("Corrected age: the time in flight is added to Age; the apparent age from Date counts too")
    func correctedAge() async throws {
        let clock = LockedState<ManualDate?>(nil)
        // The response takes 10 s to arrive; it says Age 20 and carries a Date 5 s before arrival.
        let harness = CacheHarness { _ in
            clock.withLock { $0?.advance(by: 10) }
            return ok("a", ["Cache-Control": "max-age=100", "Date": ManualDate.httpDate(5), "Age": "20"])
        }
        clock.withLock { $0 = harness.clock }
        try await harness.send()
        // corrected_initial_age = max(apparent 5, 20 + 10) = 30.
        let hit = try await harness.send()
        #expect(hit.response.header("Age") == "30")
        harness.clock.advance(by: 70)
        #expect(try await harness.send().cacheStatus == .miss)
    }

    @Test("A list-valued Age uses its first member (RFC 9111 §5.1)", arguments: ["100, 200", "100,abc", " 100 , 5"])
    func listAge(value: String) async throws {
        let headers = ["Cache-Control": "max-age=1000", "Date": ManualDate.httpDate(), "Age": value]
        let harness = CacheHarness(scripted([ok("a", headers)]))
        try await harness.send()
        let hit = try await harness.send()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.response.header("Age") == "100")
    }

    @Test("Repeated Age lines use the first")
    func repeatedAge() async throws {
        var response = ok("a", ["Cache-Control": "max-age=1000", "Date": ManualDate.httpDate()])
        response.response.headerFields.append(HTTPField(name: .age, value: "100"))
        response.response.headerFields.append(HTTPField(name: .age, value: "900"))
        let harness = CacheHarness(scripted([response]))
        try await harness.send()
        let hit = try await harness.send()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.response.header("Age") == "100")
    }

    @Test("An invalid Age value is ignored", arguments: ["-5", "abc", "abc, 2", ""])
    func invalidAge(value: String) async throws {
        let headers = ["Cache-Control": "max-age=100", "Date": ManualDate.httpDate(), "Age": value]
        let harness = CacheHarness(scripted([ok("a", headers)]))
        try await harness.send()
        let hit = try await harness.send()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.response.header("Age") == "0")
    }

    @Test("An invalid max-age makes the response stale")
    func invalidMaxAge() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=soon", "Date": ManualDate.httpDate()])]))
        try await harness.send()
        #expect(try await harness.send().cacheStatus == .miss)
    }

    @Test("Statuses cacheable by default are stored; others without freshness are not")
    func statuses() async throws {
        let harness = CacheHarness { request in
            switch request.path {
            case "/gone": .status(.notFound, headers: ["Cache-Control": "max-age=60"])
            case "/teapot": .status(.init(code: 418), headers: [:])
            default: .status(.internalServerError)
            }
        }
        try await harness.send(.get, "/gone")
        #expect(try await harness.send(.get, "/gone").cacheStatus == .hit)
        try await harness.send(.get, "/teapot")
        #expect(try await harness.send(.get, "/teapot").cacheStatus == .miss)
        try await harness.send(.get, "/boom")
        try await harness.send(.get, "/boom")
        #expect(harness.networkCount == 5)
    }
}
