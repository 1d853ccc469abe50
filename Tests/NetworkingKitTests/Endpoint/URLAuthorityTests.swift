import Foundation
import HTTPTypes
import Logging
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Every URL the library builds or follows has a host and port a connection can be opened to, or
/// the call fails with `invalidURL` before a byte is sent: SwiftNIO traps on a port above 65535,
/// and Foundation reads some ports as none at all.
@Suite("URL hosts and ports")
struct URLAuthorityTests {
    /// Authorities no request may go to, in every form a server or a caller could write them.
    static let refused = [
        "127.0.0.1:99999", "127.0.0.1:65536", "127.0.0.1:4294967297", "localhost:99999", "localhost:0",
        "localhost:00000", "localhost:18446744073709551617", "localhost:1844674407370955161700", "[::1]:65536",
        "[::1]:0", "[zz]", "[zz]:80", "exa%20mple.com", "a%2Fb", "[::1]x", "user@localhost:70000", "ho;st", "h!",
        "[v1.x]",
    ]

    /// Authorities at the edges of what is fine.
    static let accepted = [
        "127.0.0.1:1", "127.0.0.1:65535", "localhost:0080", "localhost:", "[::1]", "[::1]:8080",
        "[fe80::1:2:3:4]:443", "user:secret@api.example.com:8443", "api-1.example_test.com", "xn--bcher-kva.example",
    ]

    @Test("a URL the caller writes with a port out of range or a host that names none is invalidURL, never sent")
    func refusedWhenWritten() async throws {
        for authority in Self.refused {
            let (client, transport) = makeClient(baseURL: nil)
            let error = await networkError { try await client.send(Request<Void>(path: "http://\(authority)/x")) }
            guard case .invalidURL? = error else {
                Issue.record("http://\(authority)/x: expected invalidURL, got \(String(describing: error))")
                continue
            }
            #expect(transport.requests.isEmpty, "http://\(authority)/x was sent")
        }
    }

    @Test("a base URL with a port out of range fails every call with invalidURL")
    func refusedAsBase() async throws {
        for authority in Self.refused {
            guard let base = URL(string: "https://\(authority)/v1") else { continue }
            let (client, transport) = makeClient(baseURL: base)
            let error = await networkError { try await client.send(Request<Void>(path: "/films")) }
            guard case .invalidURL? = error else {
                Issue.record("base \(base): expected invalidURL, got \(String(describing: error))")
                continue
            }
            #expect(transport.requests.isEmpty)
        }
    }

    @Test("hosts and ports at the edges of the valid ones are sent as written")
    func accepted() async throws {
        for authority in Self.accepted {
            let (client, transport) = makeClient(baseURL: nil)
            try await client.send(Request<Void>(path: "https://\(authority)/x"))
            #expect(transport.requests.count == 1, "https://\(authority)/x was not sent")
        }
    }

    @Test("a redirect to a port out of range or a host that names none fails as invalidLocation after one request")
    func refusedRedirect() async throws {
        for authority in Self.refused {
            let (client, transport) = makeClient { request in
                request.url?.host == "api.example.com"
                    ? .status(.found, headers: ["Location": "http://\(authority)/next"]) : .text("followed")
            }
            let error = await networkError { try await client.send(Request<Void>(path: "/start")) }
            guard case .redirectFailed(let failure)? = error, case .invalidLocation = failure.reason else {
                Issue.record("Location http://\(authority)/next: got \(String(describing: error))")
                continue
            }
            #expect(transport.requests.count == 1, "http://\(authority)/next was followed")
        }
    }

    @Test("a page link to a port out of range fails the next page with invalidURL, after the first page")
    func refusedPageLink() async throws {
        for authority in ["127.0.0.1:99999", "localhost:18446744073709551617", "[::1]:65536"] {
            let (client, transport) = makeClient { _ in
                .data(Data("[1]".utf8), headers: ["Link": "<http://\(authority)/items?page=2>; rel=\"next\""])
            }
            var pages = client.pages(following: Request<[Int]>(path: "/items")).makeAsyncIterator()
            _ = try await pages.next()
            let error = await networkError { _ = try await pages.next() }
            guard case .invalidURL? = error else {
                Issue.record("Link to \(authority): expected invalidURL, got \(String(describing: error))")
                continue
            }
            #expect(transport.requests.count == 1)
        }
    }

    @Test("URLSessionTransport refuses a request whose authority has no valid port, before handing it to Foundation")
    func transportRefuses() async throws {
        for authority in ["127.0.0.1:99999", "localhost:18446744073709551617", "[::1]:65536"] {
            let request = HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/")
            let context = RequestContext(options: RequestOptions(), requestID: "1", logger: .init(label: "test"))
            let error = await networkError { _ = try await URLSessionTransport.shared.send(request, body: nil, context: context) }
            guard case .invalidURL? = error else {
                Issue.record("\(authority): expected invalidURL, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test("a fuzz of ports: every number from 0 to 70,000 and beyond is refused or sent, as 1...65535 says")
    func portFuzz() {
        var generator = SystemRandomNumberGenerator()
        var ports = Array(0...10) + Array(65530...65540) + [99999, 4_294_967_297, Int.max]
        ports += (0..<500).map { _ in Int.random(in: 0...200_000, using: &generator) }
        for port in ports {
            let problem = URLAuthority.problem(inAuthority: "127.0.0.1:\(port)")
            #expect((problem == nil) == (1...65535).contains(port), "port \(port): \(problem ?? "accepted")")
            let v6 = URLAuthority.problem(inAuthority: "[::1]:\(port)")
            #expect((v6 == nil) == (1...65535).contains(port), "[::1]:\(port): \(v6 ?? "accepted")")
        }
    }
}
