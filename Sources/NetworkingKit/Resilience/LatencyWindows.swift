/// The recent answer times of each endpoint, for ``HedgingPolicy/Delay/percentile(_:fallback:)``:
/// the last ``capacity`` per key, in a ring, for at most ``maximumKeys`` keys (past them, the key
/// with the fewest samples makes room for a new one).
final class LatencyWindows: Sendable {
    static let capacity = 128
    static let minimumSamples = 20
    static let maximumKeys = 1_000

    private struct Ring {
        var samples: [Duration] = []
        var next = 0
        /// Every sample ever added: the keys least used make room first.
        var total = 0

        mutating func add(_ sample: Duration) {
            if samples.count < LatencyWindows.capacity {
                samples.append(sample)
            } else {
                samples[next] = sample
            }
            next = (next + 1) % LatencyWindows.capacity
            total += 1
        }
    }

    private let rings = LockedState<[String: Ring]>([:])

    func record(_ latency: Duration, key: String) {
        rings.withLock { rings in
            if rings[key] == nil, rings.count >= Self.maximumKeys, let least = rings.min(by: { $0.value.total < $1.value.total })?.key {
                rings[least] = nil
            }
            rings[key, default: Ring()].add(latency)
        }
    }

    /// The `percentile` (0 to 1) of `key`'s recent times, or `nil` with fewer than
    /// ``minimumSamples``.
    func percentile(_ percentile: Double, key: String) -> Duration? {
        let samples = rings.withLock { $0[key]?.samples } ?? []
        guard samples.count >= Self.minimumSamples else { return nil }
        let sorted = samples.sorted()
        // Nearest rank: the smallest sample at least `percentile` of them do not exceed.
        let fraction = min(max(percentile.isFinite ? percentile : 0.95, 0), 1)
        let rank = max(1, Int((fraction * Double(sorted.count)).rounded(.up)))
        return sorted[rank - 1]
    }
}
