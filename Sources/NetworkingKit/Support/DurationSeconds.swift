import Foundation

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval`.
    var timeInterval: TimeInterval {
        let components = components
        return Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
