import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DemoAPI

@Suite("Faults, bytes, status codes and redirects")
struct FaultRoutesTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func statusFaultsCountAttemptsPerKey() async throws {
        try await withDemoRouter { client, state in
            for attempt in 1...2 {
                try await client.execute(uri: "/faults/status/503?key=k1&times=2&retry_after=7", method: .get) { response in
                    #expect(response.status.code == 503, "attempt \(attempt)")
                    #expect(response.headers[.retryAfter] == "7")
                    #expect(response.json["code"] == .string("service_unavailable"))
                }
            }
            try await client.execute(uri: "/faults/status/503?key=k1&times=2&retry_after=7", method: .post) { response in
                #expect(response.status == .ok)
                #expect(response.json["key"] == .string("k1"))
                #expect(response.json["attempts"] == .number(3))
                #expect(response.headers[.retryAfter] == nil)
            }
            try await client.execute(
                uri: "/faults/status/429?key=k2&times=1&retry_after=Wed,%2021%20Oct%202015%2007:28:00%20GMT", method: .get
            ) { response in
                #expect(response.status.code == 429)
                #expect(response.headers[.retryAfter] == "Wed, 21 Oct 2015 07:28:00 GMT")
            }
            try await client.execute(uri: "/faults/status/500", method: .get) { #expect($0.status == .internalServerError) }
            try await client.execute(uri: "/faults/status/500", method: .get) { #expect($0.status == .internalServerError) }
            #expect(state.stats.snapshot.faultAttempts == ["k1": 3, "k2": 1, "default": 2])
            #expect(state.stats.count("GET /faults/status/{code}") == 5)
            #expect(state.stats.count("POST /faults/status/{code}") == 1)
            try await client.execute(uri: "/faults/status/abc", method: .get) { #expect($0.status == .badRequest) }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func stallCountsRequestsPerKeyAndBoundsItsParameters() async throws {
        try await withDemoRouter { client, state in
            // ms=0: the stalled requests (1 and 4 of every 3) answer at once too; each says its number.
            for attempt in 1...4 {
                try await client.execute(uri: "/faults/stall?every=3&ms=0&key=s", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.json["attempts"] == .number(Double(attempt)))
                }
            }
            #expect(state.stats.snapshot.faultAttempts["s"] == 4)
            for bad in ["every=0", "ms=-1", "ms=60001", "every=x"] {
                try await client.execute(uri: "/faults/stall?\(bad)", method: .get) { #expect($0.status == .badRequest, "\(bad)") }
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func delayAnswersAfterTheWait() async throws {
        try await withDemoRouter { client, _ in
            let clock = ContinuousClock()
            let start = clock.now
            try await client.execute(uri: "/faults/delay/50", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.json["delayed_ms"] == .number(50))
            }
            #expect(clock.now - start >= .milliseconds(50))
            try await client.execute(uri: "/faults/delay/60001", method: .get) { #expect($0.status == .badRequest) }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func trickleSendsOneByteAtATime() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/faults/trickle/5?interval_ms=5", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == "5")
                #expect(response.text == "ttttt")
            }
            try await client.execute(uri: "/faults/trickle/10001", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/faults/trickle/3?interval_ms=5", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .ok)
                #expect(response.text == "ttt")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func bytesAreDeterministicAndSized() async throws {
        try await withDemoRouter { client, _ in
            let first = try await client.execute(uri: "/bytes/100003?seed=7", method: .get)
            #expect(first.status == .ok)
            #expect(first.headers[.contentLength] == "100003")
            #expect(first.headers[.contentType] == "application/octet-stream")
            #expect(first.body.readableBytes == 100_003)
            let again = try await client.execute(uri: "/bytes/100003?seed=7", method: .get)
            #expect(again.body == first.body)
            let otherSeed = try await client.execute(uri: "/bytes/100003?seed=8", method: .get)
            #expect(otherSeed.body != first.body)
            // SplitMix64(seed 0) first output 0xE220A8397B1DCDAF, little-endian.
            let zero = try await client.execute(uri: "/bytes/8", method: .get)
            #expect(Array(zero.body.readableBytesView) == [0xaf, 0xcd, 0x1d, 0x7b, 0x39, 0xa8, 0x20, 0xe2])

            let streamed = try await client.execute(uri: "/stream/100003?seed=7", method: .get)
            #expect(streamed.headers[.contentLength] == nil)
            #expect(streamed.body == first.body)
            try await client.execute(uri: "/bytes/67108865", method: .get) { #expect($0.status == .badRequest) }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func statusRouteAnswersTheCode() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/status/418", method: .get) { response in
                #expect(response.status.code == 418)
                #expect(response.json == .object(["message": .string("status 418")]))
            }
            try await client.execute(uri: "/status/204", method: .delete) { response in
                #expect(response.status == .noContent)
                #expect(response.body.readableBytes == 0)
            }
            for bad in ["/status/101", "/status/600", "/status/abc"] {
                try await client.execute(uri: bad, method: .get) { #expect($0.status == .badRequest, "\(bad)") }
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func redirects() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/redirect/301?to=/films", method: .get) { response in
                #expect(response.status == .movedPermanently)
                #expect(response.headers[.location] == "/films")
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/redirect/307", method: .post) { response in
                #expect(response.status == .temporaryRedirect)
                #expect(response.headers[.location] == "/echo")
            }
            try await client.execute(uri: "/redirect/309", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/redirect/chain/3", method: .get) { response in
                #expect(response.status == .found)
                #expect(response.headers[.location] == "/redirect/chain/2")
            }
            try await client.execute(uri: "/redirect/chain/0", method: .get) { #expect($0.headers[.location] == "/echo") }
            try await client.execute(uri: "/redirect/loop/a", method: .get) { #expect($0.headers[.location] == "/redirect/loop/b") }
            try await client.execute(uri: "/redirect/loop/b", method: .get) { #expect($0.headers[.location] == "/redirect/loop/a") }
        }
    }
}
