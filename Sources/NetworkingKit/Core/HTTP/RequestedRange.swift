import Foundation

/// A request's `Range` when it asks for one range of bytes (RFC 9110 §14.1.2): `bytes=0-499`,
/// `bytes=500-`, or the last 500 bytes, `bytes=-500`. Several ranges, another unit or a malformed
/// value are not read (`nil`), and the request is left to the origin.
struct RequestedRange: Equatable {
    private enum Bounds: Equatable {
        /// From `first` to `last`, or to the end.
        case from(Int64, to: Int64?)
        /// The last `count` bytes.
        case suffix(Int64)
    }

    private let bounds: Bounds

    init?(_ value: String) {
        let text = value.trimmingHTTPWhitespace()
        guard text.utf8.count > 6, text.prefix(6).lowercased() == "bytes=" else { return nil }
        let spec = text.dropFirst(6).trimmingHTTPWhitespace()
        let halves = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        if halves[0].isEmpty {
            guard let count = ContentRange.number(halves[1]), count > 0 else { return nil }
            bounds = .suffix(count)
        } else if halves[1].isEmpty {
            guard let first = ContentRange.number(halves[0]) else { return nil }
            bounds = .from(first, to: nil)
        } else {
            guard let first = ContentRange.number(halves[0]), let last = ContentRange.number(halves[1]), first <= last
            else { return nil }
            bounds = .from(first, to: last)
        }
    }

    /// The positions this range selects in a representation of `length` bytes, `nil` when it
    /// selects none (unsatisfiable, §14.1.1): a last position past the end means the end.
    func positions(in length: Int64) -> ClosedRange<Int64>? {
        switch bounds {
        case .suffix(let count):
            guard length > 0 else { return nil }
            return max(0, length - count)...(length - 1)
        case .from(let first, let last):
            guard first < length else { return nil }
            return first...min(last ?? (length - 1), length - 1)
        }
    }
}
