#if DemoAPI
import Hummingbird

/// Reading query and path values with DemoAPI's rules: a value that is present but wrong is a 400
/// with a message naming it, never silently ignored.
@available(macOS 14, iOS 17, tvOS 17, *)
extension Request {
    /// The percent-decoded query value for `name`, if present.
    func query(_ name: String) -> String? {
        uri.queryParameters.get(name)
    }

    /// The integer query value for `name`, `nil` when absent; 400 when not an integer within `range`.
    func queryInt(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let raw = query(name) else { return nil }
        guard let value = Int(raw), range.contains(value) else {
            throw APIError.badRequest("Query parameter '\(name)' must be an integer between \(range.lowerBound) and \(range.upperBound).")
        }
        return value
    }
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension DemoRequestContext {
    /// The integer path parameter `name`; 400 when it is not an integer within `range`.
    func pathInt(_ name: String, in range: ClosedRange<Int>) throws -> Int {
        let raw = parameters.get(name) ?? ""
        guard let value = Int(raw), range.contains(value) else {
            throw APIError.badRequest(
                "Path parameter '\(name)' must be an integer between \(range.lowerBound) and \(range.upperBound), not '\(raw)'.")
        }
        return value
    }
}
#endif
