/// The structure of a JSON document, found in one pass over its bytes: two words per value, in
/// document order, pointing back into the bytes rather than holding copies of them.
///
/// A value's first word is its ``Kind`` in the low four bits and, above them, its length in bytes
/// (strings without their quotes, numbers) or the tape index just past its last member
/// (containers, so that skipping one is a jump). The second word is the value's byte offset
/// (scalars) or its member count (containers). An object's members are a key (a string) followed
/// by its value.
///
/// What the scan accepts and rejects is exactly what Foundation's `JSONDecoder` accepts and
/// rejects before it decodes anything, quirks included (trailing commas, numbers and string
/// contents checked only when a value is read); what is checked at reading time is checked by
/// the readers, in the same order.
///
/// A copy shares the words: ``JSONDocument`` frees them once.
struct JSONTape {
    /// What a tape entry is: a number in the entry's low four bits (a struct rather than an enum,
    /// so that reading one costs no conversion).
    struct Kind: Equatable {
        let rawValue: Int

        /// A string without escapes or control characters, all of its bytes ASCII.
        static let asciiString = Kind(rawValue: 0)
        /// A string without escapes or control characters, with bytes above 127 (UTF-8 to check).
        static let plainString = Kind(rawValue: 1)
        /// A string with escapes or control characters: read through the unescaper.
        static let escapedString = Kind(rawValue: 2)
        /// A number of digits, with a leading `-` at most.
        static let integer = Kind(rawValue: 3)
        /// A number with a fraction, an exponent or a stray sign.
        static let number = Kind(rawValue: 4)
        static let null = Kind(rawValue: 5)
        static let `true` = Kind(rawValue: 6)
        static let `false` = Kind(rawValue: 7)
        static let object = Kind(rawValue: 8)
        static let array = Kind(rawValue: 9)

        var isString: Bool { rawValue <= 2 }
        var isNumber: Bool { rawValue == 3 || rawValue == 4 }
    }

    /// Set in an object's member count when a key is not plain ASCII: its keys are then checked
    /// as `JSONDecoder` checks them, when a keyed container is made for it.
    static let unusualKeys = 1 &<< 62
    static let countMask = unusualKeys &- 1

    private(set) var words: UnsafeMutablePointer<Int>
    private(set) var count = 0
    private var capacity: Int

    init(capacityFor byteCount: Int) {
        // A value takes at least two bytes in most documents (`1,`): a quarter of the byte count
        // in entries avoids most regrowth without reserving much for long strings.
        capacity = max(16, (byteCount / 4) & ~1)
        words = .allocate(capacity: capacity)
    }

    /// Frees the words: the tape is a view that ``JSONDocument`` (or a failed scan) owns.
    func deallocate() { words.deallocate() }

    @inline(__always)
    func kind(at index: Int) -> Kind {
        Kind(rawValue: words[index] & 0xF)
    }

    /// A scalar's length in bytes, or a container's end (the tape index after its last member).
    @inline(__always)
    func payload(at index: Int) -> Int { words[index] &>> 4 }

    /// A scalar's byte offset, or a container's member count.
    @inline(__always)
    func second(at index: Int) -> Int { words[index &+ 1] }

    /// The tape index after the value at `index`.
    @inline(__always)
    func next(after index: Int) -> Int {
        let word = words[index]
        return word & 0xF >= Kind.object.rawValue ? word &>> 4 : index &+ 2
    }

    @inline(__always)
    mutating func append(_ kind: Kind, payload: Int, second: Int) {
        if count &+ 2 > capacity { grow() }
        words[count] = kind.rawValue | payload &<< 4
        words[count &+ 1] = second
        count &+= 2
    }

    /// Sets a container's end and count once its members are on the tape.
    @inline(__always)
    mutating func close(_ index: Int, _ kind: Kind, count members: Int) {
        words[index] = kind.rawValue | self.count &<< 4
        words[index &+ 1] = members
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Int>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: words, count: count)
        words.deallocate()
        words = larger
        capacity *= 2
    }
}
