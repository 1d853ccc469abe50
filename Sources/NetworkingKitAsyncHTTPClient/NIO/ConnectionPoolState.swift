#if AsyncHTTPClientTransport || DemoAPI
/// The bookkeeping of one origin's connections, as a value with no I/O: which are idle, how many
/// are open or opening against the limit, and who waits for one. ``NIOConnectionPool`` keeps one
/// per origin behind its lock and carries out what each step returns; tests drive it directly.
struct ConnectionPoolState<Connection: AnyObject, Waiter> {
    /// What a caller asking for a connection gets.
    enum Lease {
        /// An idle connection, most recently used first (the one most likely still open).
        case use(Connection)
        /// Room for one more: open it (then ``connected(_:)`` or ``connectFailed()``).
        case connect
        /// The limit is reached: wait until ``released(_:)`` or ``closed(_:)`` grants one.
        case wait
    }

    /// What a waiter is granted.
    enum Grant {
        case use(Connection)
        case connect
    }

    /// The most connections open or opening at once.
    let limit: Int
    /// Idle connections, the most recently released last.
    private(set) var idle: [Connection] = []
    /// Every open connection, idle or in use.
    private(set) var members: Set<ObjectIdentifier> = []
    /// Connections being opened.
    private(set) var connecting = 0
    /// Callers waiting for a connection, in the order they came.
    private(set) var waiters: [(id: UInt64, waiter: Waiter)] = []

    init(limit: Int) {
        precondition(limit > 0, "a pool needs room for one connection")
        self.limit = limit
    }

    /// Connections open or opening.
    var count: Int { members.count + connecting }

    /// A connection for a caller that does not wait: `nil` when it would have to. An idle one
    /// that `isPreferred` accepts (on the caller's event loop) is taken first.
    mutating func lease(preferring isPreferred: (Connection) -> Bool = { _ in true }) -> Lease? {
        if let index = idle.lastIndex(where: isPreferred) { return .use(idle.remove(at: index)) }
        if let connection = idle.popLast() { return .use(connection) }
        guard count < limit else { return nil }
        connecting += 1
        return .connect
    }

    /// A connection, or a place in the queue for `waiter` (known by `id`) when there is none.
    mutating func lease(waiter: Waiter, id: UInt64, preferring isPreferred: (Connection) -> Bool = { _ in true }) -> Lease {
        if let lease = lease(preferring: isPreferred) { return lease }
        waiters.append((id, waiter))
        return .wait
    }

    /// A caller gave up waiting: its waiter, when it was still waiting.
    mutating func cancelWait(id: UInt64) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).waiter
    }

    /// A connection this pool let a caller open is open (and in that caller's use).
    mutating func connected(_ connection: Connection) {
        connecting -= 1
        members.insert(ObjectIdentifier(connection))
    }

    /// Opening a connection failed: its room goes to the first waiter, if any.
    mutating func connectFailed() -> (Waiter, Grant)? {
        connecting -= 1
        return grantRoom()
    }

    /// What became of a released connection.
    enum Release {
        /// Kept idle for the next caller.
        case kept
        /// Handed to the first waiter.
        case handedOver(Waiter, Connection)
        /// It had closed meanwhile: not kept.
        case gone
    }

    /// A connection in use is free again: handed to the first waiter, or kept idle.
    mutating func released(_ connection: Connection) -> Release {
        guard members.contains(ObjectIdentifier(connection)) else { return .gone }
        guard !waiters.isEmpty else {
            idle.append(connection)
            return .kept
        }
        return .handedOver(waiters.removeFirst().waiter, connection)
    }

    /// A connection closed (idle or in use): its room goes to the first waiter, if any.
    mutating func closed(_ connection: Connection) -> (Waiter, Grant)? {
        let id = ObjectIdentifier(connection)
        guard members.remove(id) != nil else { return nil }
        idle.removeAll { ObjectIdentifier($0) == id }
        return grantRoom()
    }

    /// Everything, for a pool that shuts down: the idle connections to close and the waiters to fail.
    mutating func shutDown() -> (idle: [Connection], waiters: [Waiter]) {
        defer {
            idle = []
            waiters = []
        }
        return (idle, waiters.map(\.waiter))
    }

    private mutating func grantRoom() -> (Waiter, Grant)? {
        guard !waiters.isEmpty, count < limit else { return nil }
        connecting += 1
        return (waiters.removeFirst().waiter, .connect)
    }
}
extension ConnectionPoolState: Sendable where Connection: Sendable, Waiter: Sendable {}
extension ConnectionPoolState.Grant: Sendable where Connection: Sendable {}
#endif
