/// The recent answer times of each endpoint, for ``HedgingPolicy/Delay/percentile(_:fallback:)``:
/// the last ``capacity`` per key, in a ring, for at most ``maximumKeys`` keys.
final class LatencyWindows: Sendable {
    static let capacity = 128
    static let minimumSamples = 20
    static let maximumKeys = 1_000

    private struct Ring {
        var samples: [Duration] = []
        var next = 0

        mutating func add(_ sample: Duration) {
            if samples.count < LatencyWindows.capacity {
                samples.append(sample)
            } else {
                samples[next] = sample
            }
            next = (next + 1) % LatencyWindows.capacity
        }
    }

    private let rings = LockedState<[String: Ring]>([:])

    func record(_ latency: Duration, key: String) {
        rings.withLock { rings in
            guard rings[key] != nil || rings.count < Self.maximumKeys else { return }
            rings[key, default: Ring()].add(latency)
        }
    }

    /// The `percentile` (0 to 1) of `key`'s recent times, or `nil` with fewer than
    /// ``minimumSamples``.
    func percentile(_ percentile: Double, key: String) -> Duration? {
        let samples = rings.withLock { $0[key]?.samples } ?? []
        guard samples.count >= Self.minimumSamples else { return nil }
        let sorted = samples.sorted()
        let rank = Int((min(max(percentile.isFinite ? percentile : 0.95, 0), 1) * Double(sorted.count - 1)).rounded(.up))
        return sorted[rank]
    }
}
