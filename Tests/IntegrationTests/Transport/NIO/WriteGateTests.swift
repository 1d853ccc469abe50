@_spi(Transport) import NetworkingKit
import Testing
@testable import NetworkingKitAsyncHTTPClient

/// A WebSocket connection's close frame after the writes begun before it, and no write after it.
@Suite("WebSocket: the write gate")
struct WriteGateTests {
    @Test("closing waits for the writes in progress; no write begins once it is closed")
    func closeWaitsForWrites() async {
        let gate = WriteGate()
        let events = LockedState<[String]>([])
        #expect(gate.enter())
        #expect(gate.enter())
        let closed = Task {
            await gate.closeAndWait()
            events.withLock { $0.append("closed") }
        }
        // Closed to new writes at once, whether or not the closer has run yet: wait until it has.
        while gate.enter() {
            gate.leave()
            await Task.yield()
        }
        gate.leave()
        #expect(events.withLock { $0 }.isEmpty)
        events.withLock { $0.append("last write ended") }
        gate.leave()
        await closed.value
        #expect(events.withLock { $0 } == ["last write ended", "closed"])
    }

    @Test("closing with no write in progress returns at once")
    func closeWhenIdle() async {
        let gate = WriteGate()
        #expect(gate.enter())
        gate.leave()
        await gate.closeAndWait()
        #expect(!gate.enter())
    }
}
