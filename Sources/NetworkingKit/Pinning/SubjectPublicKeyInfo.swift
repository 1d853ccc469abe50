/// Finds a certificate's SubjectPublicKeyInfo in its DER bytes: what a public-key pin is the
/// SHA-256 of (RFC 7469 §2.4), read the same way whichever TLS stack handed the certificate over.
///
/// A walk over the first fields of RFC 5280's `TBSCertificate` (version, serial number,
/// signature, issuer, validity, subject), each checked to lie within its parent, so that
/// malformed bytes give `nil`, never a read past the end.
enum SubjectPublicKeyInfo {
    /// The whole `SubjectPublicKeyInfo` element (tag and length included) of `certificate`, or
    /// `nil` when the bytes are not a DER certificate.
    static func bytes(inCertificate certificate: [UInt8]) -> ArraySlice<UInt8>? {
        guard let outer = element(in: certificate, at: 0, before: certificate.count), outer.tag == sequence,
            let tbs = element(in: certificate, at: outer.content.lowerBound, before: outer.content.upperBound),
            tbs.tag == sequence
        else { return nil }
        let end = tbs.content.upperBound
        guard var field = element(in: certificate, at: tbs.content.lowerBound, before: end) else { return nil }
        // `[0] EXPLICIT Version`, absent from version 1 certificates.
        if field.tag == 0xA0 {
            guard let next = element(in: certificate, at: field.end, before: end) else { return nil }
            field = next
        }
        // serialNumber INTEGER, then signature, issuer, validity and subject, each a SEQUENCE.
        for expected in [integer, sequence, sequence, sequence, sequence] {
            guard field.tag == expected, let next = element(in: certificate, at: field.end, before: end) else {
                return nil
            }
            field = next
        }
        guard field.tag == sequence else { return nil }
        return certificate[field.start..<field.end]
    }

    private static let sequence: UInt8 = 0x30
    private static let integer: UInt8 = 0x02

    /// One DER element: where it starts, its tag, its content and where it ends.
    private struct Element {
        let start: Int
        let tag: UInt8
        let content: Range<Int>
        var end: Int { content.upperBound }
    }

    /// The element at `index`, which must end by `limit`; definite lengths of up to three bytes
    /// only (a certificate is far smaller than 16 MiB), so that a length always fits a 32-bit
    /// `Int` (watchOS) and is never negative.
    private static func element(in bytes: [UInt8], at index: Int, before limit: Int) -> Element? {
        guard index >= 0, index + 2 <= limit, limit <= bytes.count else { return nil }
        let tag = bytes[index]
        let first = Int(bytes[index + 1])
        var length = first
        var contentStart = index + 2
        if first >= 0x80 {
            let count = first & 0x7F
            // 0x80 is BER's indefinite length, which DER forbids.
            guard (1...3).contains(count), count <= limit - contentStart else { return nil }
            length = 0
            for offset in 0..<count { length = length << 8 | Int(bytes[contentStart + offset]) }
            contentStart += count
        }
        guard length >= 0, length <= limit - contentStart else { return nil }
        return Element(start: index, tag: tag, content: contentStart..<(contentStart + length))
    }
}
