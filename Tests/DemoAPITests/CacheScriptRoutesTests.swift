import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DemoAPI

@Suite("Scripted answers for cache tests")
struct CacheScriptRoutesTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func answersWithTheAskedStatusAndFieldsAndCountsPerKey() async throws {
        try await withDemoRouter { client, state in
            let uri =
                "/cache/k?status=203&h=Cache-Control:max-age%3D60&h=Set-Cookie:a%3Db&h=Expires:Thu,%2018%20%20Aug%20%202050%2002:01:18%20GMT"
            for attempt in 1...2 {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status.code == 203)
                    #expect(response.headers[.cacheControl] == "max-age=60")
                    #expect(response.headers[.setCookie] == "a=b")
                    // Verbatim, double spaces included.
                    #expect(response.headers[.expires] == "Thu, 18  Aug  2050 02:01:18 GMT")
                    #expect(response.text == "k #\(attempt)")
                }
            }
            try await client.execute(uri: "/cache/other?body=0123456789", method: .get, headers: [.range: "bytes=0-1"]) { response in
                // Ranges are never answered here: a 206 a client sees came from its cache.
                #expect(response.status == .ok)
                #expect(response.text == "0123456789")
            }
            #expect(state.stats.snapshot.faultAttempts == ["cache/k": 2, "cache/other": 1])
            try await client.execute(uri: "/cache/k?h=no-colon", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/cache/k?status=99", method: .get) { #expect($0.status == .badRequest) }
        }
    }
}
