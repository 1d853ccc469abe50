import Foundation
import HTTPTypes
import NetworkingKit
import NetworkingKitTesting
import Testing

/// Vary (RFC 9111 §4.1) and partitioning by credential.
@Suite("HTTPCache Vary and partitions")
struct HTTPCacheVaryTests {
    @Test("Vary: the stored request header values must match")
    func varyMatch() async throws {
        let harness = CacheHarness { request in
            ok(request.header("Accept-Language") ?? "none", ["Cache-Control": "max-age=100", "Vary": "Accept-Language"])
        }
        #expect(try await harness.send(headers: ["Accept-Language": "fr"]).body == "fr")
        #expect(try await harness.send(headers: ["Accept-Language": "de"]).cacheStatus == .miss)
        let french = try await harness.send(headers: ["Accept-Language": "fr"])
        #expect(french.cacheStatus == .hit)
        #expect(french.body == "fr")
        let none = try await harness.send()
        #expect(none.cacheStatus == .miss)
        #expect(none.body == "none")
        #expect(try await harness.send().cacheStatus == .hit)
        #expect(harness.networkCount == 3)
    }

    @Test("Vary (RFC 9111 §4.1): values are normalised: fields combined, whitespace around commas, Accept-Language case and order")
    func varyNormalised() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100", "Vary": "Accept-Language, Foo"])]))
        try await harness.send(headers: ["Accept-Language": "en, de", "Foo": "1,2"])
        for headers in [
            ["Accept-Language": "de, en", "Foo": " 1, 2 "], ["Accept-Language": "eN, De", "Foo": "1 ,2"],
            ["Accept-Language": " en ,   de", "Foo": "1, 2"],
        ] {
            #expect(try await harness.send(headers: headers).cacheStatus == .hit, "\(headers)")
        }
        #expect(harness.networkCount == 1)
        // Other fields keep their case and order, and weights stay with their language.
        #expect(try await harness.send(headers: ["Accept-Language": "en, de", "Foo": "2,1"]).cacheStatus == .miss)
        #expect(try await harness.send(headers: ["Accept-Language": "en;q=0.5, de", "Foo": "1,2"]).cacheStatus == .miss)
        #expect(harness.networkCount == 3)
    }

    @Test("Vary: Accept-Language (RFC 9110 §12.5.4): a stored response in the request's most preferred language answers it")
    func varyPreferredLanguage() async throws {
        let harness = CacheHarness { _ in
            ok("Guten Tag", ["Cache-Control": "max-age=100", "Vary": "Accept-Language", "Content-Language": "de"])
        }
        try await harness.send(headers: ["Accept-Language": "en, de"])
        #expect(try await harness.send(headers: ["Accept-Language": "fr;q=0.5, de;q=1.0"]).cacheStatus == .hit)
        #expect(try await harness.send(headers: ["Accept-Language": "DE"]).cacheStatus == .hit)
        #expect(harness.networkCount == 1)
        // French preferred: the server may well have it, so the German answer is not the one to give.
        #expect(try await harness.send(headers: ["Accept-Language": "fr, de;q=0.5"]).cacheStatus == .miss)
        #expect(try await harness.send(headers: ["Accept-Language": "de;q=0, fr"]).cacheStatus == .miss)
        #expect(harness.networkCount == 3)
    }

    @Test("A public response stored without credentials answers a request with Cookie; any other does not (RFC 9111 §3.5)")
    func publicServesCookieRequests() async throws {
        let harness = CacheHarness { _ in
            ok("public", ["Cache-Control": "max-age=100, public"])
        }
        try await harness.send()
        #expect(try await harness.send(headers: ["Cookie": "a=b"]).cacheStatus == .hit)
        #expect(harness.networkCount == 1)
        let plain = CacheHarness { _ in ok("plain", ["Cache-Control": "max-age=100"]) }
        try await plain.send()
        #expect(try await plain.send(headers: ["Cookie": "a=b"]).cacheStatus == .miss)
        #expect(plain.networkCount == 2)
    }

    @Test("Vary: * is never reused")
    func varyStar() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100", "Vary": "*"])]))
        try await harness.send()
        #expect(try await harness.send().cacheStatus == .miss)
        #expect(harness.networkCount == 2)
    }

    @Test("Credentials differing only in their Cookie, sent in turn, each get a partition of their own")
    func partitionByCookieInTurn() async throws {
        let harness = CacheHarness { request in
            ok(request.header("Cookie") ?? "none", ["Cache-Control": "max-age=100"])
        }
        let first = ["Authorization": "Bearer shared", "Cookie": "session=1"]
        let second = ["Authorization": "Bearer shared", "Cookie": "session=2"]
        #expect(try await harness.send(headers: first).body == "session=1")
        #expect(try await harness.send(headers: second).body == "session=2")
        for _ in 0..<2 {
            #expect(try await harness.send(headers: first).body == "session=1")
            #expect(try await harness.send(headers: second).body == "session=2")
        }
        #expect(harness.networkCount == 2)
        #expect(await harness.storage.all().keys.filter { !$0.partition.isEmpty }.count == 2)
    }

    @Test("A response fetched with one Authorization is not served to another or to none")
    func partitionByAuthorization() async throws {
        let harness = CacheHarness { request in
            ok(request.header("Authorization") ?? "anonymous", ["Cache-Control": "max-age=100"])
        }
        #expect(try await harness.send(headers: ["Authorization": "Bearer alice"]).body == "Bearer alice")
        #expect(try await harness.send(headers: ["Authorization": "Bearer bob"]).body == "Bearer bob")
        #expect(try await harness.send().body == "anonymous")
        let alice = try await harness.send(headers: ["Authorization": "Bearer alice"])
        #expect(alice.cacheStatus == .hit)
        #expect(alice.body == "Bearer alice")
        #expect(harness.networkCount == 3)
        // The partition is a SHA-256 digest, never the credential: nothing stored (key or entry,
        // as JSON, the way a storage may write it) holds the credential, plainly or in hex.
        let stored = await harness.storage.all()
        #expect(stored.keys.filter { !$0.partition.isEmpty }.count == 2)
        // SHA-256 of "authorization\n<values>\ncookie\n<values>", in lower-case hex (worked out
        // with Python's hashlib): a partition written by an earlier version still matches.
        #expect(
            Set(stored.keys.map(\.partition).filter { !$0.isEmpty }) == [
                "09592ea2fbde347626795ff41c265cf288d41caabb152f4483fb80e32e601bb9",
                "6c12de1676375113fdd5fae567a56cef5b0d5fab64b85e9634436144d920c641",
            ])
        for (key, variants) in stored {
            let text =
                String(decoding: try JSONEncoder().encode(key), as: UTF8.self)
                + String(decoding: try JSONEncoder().encode(variants), as: UTF8.self)
            for credential in ["alice", "bob"] {
                let hex = Data(credential.utf8).map { String(format: "%02x", $0) }.joined()
                #expect(!text.contains(credential) && !text.contains(hex))
            }
            #expect(key.partition.isEmpty || key.partition.count == 64)
        }
    }

    @Test("Cookie partitions too")
    func partitionByCookie() async throws {
        let harness = CacheHarness { request in ok(request.header("Cookie") ?? "none", ["Cache-Control": "max-age=100"]) }
        try await harness.send(headers: ["Cookie": "session=1"])
        #expect(try await harness.send(headers: ["Cookie": "session=2"]).body == "session=2")
        #expect(try await harness.send().body == "none")
        #expect(harness.networkCount == 3)
    }

    @Test("A public response is shared across credentials")
    func publicShared() async throws {
        let harness = CacheHarness(scripted([ok("catalog", ["Cache-Control": "public, max-age=100"])]))
        try await harness.send(headers: ["Authorization": "Bearer alice"])
        #expect(try await harness.send(headers: ["Authorization": "Bearer bob"]).cacheStatus == .hit)
        #expect(try await harness.send().cacheStatus == .hit)
        #expect(harness.networkCount == 1)
    }

    @Test("An anonymous, non-public response is not served to a request with credentials")
    func anonymousNotServedToCredentialed() async throws {
        let harness = CacheHarness(scripted([ok("a", ["Cache-Control": "max-age=100"])]))
        try await harness.send()
        #expect(try await harness.send(headers: ["Authorization": "Bearer alice"]).cacheStatus == .miss)
    }

    @Test(
        "An API-key header partitions like Authorization: one key's private answer reaches neither another key nor a caller without one",
        arguments: ["X-API-Key", "Api-Key", "X-Auth-Token", "X-Access-Token"])
    func partitionByAPIKey(header: String) async throws {
        let harness = CacheHarness { request in
            ok(request.header(header) ?? "anonymous", ["Cache-Control": "private, max-age=100"])
        }
        #expect(try await harness.send(headers: [header: "alice-key"]).body == "alice-key")
        let bob = try await harness.send(headers: [header: "bob-key"])
        #expect(bob.cacheStatus == .miss)
        #expect(bob.body == "bob-key")
        let anonymous = try await harness.send()
        #expect(anonymous.cacheStatus == .miss)
        #expect(anonymous.body == "anonymous")
        let alice = try await harness.send(headers: [header: "alice-key"])
        #expect(alice.cacheStatus == .hit)
        #expect(alice.body == "alice-key")
        #expect(harness.networkCount == 3)
    }

    @Test("A header the client declares sensitive partitions too; one it does not declare does not")
    func partitionByDeclaredHeader() async throws {
        let harness = CacheHarness { request in
            ok(request.header("X-Tenant-Secret") ?? "none", ["Cache-Control": "private, max-age=100"])
        }
        let declared: Set<HTTPField.Name> = [HTTPField.Name("X-Tenant-Secret")!]
        try await harness.send(headers: ["X-Tenant-Secret": "a"], declaredCredentials: declared)
        #expect(try await harness.send(headers: ["X-Tenant-Secret": "b"], declaredCredentials: declared).body == "b")
        // Undeclared, the header is no credential: the cache shares the answer (what Vary is for).
        let undeclared = CacheHarness { request in
            ok(request.header("X-Tenant-Secret") ?? "none", ["Cache-Control": "max-age=100"])
        }
        try await undeclared.send(headers: ["X-Tenant-Secret": "a"])
        #expect(try await undeclared.send(headers: ["X-Tenant-Secret": "b"]).cacheStatus == .hit)
    }

    @Test("A public answer's Set-Cookie goes to the user who fetched it and to no one served from the shared partition")
    func setCookieNotShared() async throws {
        let harness = CacheHarness { request in
            ok("catalog", ["Cache-Control": "public, max-age=100", "Set-Cookie": "session=\(request.header("Authorization") ?? "anon")"])
        }
        let first = try await harness.send(headers: ["Authorization": "Bearer alice"])
        #expect(first.response.headerFields[.setCookie] == "session=Bearer alice")
        for headers in [["Authorization": "Bearer bob"], [:], ["Cookie": "other=1"]] {
            let hit = try await harness.send(headers: headers)
            #expect(hit.cacheStatus == .hit)
            #expect(hit.response.headerFields[.setCookie] == nil, "\(headers) got alice's cookie")
        }
        #expect(harness.networkCount == 1)
    }

    @Test(
        "An anonymous answer's Set-Cookie is not replayed to the next anonymous caller; a credential's own partition replays it to its user"
    )
    func setCookieByPartition() async throws {
        let harness = CacheHarness { _ in ok("x", ["Cache-Control": "max-age=100", "Set-Cookie": "tracking=1"]) }
        #expect(try await harness.send().response.headerFields[.setCookie] == "tracking=1")
        let again = try await harness.send()
        #expect(again.cacheStatus == .hit)
        #expect(again.response.headerFields[.setCookie] == nil)

        try await harness.send(headers: ["Authorization": "Bearer alice"])
        let alice = try await harness.send(headers: ["Authorization": "Bearer alice"])
        #expect(alice.cacheStatus == .hit)
        #expect(alice.response.headerFields[.setCookie] == "tracking=1")
    }

    @Test("A 304's Set-Cookie freshening a shared entry reaches the caller who revalidated, and is not stored for the next")
    func setCookieFrom304NotShared() async throws {
        let harness = CacheHarness(
            scripted([
                ok("a", ["Cache-Control": "public, max-age=10", "ETag": "\"1\""]),
                .status(.notModified, headers: ["ETag": "\"1\"", "Set-Cookie": "session=bob", "Cache-Control": "public, max-age=10"]),
            ]))
        try await harness.send(headers: ["Authorization": "Bearer alice"])
        harness.clock.advance(by: 20)
        let bob = try await harness.send(headers: ["Authorization": "Bearer bob"])
        #expect(bob.cacheStatus == .revalidated)
        #expect(bob.response.headerFields[.setCookie] == "session=bob")
        let carol = try await harness.send(headers: ["Authorization": "Bearer carol"])
        #expect(carol.cacheStatus == .hit)
        #expect(carol.response.headerFields[.setCookie] == nil)
    }
}
