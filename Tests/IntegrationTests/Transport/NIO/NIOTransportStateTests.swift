import Foundation
import NIOCore
@_spi(Transport) import NetworkingKit
import Testing

@testable import NetworkingKitAsyncHTTPClient

/// The NIO transport's decisions as values, without a socket or a task: the pool of one origin,
/// the life of one exchange, which pins a host gets and when a request may go again.
@Suite("NIO transport: its state machines as values")
struct NIOTransportStateTests {
    final class Connection {}
    typealias Pool = ConnectionPoolState<Connection, String>

    @Test("an idle connection is reused, the most recent first; past the limit a caller waits")
    func poolLeases() {
        var pool = Pool(limit: 2)
        guard case .connect? = pool.lease(), case .connect? = pool.lease() else {
            Issue.record("expected room for two connections")
            return
        }
        #expect(pool.lease() == nil)
        #expect(pool.count == 2)
        let first = Connection()
        let second = Connection()
        pool.connected(first)
        pool.connected(second)
        guard case .wait = pool.lease(waiter: "w1", id: 1) else {
            Issue.record("expected to wait")
            return
        }
        // Released: straight to the waiter, not kept.
        guard case .handedOver("w1", let handed) = pool.released(first) else {
            Issue.record("expected the waiter to get it")
            return
        }
        #expect(handed === first)
        guard case .kept = pool.released(second), case .kept = pool.released(first) else {
            Issue.record("expected both kept")
            return
        }
        guard case .use(let reused)? = pool.lease() else {
            Issue.record("expected an idle connection")
            return
        }
        #expect(reused === first)
    }

    @Test("an idle connection the caller prefers (on its event loop) goes first; without one, any idle connection does")
    func poolPrefersTheCallersConnection() {
        var pool = Pool(limit: 3)
        let (mine, other, recent) = (Connection(), Connection(), Connection())
        for connection in [mine, other, recent] {
            guard case .connect? = pool.lease() else {
                Issue.record("expected room")
                return
            }
            pool.connected(connection)
        }
        for connection in [mine, other, recent] { _ = pool.released(connection) }
        guard case .use(let preferred)? = pool.lease(preferring: { $0 === mine }) else {
            Issue.record("expected an idle connection")
            return
        }
        #expect(preferred === mine)
        guard case .use(let fallback)? = pool.lease(preferring: { $0 === mine }) else {
            Issue.record("expected an idle connection")
            return
        }
        #expect(fallback === recent, "the most recently released when none is preferred")
    }

    @Test("a closed connection frees its room for the first waiter; a failed connect too")
    func poolClosures() {
        var pool = Pool(limit: 1)
        _ = pool.lease()
        let connection = Connection()
        pool.connected(connection)
        _ = pool.lease(waiter: "w1", id: 1)
        _ = pool.lease(waiter: "w2", id: 2)
        guard case ("w1", .connect)? = pool.closed(connection) else {
            Issue.record("expected w1 to connect")
            return
        }
        // Closing twice (the server, then the pool) counts once.
        #expect(pool.closed(connection) == nil)
        guard case ("w2", .connect)? = pool.connectFailed() else {
            Issue.record("expected w2 to connect")
            return
        }
        #expect(pool.count == 1)
        // A connection released after it closed is not kept.
        guard case .gone = pool.released(connection) else {
            Issue.record("expected a closed connection to be dropped")
            return
        }
        #expect(pool.idle.isEmpty)
    }

    @Test("a waiter that gives up leaves the queue; shutting down hands back idle connections and waiters")
    func poolCancelAndShutDown() {
        var pool = Pool(limit: 1)
        _ = pool.lease()
        let connection = Connection()
        pool.connected(connection)
        _ = pool.lease(waiter: "w1", id: 1)
        _ = pool.lease(waiter: "w2", id: 2)
        #expect(pool.cancelWait(id: 1) == "w1")
        #expect(pool.cancelWait(id: 1) == nil)
        guard case .handedOver("w2", _) = pool.released(connection) else {
            Issue.record("expected w2 to get it")
            return
        }
        _ = pool.lease(waiter: "w3", id: 3)
        let (idle, waiters) = pool.shutDown()
        #expect(idle.isEmpty)
        #expect(waiters == ["w3"])
    }

    typealias Exchange = ExchangeState<String, Int, String>

    @Test("an exchange ends once: the head wakes its waiter, the end or a failure the rest")
    func exchangeLife() {
        var exchange = Exchange(deadlineEndsWithHead: false)
        #expect(exchange.waitForHead("send") == nil)
        #expect(exchange.armed(7) == nil)
        #expect(exchange.uploading("upload") == nil)
        let head = exchange.headArrived()
        #expect(head.waiter == "send")
        #expect(head.endedDeadline == nil)  // the timer bounds the body too
        let ending = exchange.finished()
        #expect(ending?.deadline == 7)
        #expect(ending?.upload == "upload")
        #expect(ending?.hadHead == true)
        #expect(exchange.failed(CancellationError()) == nil)
        #expect(exchange.phase == .ended(succeeded: true))
    }

    @Test("a streamed answer's timer ends with its head; a failure before the head reaches the waiter")
    func exchangeStreamedAndFailed() {
        var streamed = Exchange(deadlineEndsWithHead: true)
        _ = streamed.waitForHead("send")
        _ = streamed.armed(1)
        #expect(streamed.headArrived().endedDeadline == 1)
        #expect(streamed.armed(2) == 2)  // past the head: not kept
        // The timer, run just after the head disarmed it, spares the body.
        #expect(streamed.deadlinePassed(CancellationError()) == nil)
        #expect(streamed.phase == .receivingBody)

        var failed = Exchange(deadlineEndsWithHead: false)
        _ = failed.waitForHead("send")
        let ending = failed.failed(ChannelError.eof)
        #expect(ending?.headWaiter == "send")
        #expect(ending?.hadHead == false)
        // Late comers are turned away with the failure.
        #expect(failed.waitForHead("late")?.failure is ChannelError)
        #expect(failed.uploading("late upload") == "late upload")
        #expect(failed.armed(3) == 3)
    }

    @Test("a request goes again on a new connection only when that is safe")
    func resendRules() {
        let replayable = HTTPBody(Data("{}".utf8))
        let oneShot = HTTPBody(AsyncStream<Data> { $0.finish() }, length: .unknown, iterationBehavior: .single)
        // Nothing was written: any method.
        #expect(NIOTransport.mayResend(after: ChannelError.ioOnClosedChannel, method: .post, body: replayable))
        // Closed before an answer: it may have been received, so idempotent methods only.
        #expect(NIOTransport.mayResend(after: ChannelError.eof, method: .get, body: nil))
        #expect(!NIOTransport.mayResend(after: ChannelError.eof, method: .post, body: replayable))
        #expect(NIOTransport.mayResend(after: IOError(errnoCode: ECONNRESET, reason: "read"), method: .get, body: nil))
        #expect(!NIOTransport.mayResend(after: IOError(errnoCode: ECONNREFUSED, reason: "connect"), method: .get, body: nil))
        // A one-shot body cannot be sent twice.
        #expect(!NIOTransport.mayResend(after: ChannelError.ioOnClosedChannel, method: .put, body: oneShot))
        #expect(!NIOTransport.mayResend(after: CancellationError(), method: .get, body: nil))
    }
}
