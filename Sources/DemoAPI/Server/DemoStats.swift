#if DemoAPI
import Foundation

/// Request counters of one ``DemoServer``, so tests can assert how many requests a client really
/// sent (retries, cache hits, token refreshes) instead of trusting the client's own account.
///
/// Every server has its own instance; nothing is shared between servers. The same numbers are served
/// as JSON by `GET /stats` and cleared by `DELETE /stats`; requests to `/stats` itself and requests
/// that match no route are not counted.
public final class DemoStats: Sendable {
    /// A copy of all counters at one moment; also the JSON body of `GET /stats` (snake_case keys).
    public struct Snapshot: Codable, Sendable, Equatable {
        /// Requests per route, keyed `"METHOD /pattern"` in Hummingbird's spelling, e.g. `"GET /films/{id}"`.
        public var requests: [String: Int]
        /// Requests per route that carried `If-None-Match` or `If-Modified-Since`.
        public var conditional: [String: Int]
        /// Responses answered `304 Not Modified`.
        public var notModified: Int
        /// Calls to `POST /auth/login`, successful or not (so a client logging in twice shows up).
        public var logins: Int
        /// Calls to `POST /auth/refresh`, successful or not (so duplicate refreshes show up even when
        /// the second one is refused because the token was already rotated).
        public var refreshes: Int
        /// All counted requests: the sum of ``requests``.
        public var total: Int
        /// Requests seen per `key` of `/faults/status/{code}`, including those answered with the fault,
        /// and per `cache/<key>` of `/cache/{key}`.
        public var faultAttempts: [String: Int]

        /// Creates a snapshot; every counter defaults to zero.
        public init(
            requests: [String: Int] = [:],
            conditional: [String: Int] = [:],
            notModified: Int = 0,
            logins: Int = 0,
            refreshes: Int = 0,
            total: Int = 0,
            faultAttempts: [String: Int] = [:]
        ) {
            self.requests = requests
            self.conditional = conditional
            self.notModified = notModified
            self.logins = logins
            self.refreshes = refreshes
            self.total = total
            self.faultAttempts = faultAttempts
        }

        // snake_case on the wire like every other DemoAPI body; the keys live here so that decoding
        // with a plain `JSONDecoder` gives the same value back.
        private enum CodingKeys: String, CodingKey {
            case requests
            case conditional
            case notModified = "not_modified"
            case logins
            case refreshes
            case total
            case faultAttempts = "fault_attempts"
        }
    }

    private let counters = Locked(Snapshot())
    /// The `Last-Event-ID` of each `/events` request, in order of arrival.
    private let eventIDs = Locked<[String]>([])
    /// Tasks waiting in ``waitForRequests(_:count:)``, each for a route to reach a count.
    private let waiters = Locked<[Waiter]>([])

    private struct Waiter {
        let id: UUID
        let route: String
        let count: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    init() {}

    /// Returns once `route` has been requested at least `count` times (counted at arrival, before
    /// the route answers): how a test knows a request reached the server, with no sleep or poll.
    ///
    /// Throws `CancellationError` when the waiting task is cancelled, so a test's time limit ends a
    /// wait for a request that never comes.
    public func waitForRequests(_ route: String, count: Int = 1) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // The count is read under the waiters' lock, which `recordRequest` also takes after
                // counting: a request either is counted here or finds this waiter.
                let ready = waiters.withLock { waiters in
                    if self.count(route) >= count { return true }
                    waiters.append(Waiter(id: id, route: route, count: count, continuation: continuation))
                    return false
                }
                if ready {
                    continuation.resume()
                } else if Task.isCancelled {
                    cancelWaiter(id)
                }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    private func cancelWaiter(_ id: UUID) {
        let waiter = waiters.withLock { waiters -> Waiter? in
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: CancellationError())
    }

    /// Requests counted for `route`, e.g. `count("GET /films/{id}")`; 0 for a route never hit.
    public func count(_ route: String) -> Int {
        counters.withLock { $0.requests[route, default: 0] }
    }

    /// Requests on `route` that carried `If-None-Match` or `If-Modified-Since`.
    public func conditionalCount(_ route: String) -> Int {
        counters.withLock { $0.conditional[route, default: 0] }
    }

    /// All counters at this moment.
    public var snapshot: Snapshot {
        counters.withLock { $0 }
    }

    /// The `Last-Event-ID` each `/events` request carried, in order of arrival (`""` for none):
    /// what a reconnecting client really told the server.
    public var lastEventIDs: [String] {
        eventIDs.withLock { $0 }
    }

    /// Clears every counter, including the attempts of `/faults/status` keys, so a key can be reused.
    public func reset() {
        counters.withLock { $0 = Snapshot() }
        eventIDs.withLock { $0 = [] }
    }

    // MARK: Recording (the server's side)

    func recordLastEventID(_ id: String?) {
        eventIDs.withLock { $0.append(id ?? "") }
    }

    func recordRequest(route: String, conditional: Bool) {
        let count = counters.withLock { counters in
            counters.requests[route, default: 0] += 1
            counters.total += 1
            if conditional {
                counters.conditional[route, default: 0] += 1
            }
            return counters.requests[route, default: 0]
        }
        let ready = waiters.withLock { waiters -> [Waiter] in
            let ready = waiters.filter { $0.route == route && $0.count <= count }
            waiters.removeAll { $0.route == route && $0.count <= count }
            return ready
        }
        ready.forEach { $0.continuation.resume() }
    }

    func recordNotModified() {
        counters.withLock { $0.notModified += 1 }
    }

    func recordLogin() {
        counters.withLock { $0.logins += 1 }
    }

    func recordRefresh() {
        counters.withLock { $0.refreshes += 1 }
    }

    /// The most distinct fault keys kept until a reset, so clients cannot grow the table without bound.
    static let maxFaultKeys = 10_000

    /// Counts one more request for a fault key and returns the new number of attempts, atomically, so
    /// concurrent requests on one key each see a distinct attempt number; `nil` when the key is new
    /// and ``maxFaultKeys`` are already in use.
    func recordFaultAttempt(key: String) -> Int? {
        counters.withLock { counters in
            guard counters.faultAttempts[key] != nil || counters.faultAttempts.count < Self.maxFaultKeys else {
                return nil
            }
            counters.faultAttempts[key, default: 0] += 1
            return counters.faultAttempts[key, default: 0]
        }
    }
}
#endif
