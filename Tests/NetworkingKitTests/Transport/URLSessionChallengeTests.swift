import Foundation
import Testing

@_spi(Transport) @testable import NetworkingKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's answer to URLSession's authentication challenges (certificate pinning, a private
/// root, client certificates, HTTP authentication), driven by hand as URLSession would.
@Suite("URLSession transport: authentication challenges")
struct URLSessionChallengeTests {
    final class Sender: NSObject, URLAuthenticationChallengeSender {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
        func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
        func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
    }

    final class Answer: Sendable {
        private let value = LockedState<(URLSession.AuthChallengeDisposition, URLCredential?)?>(nil)
        var disposition: URLSession.AuthChallengeDisposition? { value.withLock { $0?.0 } }
        var credential: URLCredential? { value.withLock { $0?.1 } }
        func set(_ disposition: URLSession.AuthChallengeDisposition, _ credential: URLCredential?) {
            value.withLock { $0 = (disposition, credential) }
        }
    }

    private func challenge(host: String) -> URLAuthenticationChallenge {
        URLAuthenticationChallenge(
            protectionSpace: URLProtectionSpace(
                host: host, port: 443, protocol: "https", realm: "films", authenticationMethod: NSURLAuthenticationMethodHTTPBasic),
            proposedCredential: nil, previousFailureCount: 0, failureResponse: nil, error: nil, sender: Sender())
    }

    @Test("the app's handler answers each challenge; without one, URLSession's default handling applies (on Apple platforms)")
    func handlerAnswers() {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "https://films.example/")!)
        let seen = LockedState<[String]>([])
        let delegate = URLSessionTransportDelegate { challenge in
            seen.withLock { $0.append(challenge.protectionSpace.host) }
            guard challenge.protectionSpace.host == "films.example" else { return (.cancelAuthenticationChallenge, nil) }
            return (.useCredential, URLCredential(user: "woody", password: "andy", persistence: .none))
        }
        let answer = Answer()
        delegate.urlSession(session, task: task, didReceive: challenge(host: "films.example")) { answer.set($0, $1) }
        #expect(answer.disposition == .useCredential)
        #expect(answer.credential?.user == "woody")
        delegate.urlSession(session, task: task, didReceive: challenge(host: "elsewhere.example")) { answer.set($0, $1) }
        #expect(answer.disposition == .cancelAuthenticationChallenge)
        #expect(seen.withLock { $0 } == ["films.example", "elsewhere.example"])

        let plain = URLSessionTransportDelegate()
        plain.urlSession(session, task: task, didReceive: challenge(host: "films.example")) { answer.set($0, $1) }
        #if canImport(FoundationNetworking)
        // FoundationNetworking's default handling would hold the 401 until the timeout: the
        // transport ends the task with the 401 as its answer instead.
        #expect(answer.disposition == .cancelAuthenticationChallenge)
        #else
        #expect(answer.disposition == .performDefaultHandling)
        #endif
        #expect(answer.credential == nil)
        // The transport takes the handler as a URLSession delegate would be given it.
        _ = URLSessionTransport(challengeHandler: { _ in (.performDefaultHandling, nil) })
    }
}
