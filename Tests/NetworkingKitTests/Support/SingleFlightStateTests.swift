import NetworkingKit
import Testing

/// The single-flight state under de-duplication and token refresh, driven transition by
/// transition with no task: every point at which a caller can be cancelled (before it is stored,
/// while it waits, after the shared work finished, as the last one left) has its own test.
/// Waiters are plain strings here; the real owners store continuations.
@Suite("SingleFlightState")
struct SingleFlightStateTests {
    private typealias Flight = SingleFlightState<String, Int>

    private func isCancelled(_ action: Flight.JoinAction) -> Bool {
        guard case .resume(.failure(let error)) = action, case .cancelled? = error as? NetworkError else { return false }
        return true
    }

    @Test("waiters joined while it runs all get the result once, in no particular order")
    func joinThenFinish() {
        var flight = Flight()
        guard case .wait = flight.join(1, "a", isCancelled: false), case .wait = flight.join(2, "b", isCancelled: false) else {
            Issue.record("a running flight keeps its waiters")
            return
        }
        #expect(flight.waiterCount == 2)
        #expect(flight.finish(.success(7)).sorted() == ["a", "b"])
        #expect(flight.waiterCount == 0)
        // Finished once: a second finish hands nobody back.
        #expect(flight.finish(.success(8)).isEmpty)
    }

    @Test("cancelled before it is stored: resumed at once with cancelled, never stored")
    func cancelledBeforeJoining() {
        var flight = Flight()
        #expect(isCancelled(flight.join(1, "a", isCancelled: true)))
        #expect(flight.waiterCount == 0)
        // Its cancellation handler, running before or after, finds nothing to resume.
        #expect(flight.leave(1).waiter == nil)
        #expect(flight.finish(.success(7)).isEmpty)
    }

    @Test("cancelled while waiting: handed back once to be resumed cancelled; the others still get the result")
    func cancelledWhileWaiting() {
        var flight = Flight()
        _ = flight.join(1, "a", isCancelled: false)
        _ = flight.join(2, "b", isCancelled: false)
        let left = flight.leave(1)
        #expect(left.waiter == "a")
        #expect(left.nobodyLeft == false)
        #expect(flight.leave(1).waiter == nil)
        #expect(flight.finish(.success(7)) == ["b"])
    }

    @Test("the last waiter leaving says nobody is left, so the owner can cancel the shared work")
    func lastWaiterLeaves() {
        var flight = Flight()
        _ = flight.join(1, "a", isCancelled: false)
        let left = flight.leave(1)
        #expect(left.waiter == "a")
        #expect(left.nobodyLeft)
        #expect(flight.finish(.success(7)).isEmpty)
    }

    @Test("cancelled after the shared work finished: nothing to resume twice; a late joiner gets the result at once")
    func cancelledAfterFinishing() {
        var flight = Flight()
        _ = flight.join(1, "a", isCancelled: false)
        #expect(flight.finish(.failure(NetworkError.timeout(nil))) == ["a"])
        let left = flight.leave(1)
        #expect(left.waiter == nil)
        #expect(left.nobodyLeft == false)
        guard case .resume(.failure(let error)) = flight.join(2, "b", isCancelled: false) else {
            Issue.record("a finished flight answers a late joiner at once")
            return
        }
        guard case .timeout? = error as? NetworkError else {
            Issue.record("expected the shared timeout, got \(error)")
            return
        }
        // Even a cancelled late joiner gets the result that exists, not a cancellation.
        guard case .resume(.failure) = flight.join(3, "c", isCancelled: true) else {
            Issue.record("a finished flight answers with its result")
            return
        }
    }
}
