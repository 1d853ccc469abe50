extension String {
    /// `lowercased()`, without its Unicode work and its new string for text with nothing to lower:
    /// no ASCII capital and nothing beyond ASCII, as schemes, hosts and field names usually are.
    var lowercasedIfNeeded: String {
        // A loop over the bytes: `contains(where:)` calls its closure per byte.
        for byte in utf8 where byte >= UInt8(ascii: "A") && (byte <= UInt8(ascii: "Z") || byte >= 0x80) {
            return lowercased()
        }
        return self
    }

}
