import Foundation
import Testing

@testable import NetworkingKit

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

    @Test(
        "URLSession's own timeout is never under the request's, nor rounded down to nothing where FoundationNetworking keeps whole seconds")
    func subSecondTimeouts() {
        for (timeout, seconds) in [(Duration.milliseconds(1), 1.0), (.milliseconds(500), 1), (.milliseconds(1500), 2), (.seconds(3), 3)] {
            let interval = URLSessionTransport.idleTimeoutInterval(for: timeout)
            #expect(interval >= timeout.timeInterval)
            #if canImport(FoundationNetworking)
            #expect(interval == seconds, "\(timeout)")
            #expect(Int(interval) * 1000 >= Int(timeout.timeInterval * 1000))
            #endif
        }
    }
}
