/// Keys in order of last use, each with a cost, and the total cost: the bookkeeping both cache
/// storages share to evict the least recently used entry first.
///
/// A doubly linked list threaded through a dictionary, so that using, adding, removing and finding
/// the least recently used key are all O(1); a cache evicts on every store, and a scan for the
/// oldest entry would make a full cache quadratic.
struct RecencyList<Key: Hashable & Sendable>: Sendable {
    private struct Node {
        var cost: Int
        var newer: Key?
        var older: Key?
    }

    private var nodes: [Key: Node] = [:]
    private var newest: Key?
    private var oldest: Key?

    /// The sum of the costs of every key.
    private(set) var totalCost = 0

    /// How many keys there are.
    var count: Int { nodes.count }

    /// Every key, in no particular order.
    var keys: [Key] { Array(nodes.keys) }

    /// The key used longest ago, the first to evict.
    var leastRecentlyUsed: Key? { oldest }

    /// The cost recorded for `key`, or `nil` when it is not in the list.
    func cost(of key: Key) -> Int? {
        nodes[key]?.cost
    }

    /// Records `key` with `cost` as the most recently used, replacing its old cost.
    mutating func insert(_ key: Key, cost: Int) {
        remove(key)
        nodes[key] = Node(cost: cost, newer: nil, older: newest)
        if let newest { nodes[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        totalCost += cost
    }

    /// Changes the cost recorded for `key` without counting it as a use; does nothing when it is
    /// not in the list.
    mutating func updateCost(of key: Key, to cost: Int) {
        guard let old = nodes[key]?.cost else { return }
        nodes[key]?.cost = cost
        totalCost += cost - old
    }

    /// Marks `key` as the most recently used; does nothing when it is not in the list.
    mutating func touch(_ key: Key) {
        guard let cost = nodes[key]?.cost, newest != key else { return }
        insert(key, cost: cost)
    }

    /// Removes `key` and returns its cost, or `nil` when it was not in the list.
    @discardableResult
    mutating func remove(_ key: Key) -> Int? {
        guard let node = nodes.removeValue(forKey: key) else { return nil }
        if let newer = node.newer { nodes[newer]?.older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older]?.newer = node.newer } else { oldest = node.newer }
        totalCost -= node.cost
        return node.cost
    }

    /// Forgets every key.
    mutating func removeAll() {
        nodes = [:]
        newest = nil
        oldest = nil
        totalCost = 0
    }
}
