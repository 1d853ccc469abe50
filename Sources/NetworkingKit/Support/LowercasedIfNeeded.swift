extension String {
    /// `lowercased()`, without its Unicode work and its new string for text with nothing to lower:
    /// no ASCII capital and nothing beyond ASCII, as schemes, hosts and field names usually are.
    var lowercasedIfNeeded: String {
        utf8.contains { $0 >= UInt8(ascii: "A") && ($0 <= UInt8(ascii: "Z") || $0 >= 0x80) } ? lowercased() : self
    }
}
