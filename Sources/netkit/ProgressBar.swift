#if DemoAPI
import Foundation
@_spi(Transport) import NetworkingKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `netkit request`'s progress line on standard error: bytes, percentage, rate and time left,
/// redrawn in place; nothing at all when standard error is not a terminal (a pipe, a log file).
final class ProgressBar: Sendable {
    private struct State {
        var lastDrawn: ContinuousClock.Instant?
        var drewSomething = false
    }

    private let label: String
    private let start = ContinuousClock.now
    private let state = LockedState(State())

    init(label: String) {
        self.label = label
    }

    /// A progress bar when standard error is a terminal, otherwise `nil`.
    static func forTerminal(label: String) -> ProgressBar? {
        isatty(STDERR_FILENO) == 1 ? ProgressBar(label: label) : nil
    }

    var handler: ProgressHandler {
        { [self] progress in self.draw(progress) }
    }

    private func draw(_ progress: TransferProgress) {
        let now = ContinuousClock.now
        let shouldDraw = state.withLock { state -> Bool in
            // At most ten redraws a second, and always the last one.
            if let last = state.lastDrawn, now - last < .milliseconds(100), !progress.isFinished { return false }
            state.lastDrawn = now
            state.drewSomething = true
            return true
        }
        guard shouldDraw else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + Self.line(label, progress, elapsed: now - start)).utf8))
        if progress.isFinished { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// `download  12.5 MiB of 100.0 MiB  12%  31.2 MiB/s  3 s left`.
    static func line(_ label: String, _ progress: TransferProgress, elapsed: Duration) -> String {
        let seconds = max(elapsed.timeInterval, 0.001)
        let rate = Double(progress.completed) / seconds
        var text = "\(label)  \(size(progress.completed))"
        if let total = progress.total, let fraction = progress.fraction {
            text += " of \(size(total))  \(Int(fraction * 100))%"
            if rate > 0, progress.completed < total {
                text += "  \(size(Int64(rate)))/s  \(Int((Double(total - progress.completed) / rate).rounded(.up))) s left"
                return text
            }
        }
        return text + "  \(size(Int64(rate)))/s"
    }

    static func size(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}

extension Duration {
    fileprivate var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
#endif
