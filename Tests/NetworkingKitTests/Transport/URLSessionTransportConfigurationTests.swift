import Foundation
import NetworkingKit
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession transport's own settings; its behaviour on the wire is in the integration
/// tests' conformance suite, shared with every transport.
@Suite("URLSession transport configuration")
struct URLSessionTransportConfigurationTests {
    @Test("the default session configuration has no URLCache")
    func noURLCache() {
        let configuration = URLSessionTransport.defaultSessionConfiguration()
        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test("the default session configuration leaves cookies to the app, as every transport does")
    func noCookieHandling() {
        let configuration = URLSessionTransport.defaultSessionConfiguration()
        #expect(configuration.httpShouldSetCookies == false)
        #expect(configuration.httpCookieAcceptPolicy == .never)
        #expect(configuration.httpCookieStorage == nil)
    }
}
