extension String {
    /// `lowercased()`, without its Unicode work and its new string for text with nothing to lower:
    /// no ASCII capital and nothing beyond ASCII, as schemes, hosts and field names usually are.
    var lowercasedIfNeeded: String {
        // Read as a buffer: walking a small string's UTF-8 view takes tens of instructions a byte.
        var text = self
        let lowers = text.withUTF8 { bytes in
            bytes.contains { $0 >= UInt8(ascii: "A") && ($0 <= UInt8(ascii: "Z") || $0 >= 0x80) }
        }
        return lowers ? lowercased() : self
    }
}
