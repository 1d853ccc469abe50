public import Foundation
@_spi(Transport) import NetworkingKit

/// A wall clock that moves only when a test says so: the "now" that ``/NetworkingKit/HTTPCache``,
/// ``/NetworkingKit/TokenRefresher`` and ``/NetworkingKit/AuthManager`` take as a closure, so that freshness, expiry and
/// refresh windows are exact in tests. ``ImmediateClock`` does the same for waits.
public final class ManualDate: Sendable {
    /// The instant a new one starts at unless told otherwise: 14 November 2023, 22:13:20 UTC.
    public static let defaultStart = Date(timeIntervalSince1970: 1_700_000_000)

    private let current: LockedState<Date>

    /// Creates a clock standing at `start`.
    public init(_ start: Date = ManualDate.defaultStart) {
        current = LockedState(start)
    }

    /// The clock's current instant.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative value) by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as the `now` closure the library's types take.
    public var source: @Sendable () -> Date { { self.now } }
}
