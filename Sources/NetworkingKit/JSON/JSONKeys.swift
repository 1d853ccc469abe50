import Foundation

/// A step of a coding path: a key, or an array position (kept as an `Int` until a path is asked
/// for, so that stepping into an array element costs no existential).
enum JSONPathStep {
    case key(any CodingKey)
    case index(Int)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): key
        case .index(let index): JSONPathKey(index: index)
        }
    }
}

/// The keys this decoder puts in coding paths itself, the same as `JSONDecoder`'s: array
/// positions read "Index 3" with an `intValue` of 3; `super` and dictionary keys are strings.
struct JSONPathKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    static let `super` = JSONPathKey(stringValue: "super")
}

/// How a key in the document is compared with a key a type asks for, under a key strategy.
enum JSONKeyMatching {
    /// `JSONDecoder`'s conversion, for the keys the byte comparison below does not cover.
    static func convertFromSnakeCase(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        var last = key.index(before: key.endIndex)
        while last > first && key[last] == "_" { key.formIndex(before: &last) }
        let leading = key[key.startIndex..<first]
        let trailing = key[key.index(after: last)...]
        let words = key[first...last].split(separator: "_")
        let joined: String
        if words.count == 1 {
            joined = String(key[first...last])
        } else {
            joined = ([words[0].lowercased()] + words[1...].map { $0.capitalized }).joined()
        }
        return leading + joined + trailing
    }

    /// Whether the document's key converts from snake case to exactly `target`, compared byte by
    /// byte; `nil` when the key has a character whose case conversion is not plain ASCII (then
    /// the caller converts with ``convertFromSnakeCase(_:)``).
    ///
    /// The conversion of an ASCII word: the first word lowercased, each later one capitalized (a
    /// letter is upper case at the start or after a digit, lower case after a letter), underscores
    /// between words removed, leading and trailing underscores kept.
    static func snakeCaseMatches(
        _ key: UnsafeBufferPointer<UInt8>, _ target: UnsafeBufferPointer<UInt8>
    ) -> Bool? {
        let count = key.count
        // Most keys have no underscore: then they are compared as they are.
        var underscore = false
        for byte in key where byte == UInt8(ascii: "_") {
            underscore = true
            break
        }
        if !underscore { return equal(key, target) }
        var first = 0
        while first < count && key[first] == UInt8(ascii: "_") { first &+= 1 }
        if first == count { return equal(key, target) }
        var last = count &- 1
        while last > first && key[last] == UInt8(ascii: "_") { last &-= 1 }
        var inner = false
        for index in first...last where key[index] == UInt8(ascii: "_") {
            inner = true
            break
        }
        if !inner { return equal(key, target) }

        var out = 0
        @inline(__always) func emit(_ byte: UInt8) -> Bool {
            guard out < target.count, target[out] == byte else { return false }
            out &+= 1
            return true
        }
        for _ in 0..<first where !emit(UInt8(ascii: "_")) { return false }
        var word = 0
        var position = 0
        var previous: UInt8 = 0
        for index in first...last {
            let byte = key[index]
            if byte == UInt8(ascii: "_") {
                if position > 0 { word &+= 1 }
                position = 0
                continue
            }
            let lower = byte | 0x20
            let isLetter = lower &- UInt8(ascii: "a") < 26
            let isDigit = byte &- UInt8(ascii: "0") < 10
            guard isLetter || isDigit else { return nil }
            var converted = byte
            if isLetter {
                let upper = word > 0 && (position == 0 || previous &- UInt8(ascii: "0") < 10)
                converted = upper ? lower & ~0x20 : lower
            }
            guard emit(converted) else { return false }
            previous = byte
            position &+= 1
        }
        for _ in (last &+ 1)..<count where !emit(UInt8(ascii: "_")) { return false }
        return out == target.count
    }

    /// Byte equality; a loop rather than `memcmp` for the short keys most documents have.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        if count > 32 { return memcmp(a.baseAddress!, b.baseAddress!, count) == 0 }
        var index = 0
        while index < count {
            if a[index] != b[index] { return false }
            index &+= 1
        }
        return true
    }
}
