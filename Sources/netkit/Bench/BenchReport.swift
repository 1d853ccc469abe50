#if DemoAPI
import Foundation

/// The table `netkit bench` prints for one transport: each scenario's throughput and latency,
/// and its throughput as a ratio to the first scenario's (the bare transport) from the same run.
struct BenchReport {
    let transport: String
    let summaries: [BenchSummary]

    var lines: [String] {
        guard let baseline = summaries.first else { return [] }
        let width = max(28, summaries.map(\.scenario.count).max() ?? 0)
        var lines = [transport]
        lines.append(
            "  " + "scenario".padding(width) + "req/s".leftPadding(9) + "p50 µs".leftPadding(10)
                + "p99 µs".leftPadding(10) + "vs raw".leftPadding(9))
        for summary in summaries {
            lines.append(
                "  " + summary.scenario.padding(width)
                    + String(format: "%.0f", summary.requestsPerSecond).leftPadding(9)
                    + String(format: "%.0f", summary.p50.seconds * 1e6).leftPadding(10)
                    + String(format: "%.0f", summary.p99.seconds * 1e6).leftPadding(10)
                    + String(format: "%.2f", summary.requestsPerSecond / baseline.requestsPerSecond).leftPadding(9))
        }
        return lines
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate func leftPadding(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
#endif
