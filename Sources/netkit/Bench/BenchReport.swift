#if DemoAPI
import Foundation

/// The table `netkit bench` prints for one transport: each scenario's throughput, latency and CPU
/// time per request, as they are and as ratios to the first scenario's (the raw library) from the
/// same run. Both ratios read the same way: 1.00 is the raw library's cost, below is dearer.
struct BenchReport {
    let transport: String
    let summaries: [BenchSummary]

    var lines: [String] {
        guard let baseline = summaries.first else { return [] }
        let width = max(28, summaries.map(\.scenario.count).max() ?? 0)
        var lines = [transport]
        lines.append(
            "  " + "scenario".padding(width) + "req/s".leftPadding(9) + "p50 µs".leftPadding(10)
                + "p99 µs".leftPadding(10) + "vs raw".leftPadding(9)
                + "CPU µs".leftPadding(9) + "CPU vs raw".leftPadding(12))
        for summary in summaries {
            lines.append(
                "  " + summary.scenario.padding(width)
                    + String(format: "%.0f", summary.requestsPerSecond).leftPadding(9)
                    + String(format: "%.0f", summary.p50.seconds * 1e6).leftPadding(10)
                    + String(format: "%.0f", summary.p99.seconds * 1e6).leftPadding(10)
                    + String(format: "%.2f", summary.requestsPerSecond / baseline.requestsPerSecond).leftPadding(9)
                    + String(format: "%.1f", summary.cpuPerRequest.seconds * 1e6).leftPadding(9)
                    + String(format: "%.2f", baseline.cpuPerRequest.seconds / summary.cpuPerRequest.seconds).leftPadding(12))
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
