import Foundation
import Logging
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// How cancelling callers of a shared call affects the others and the call itself.
@Suite("RequestDeduplicator: cancellation", .timeLimit(.minutes(5)))
struct DeduplicationCancellationTests {
    private let films = Request<Data>(path: "/films")
    private let answer = Data("Toy Story".utf8)

    /// A client whose transport holds each call at `gate` and records whether a call saw
    /// cancellation there.
    private func makeHeldClient(
        _ deduplicator: RequestDeduplicator,
        gate: TransportGate,
        sawCancellation: LockedState<Bool>
    ) -> (LiveAPIClient, StubTransport) {
        makeClient(middlewares: [deduplicator]) { _ in
            await gate.wait()
            if Task.isCancelled {
                sawCancellation.withLock { $0 = true }
                throw CancellationError()
            }
            return .text("Toy Story")
        }
    }

    @Test("a cancelled caller throws .cancelled at once; the others get the answer; the call goes on")
    func cancellingOneCallerLeavesTheCall() async throws {
        let gate = TransportGate()
        let sawCancellation = LockedState(false)
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeHeldClient(deduplicator, gate: gate, sawCancellation: sawCancellation)
        let starter = Task { [films] in try await client.send(films) }
        await waitUntil { gate.waitingCount == 1 }
        let joiners = (0..<2).map { _ in Task { [films] in try await client.send(films) } }
        await waitUntil { deduplicator.waiterCount == 3 }

        joiners[0].cancel()
        // The gate is still closed: this result can only come from leaving at once.
        #expect(endedCancelled(await joiners[0].result))
        #expect(deduplicator.waiterCount == 2)

        gate.open()
        #expect(try await starter.value == answer)
        #expect(try await joiners[1].value == answer)
        #expect(sawCancellation.withLock { $0 } == false)
        #expect(transport.requests.count == 1)
    }

    @Test("cancelling the caller that started the call cancels its request; the others send it again, once for all")
    func cancellingTheStarterStartsOver() async throws {
        let gate = TransportGate()
        let sawCancellation = LockedState(false)
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeHeldClient(deduplicator, gate: gate, sawCancellation: sawCancellation)
        let starter = Task { [films] in try await client.send(films) }
        await waitUntil { gate.waitingCount == 1 }
        let joiners = (0..<2).map { _ in Task { [films] in try await client.send(films) } }
        await waitUntil { deduplicator.waiterCount == 3 }

        starter.cancel()
        // The starter's request ran in its task and ends with it, the gate still closed.
        #expect(endedCancelled(await starter.result))
        #expect(sawCancellation.withLock { $0 } == true)
        // The joiners were not cancelled: one of them sends the request again, the other joins it.
        await waitUntil { gate.waitingCount == 1 && deduplicator.waiterCount == 2 }
        #expect(deduplicator.inFlightCount == 1)
        gate.open()
        for joiner in joiners { #expect(try await joiner.value == answer) }
        #expect(transport.requests.count == 2)
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test("when every caller is cancelled the transport call is cancelled, and the next request makes a new call")
    func cancellingEveryCallerCancelsTheCall() async throws {
        let gate = TransportGate()
        let sawCancellation = LockedState(false)
        let deduplicator = RequestDeduplicator()
        let (client, transport) = makeHeldClient(deduplicator, gate: gate, sawCancellation: sawCancellation)
        let callers = (0..<3).map { _ in Task { [films] in try await client.send(films) } }
        await waitUntil { deduplicator.waiterCount == 3 && gate.waitingCount == 1 }

        for caller in callers { caller.cancel() }
        for caller in callers { #expect(endedCancelled(await caller.result)) }
        // The gate was never opened: the transport call ended because it was cancelled.
        #expect(sawCancellation.withLock { $0 } == true)
        #expect(deduplicator.inFlightCount == 0)
        #expect(deduplicator.waiterCount == 0)

        gate.open()
        #expect(try await client.send(films) == answer)
        #expect(transport.requests.count == 2)
    }

    @Test("a caller already cancelled when it reaches the deduplicator starts no call")
    func cancelledBeforeJoining() async throws {
        let deduplicator = RequestDeduplicator()
        let calls = Counter()
        let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/films")
        let context = RequestContext(
            options: .default, requestID: "test", logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await deduplicator.intercept(request, body: nil, context: context) { _, _, _ in
                calls.increment()
                return HTTPAnswer(HTTPResponse(status: .ok))
            }
        }
        #expect(endedCancelled(await caller.result))
        #expect(calls.value == 0)
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test("the seed's deduplicate(key:operation:) cancels the operation when its last caller is cancelled")
    func seedStyleCancellation() async throws {
        let deduplicator = RequestDeduplicator()
        let sawCancellation = LockedState(false)
        let gate = TransportGate()
        let callers = (0..<2).map { _ in
            Task {
                try await deduplicator.deduplicate(key: "films") {
                    await gate.wait()
                    sawCancellation.withLock { $0 = Task.isCancelled }
                    try Task.checkCancellation()
                    return Data()
                }
            }
        }
        await waitUntil { deduplicator.waiterCount == 2 && gate.waitingCount == 1 }
        callers[0].cancel()
        #expect(endedCancelled(await callers[0].result))
        callers[1].cancel()
        #expect(endedCancelled(await callers[1].result))
        await waitUntil { sawCancellation.withLock { $0 } }
        #expect(deduplicator.inFlightCount == 0)
    }

    @Test("callers cancelled at any moment each end once, with the answer or .cancelled, and nothing is left behind")
    func cancellationRaces() async throws {
        let deduplicator = RequestDeduplicator()
        let (client, _) = makeClient(middlewares: [deduplicator]) { _ in
            await Task.yield()
            return .text("Toy Story")
        }
        for round in 0..<200 {
            let callers = (0..<4).map { _ in Task { [films] in try await client.send(films) } }
            // Cancel a different subset each round, racing joins, the call and its end.
            for (index, caller) in callers.enumerated() where (round >> index) & 1 == 1 {
                caller.cancel()
            }
            for caller in callers {
                let result = await caller.result
                if case .success(let data) = result {
                    #expect(data == answer)
                } else {
                    #expect(endedCancelled(result))
                }
            }
        }
        #expect(deduplicator.inFlightCount == 0)
        #expect(deduplicator.waiterCount == 0)
    }
}
