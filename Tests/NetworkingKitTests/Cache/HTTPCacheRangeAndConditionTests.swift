import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// What the cache answers itself besides plain hits (RFC 9111 §4.2.4, §4.3.2, §3.3-3.4): the
/// caller's own conditions, single ranges, and stale responses while the origin cannot be reached.
@Suite("HTTPCache: conditions, ranges, disconnection")
struct HTTPCacheRangeAndConditionTests {
    private static let fresh = [
        "Cache-Control": "max-age=100", "ETag": "\"abc\"", "Last-Modified": ManualDate.httpDate(-5000),
        "Date": ManualDate.httpDate(), "Content-Type": "text/plain",
    ]

    @Test(
        "RFC 9111 §4.3.2, RFC 9110 §13.1.2: a caller's If-None-Match that matches a fresh entry is answered 304 from the cache, weakly compared; a mismatch gets the 200"
    )
    func ifNoneMatch() async throws {
        let harness = CacheHarness(scripted([ok("0123456789", Self.fresh)]))
        try await harness.send()
        for tags in ["\"abc\"", "W/\"abc\"", "\"x\", \"abc\"", "*", "abc"] {
            let answer = try await harness.send(headers: ["If-None-Match": tags])
            #expect(answer.response.status == .notModified, "\(tags)")
            #expect(answer.body.isEmpty)
            #expect(answer.response.header("ETag") == "\"abc\"")
            #expect(answer.response.header("Cache-Control") == "max-age=100")
            #expect(answer.response.header("Content-Type") == nil)
            #expect(answer.cacheStatus == .hit)
        }
        let other = try await harness.send(headers: ["If-None-Match": "\"x\", \"ab,c\""])
        #expect(other.response.status == .ok)
        #expect(other.body == "0123456789")
        #expect(harness.networkCount == 1)
    }

    @Test("RFC 9110 §13.2.2, RFC 9111 §4.3.2: If-None-Match wins over If-Modified-Since, which compares with Last-Modified, else Date")
    func ifModifiedSince() async throws {
        let harness = CacheHarness(scripted([ok("a", Self.fresh)]))
        try await harness.send()
        #expect(try await harness.send(headers: ["If-Modified-Since": ManualDate.httpDate(-5000)]).response.status == .notModified)
        #expect(try await harness.send(headers: ["If-Modified-Since": ManualDate.httpDate(-4000)]).response.status == .notModified)
        #expect(try await harness.send(headers: ["If-Modified-Since": ManualDate.httpDate(-6000)]).response.status == .ok)
        #expect(try await harness.send(headers: ["If-Modified-Since": "not a date"]).response.status == .ok)
        let precedence = try await harness.send(headers: ["If-None-Match": "\"x\"", "If-Modified-Since": ManualDate.httpDate()])
        #expect(precedence.response.status == .ok)
        #expect(harness.networkCount == 1)

        let noLastModified = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100", "Date": ManualDate.httpDate(-10)])]))
        try await noLastModified.send()
        #expect(try await noLastModified.send(headers: ["If-Modified-Since": ManualDate.httpDate(-10)]).response.status == .notModified)
        #expect(try await noLastModified.send(headers: ["If-Modified-Since": ManualDate.httpDate(-11)]).response.status == .ok)
    }

    @Test("RFC 9111 §4.3.2: If-Match, If-Unmodified-Since, If-Range, and any condition on a stale entry go to the origin as they are")
    func conditionsForTheOrigin() async throws {
        let harness = CacheHarness(scripted([ok("a", Self.fresh), .status(.preconditionFailed), .status(.notModified)]))
        try await harness.send()
        #expect(try await harness.send(headers: ["If-Match": "\"zzz\""]).response.status == .preconditionFailed)
        #expect(harness.transport.requests.last?.header("If-Match") == "\"zzz\"")
        harness.clock.advance(by: 200)
        let stale = try await harness.send(headers: ["If-None-Match": "\"mine\""])
        #expect(stale.response.status == .notModified)
        #expect(harness.transport.requests.last?.header("If-None-Match") == "\"mine\"")
        #expect(harness.networkCount == 3)
    }

    @Test(
        "RFC 9111 §3.4, RFC 9110 §14.2: a single range is cut from a fresh stored 200 with the stored fields; several ranges or none satisfiable go to the origin",
        arguments: [
            ("bytes=0-1", "01", "bytes 0-1/10"), ("bytes=1-", "123456789", "bytes 1-9/10"), ("bytes=-1", "9", "bytes 9-9/10"),
            ("bytes=8-20", "89", "bytes 8-9/10"), ("bytes=-50", "0123456789", "bytes 0-9/10"),
        ])
    func rangeFromWhole(range: String, body: String, contentRange: String) async throws {
        let harness = CacheHarness(scripted([ok("0123456789", Self.fresh.merging(["A": "1"]) { $1 }), .status(.rangeNotSatisfiable)]))
        try await harness.send()
        let part = try await harness.send(headers: ["Range": range])
        #expect(part.response.status == .partialContent)
        #expect(part.body == body)
        #expect(part.response.header("Content-Range") == contentRange)
        #expect(part.response.header("Content-Length") == String(body.utf8.count))
        #expect(part.response.header("A") == "1")
        #expect(part.cacheStatus == .hit)
        #expect(harness.networkCount == 1)
        for passedOn in ["bytes=10-", "bytes=0-1,3-4", "items=0-1", "bytes=5-2"] {
            _ = try await harness.send(headers: ["Range": passedOn])
            #expect(harness.transport.requests.last?.header("Range") == passedOn)
        }
        #expect(harness.networkCount == 5)
        // The whole response is still stored.
        #expect(try await harness.send().body == "0123456789")
    }

    @Test(
        "RFC 9111 §3.3-3.4: a 206 holding the whole representation is stored as the 200; a partial one answers the ranges it holds, never the whole"
    )
    func storedParts() async throws {
        let complete = CacheHarness(
            scripted([
                StubResponse(
                    status: .partialContent, headers: ["Cache-Control": "max-age=100", "Content-Range": "bytes 0-9/10"],
                    body: HTTPBody("0123456789"))
            ]))
        #expect(try await complete.send(headers: ["Range": "bytes=0-"]).response.status == .partialContent)
        let whole = try await complete.send()
        #expect(whole.response.status == .ok)
        #expect(whole.body == "0123456789")
        #expect(whole.response.header("Content-Range") == nil)
        #expect(complete.networkCount == 1)

        let partial = CacheHarness(
            scripted([
                StubResponse(
                    status: .partialContent, headers: ["Cache-Control": "max-age=100", "Content-Range": "bytes 4-9/10"],
                    body: HTTPBody("456789")),
                ok("0123456789", ["Cache-Control": "max-age=100"]),
            ]))
        try await partial.send(headers: ["Range": "bytes=4-"])
        let inner = try await partial.send(headers: ["Range": "bytes=6-8"])
        #expect(inner.response.status == .partialContent)
        #expect(inner.body == "678")
        #expect(inner.response.header("Content-Range") == "bytes 6-8/10")
        #expect(try await partial.send(headers: ["Range": "bytes=-2"]).body == "89")
        #expect(partial.networkCount == 1)
        // The whole is asked of the origin, and its 200 replaces the part.
        #expect(try await partial.send().body == "0123456789")
        #expect(partial.networkCount == 2)
        #expect(try await partial.send(headers: ["Range": "bytes=0-1"]).body == "01")
        #expect(partial.networkCount == 2)

        let inconsistent = CacheHarness(
            scripted([
                StubResponse(
                    status: .partialContent, headers: ["Cache-Control": "max-age=100", "Content-Range": "bytes 4-9/10"],
                    body: HTTPBody("45"))
            ]))
        try await inconsistent.send(headers: ["Range": "bytes=4-"])
        #expect(await inconsistent.storage.all().isEmpty)
    }

    /// A file of ten bytes served in parts: `Range: bytes=a-` (or `bytes=-n`) gets a `206`, with
    /// `etag` as its validator (a different one once `changed`).
    private static func partServer(changed: LockedState<Bool>) -> StubTransport.Handler {
        { request in
            let whole = Array("0123456789".utf8)
            let tag = changed.withLock { $0 } ? "\"v2\"" : "\"v1\""
            var headers = ["Cache-Control": "max-age=3600", "ETag": tag]
            guard let range = request.header("Range"), request.header("If-Range").map({ $0 == tag }) ?? true else {
                return StubResponse(status: .ok, headers: headers, body: HTTPBody(Data(whole)))
            }
            let first = range == "bytes=0-4" ? 0 : Int(range.dropFirst(6).dropLast()) ?? 0
            let last = range == "bytes=0-4" ? 4 : 9
            headers["Content-Range"] = "bytes \(first)-\(last)/10"
            return StubResponse(status: .partialContent, headers: headers, body: HTTPBody(Data(whole[first...last])))
        }
    }

    @Test("RFC 9111 §3.4: a fresh stored part is completed with a range request for the rest (If-Range), joined, and stored whole")
    func storedPartCompleted() async throws {
        let harness = CacheHarness(Self.partServer(changed: LockedState(false)))
        #expect(try await harness.send(headers: ["Range": "bytes=0-4"]).body == "01234")
        let whole = try await harness.send()
        #expect(whole.response.status == .ok)
        #expect(whole.body == "0123456789")
        #expect(whole.response.headerFields[.contentLength] == "10")
        #expect(harness.transport.requests.last?.header("Range") == "bytes=5-")
        #expect(harness.transport.requests.last?.header("If-Range") == "\"v1\"")
        let hit = try await harness.send()
        #expect(hit.cacheStatus == .hit)
        #expect(hit.body == "0123456789")
        #expect(harness.networkCount == 2)
    }

    @Test("RFC 9111 §3.4: a part without a strong validator (none, or a weak ETag) is never joined: the whole is asked for")
    func partWithoutStrongValidatorNotJoined() async throws {
        for validator in [[:], ["ETag": "W/\"v1\""]] {
            let harness = CacheHarness { request in
                let headers = ["Cache-Control": "max-age=3600"].merging(validator) { $1 }
                guard request.header("Range") != nil else { return ok("0123456789", headers) }
                return StubResponse(
                    status: .partialContent, headers: headers.merging(["Content-Range": "bytes 0-4/10"]) { $1 },
                    body: HTTPBody("01234"))
            }
            try await harness.send(headers: ["Range": "bytes=0-4"])
            #expect(try await harness.send().body == "0123456789")
            #expect(harness.transport.requests.last?.header("Range") == nil, "\(validator)")
            #expect(harness.networkCount == 2)
        }
    }

    @Test("RFC 9111 §3.4: a part whose representation changed is not joined: the whole new one answers and replaces it")
    func changedPartNotJoined() async throws {
        let changed = LockedState(false)
        let harness = CacheHarness(Self.partServer(changed: changed))
        try await harness.send(headers: ["Range": "bytes=0-4"])
        changed.withLock { $0 = true }
        let whole = try await harness.send()
        #expect(whole.response.status == .ok)
        #expect(whole.body == "0123456789")
        #expect(whole.response.headerFields[.eTag] == "\"v2\"")
        #expect(try await harness.send().cacheStatus == .hit)
        #expect(harness.networkCount == 2)
    }

    @Test(
        "RFC 9111 §4.2.4, §5.2.2.2: while the origin cannot be reached, a stale response is served, unless it says must-revalidate or no-cache (then 504)"
    )
    func disconnected() async throws {
        let down = NetworkError.transport(TransportFailure(kind: .connectionLost))
        for (cacheControl, expected) in [
            ("max-age=2", HTTPResponse.Status.ok), ("max-age=2, must-revalidate", .gatewayTimeout),
            ("max-age=2, no-cache", .gatewayTimeout),
        ] {
            let failing = LockedState(false)
            let harness = CacheHarness { _ in
                if failing.withLock({ $0 }) { throw down }
                return ok("stored", ["Cache-Control": cacheControl, "Date": ManualDate.httpDate()])
            }
            try await harness.send()
            harness.clock.advance(by: 10)
            failing.withLock { $0 = true }
            let answer = try await harness.send()
            #expect(answer.response.status == expected, "\(cacheControl)")
            if expected == .ok {
                #expect(answer.body == "stored")
                #expect(answer.cacheStatus == .stale)
                // A request that asks for validation gets the failure itself.
                await #expect(throws: NetworkError.self) { try await harness.send(headers: ["Cache-Control": "no-cache"]) }
                await #expect(throws: NetworkError.self) { try await harness.send(headers: ["Cache-Control": "max-age=0"]) }
            }
        }
        // Failures that are not a disconnection are not hidden.
        let failing = LockedState(false)
        let harness = CacheHarness { _ in
            if failing.withLock({ $0 }) { throw NetworkError.transport(TransportFailure(kind: .secureConnectionFailed)) }
            return ok("stored", ["Cache-Control": "max-age=2"])
        }
        try await harness.send()
        harness.clock.advance(by: 10)
        failing.withLock { $0 = true }
        await #expect(throws: NetworkError.self) { try await harness.send() }
    }
}
