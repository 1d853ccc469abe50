import Foundation
import NetworkingKit
import Testing

/// The policy's arithmetic and rules, without any request.
@Suite("Retry policy")
struct RetryPolicyTests {
    @Test("exponential delays without jitter: 0.5, 1, 2 s, then capped")
    func exactDelays() {
        let policy = RetryPolicy(baseDelay: .milliseconds(500), multiplier: 2, maxDelay: .seconds(3), jitter: .none)
        #expect(
            (1...5).map { policy.backoff(forRetry: $0) } == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(3),
            ])
        #expect(policy.delay(forRetry: 2, previous: .zero, random: { 0.3 }) == .seconds(1))
    }

    @Test("presets: default, aggressive and none")
    func presets() {
        #expect(RetryPolicy.default.maxAttempts == 3)
        #expect(RetryPolicy.default.baseDelay == .milliseconds(500))
        #expect(RetryPolicy.default.jitter == .full)
        #expect(RetryPolicy.aggressive.maxAttempts == 5)
        #expect(RetryPolicy.aggressive.baseDelay == .milliseconds(250))
        #expect(RetryPolicy.disabled.maxAttempts == 1)
    }

    @Test("full jitter spans 0 to the delay; equal jitter its upper half")
    func jitterBounds() {
        var policy = RetryPolicy(baseDelay: .seconds(1), jitter: .full)
        #expect(policy.delay(forRetry: 2, previous: .zero, random: { 0 }) == .zero)
        #expect(policy.delay(forRetry: 2, previous: .zero, random: { 0.5 }) == .seconds(1))
        #expect(policy.delay(forRetry: 2, previous: .zero, random: { 1 }) == .seconds(2))
        policy.jitter = .equal
        #expect(policy.delay(forRetry: 2, previous: .zero, random: { 0 }) == .seconds(1))
        #expect(policy.delay(forRetry: 2, previous: .zero, random: { 1 }) == .seconds(2))
        for value in stride(from: 0.0, to: 1.0, by: 0.1) {
            let delay = policy.delay(forRetry: 3, previous: .zero, random: { value })
            #expect(delay >= .seconds(2) && delay <= .seconds(4))
        }
    }

    @Test("decorrelated jitter stays between the base and three times the previous delay, capped")
    func decorrelated() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .decorrelated)
        #expect(policy.delay(forRetry: 2, previous: .seconds(2), random: { 0 }) == .seconds(1))
        #expect(policy.delay(forRetry: 2, previous: .seconds(2), random: { 1 }) == .seconds(6))
        #expect(policy.delay(forRetry: 5, previous: .seconds(8), random: { 1 }) == .seconds(10))
    }

    @Test("idempotent methods may be retried; POST only with an Idempotency-Key or an opt-in")
    func methodRules() throws {
        let policy = RetryPolicy.default
        let url = try #require(URL(string: "https://api.example.com/x"))
        for method: HTTPRequest.Method in [.get, .head, .put, .delete, .options, .trace] {
            #expect(policy.allowsRetry(of: HTTPRequest(method: method, url: url), options: .default))
        }
        #expect(!policy.allowsRetry(of: HTTPRequest(method: .post, url: url), options: .default))
        #expect(!policy.allowsRetry(of: HTTPRequest(method: .patch, url: url), options: .default))
        var keyed = HTTPRequest(method: .post, url: url)
        keyed.headerFields[HTTPField.Name("Idempotency-Key")!] = "order-42"
        #expect(policy.allowsRetry(of: keyed, options: .default))
        var options = RequestOptions()
        options.isIdempotent = true
        #expect(policy.allowsRetry(of: HTTPRequest(method: .post, url: url), options: options))
        #expect(!RetryPolicy.disabled.allowsRetry(of: HTTPRequest(method: .get, url: url), options: .default))
    }
}
