#if DemoAPI
import Foundation
import NetworkingKit

/// `netkit bench --hedging N`: N sequential GETs of DemoAPI's `/faults/stall`, where the first of
/// every 90 requests stalls for a second, without hedging, with a fixed delay and with the
/// observed 95th percentile: the latency percentiles and the requests the server received.
///
/// One in 90 (1.1 %), not one in 100: with exactly 1 % of stalls, the 99th percentile is the
/// last fast answer, hedged or not, and the comparison would say nothing.
@available(macOS 14, iOS 17, tvOS 17, *)
struct BenchHedging {
    let baseURL: URL
    let transport: any HTTPTransport
    let requests: Int

    struct Row {
        let name: String
        let latencies: [Duration]
        let sent: Int

        func percentile(_ fraction: Double) -> Duration {
            let sorted = latencies.sorted()
            return sorted[max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)]
        }
    }

    private struct Stall: Decodable, Sendable {
        let attempts: Int
    }

    /// `GET /stats`, read with the client's default snake-case keys.
    private struct Stats: Decodable, Sendable {
        let faultAttempts: [String: Int]
    }

    func measure() async throws -> [Row] {
        let modes: [(String, HedgingPolicy?)] = [
            ("no hedging", nil),
            ("hedged after 50 ms", HedgingPolicy(delay: .fixed(.milliseconds(50)))),
            ("hedged at the observed p95", HedgingPolicy(delay: .percentile(0.95, fallback: .milliseconds(50)))),
        ]
        let run = UUID().uuidString.prefix(8)
        var rows: [Row] = []
        for (index, (name, policy)) in modes.enumerated() {
            let client = LiveAPIClient(
                configuration: LiveAPIClient.Configuration(
                    baseURL: baseURL, transport: transport, middlewares: policy == nil ? [] : [HedgingMiddleware()]))
            var options = RequestOptions()
            options.hedging = policy
            let key = "bench-\(run)-\(index)"
            let request = Request<Stall>(
                path: "/faults/stall",
                query: [
                    URLQueryItem(name: "every", value: "90"), URLQueryItem(name: "ms", value: "1000"),
                    URLQueryItem(name: "key", value: key),
                ], options: options)
            var latencies: [Duration] = []
            latencies.reserveCapacity(requests)
            let clock = ContinuousClock()
            for _ in 0..<requests {
                let start = clock.now
                _ = try await client.send(request)
                latencies.append(start.duration(to: clock.now))
            }
            // Copies cancelled on the client may still be on their way to the server's count.
            try await Task.sleep(for: .milliseconds(200))
            let stats = try await client.send(Request<Stats>(path: "/stats"))
            rows.append(Row(name: name, latencies: latencies, sent: stats.faultAttempts[key] ?? 0))
        }
        return rows
    }
}
#endif
