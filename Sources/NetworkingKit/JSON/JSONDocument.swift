/// A scanned document: its bytes and its tape, shared by every decoder and container made for it.
///
/// The bytes are the caller's, borrowed while `decode` runs; if a decoder or container outlives
/// that call (an `init(from:)` kept one), ``keepBytes()`` copies them first, as `JSONDecoder` does.
final class JSONDocument {
    let tape: JSONTape
    let byteCount: Int
    /// What changes after the document is made, behind one pointer so that reading it costs no
    /// exclusivity check: where the bytes are (the caller's, or the copy ``keepBytes()`` made),
    /// and whether a `superDecoder` shares the document (the bytes are then kept after `decode`).
    private let state: UnsafeMutablePointer<State>

    private struct State {
        var bytes: UnsafePointer<UInt8>
        var owned: UnsafeMutablePointer<UInt8>?
        var shared = false
    }

    init(tape: JSONTape, bytes: UnsafePointer<UInt8>, count: Int) {
        self.tape = tape
        self.byteCount = count
        state = .allocate(capacity: 1)
        state.initialize(to: State(bytes: bytes, owned: nil))
    }

    deinit {
        tape.deallocate()
        state.pointee.owned?.deallocate()
        state.deallocate()
    }

    @inline(__always)
    var bytes: UnsafePointer<UInt8> { state.pointee.bytes }

    /// Whether a `superDecoder` shares the document.
    var shared: Bool {
        get { state.pointee.shared }
        set { state.pointee.shared = newValue }
    }

    func keepBytes() {
        guard state.pointee.owned == nil else { return }
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(byteCount, 1))
        copy.initialize(from: bytes, count: byteCount)
        state.pointee.owned = copy
        state.pointee.bytes = UnsafePointer(copy)
    }

    @inline(__always)
    func kind(_ index: Int) -> JSONTape.Kind {
        // Index -1 is the null `superDecoder(forKey:)` decodes from when the key is absent.
        index < 0 ? .null : tape.kind(at: index)
    }

    /// The string at `index` (a key or a value).
    func string(_ index: Int) throws(JSONSyntaxError) -> String {
        try JSONScalars.string(bytes, offset: tape.second(at: index), length: tape.payload(at: index), kind: tape.kind(at: index))
    }

    /// The raw bytes of a string or number at `index`.
    @inline(__always)
    func raw(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + tape.second(at: index), count: tape.payload(at: index))
    }

    /// What `JSONDecoder` calls a value in a type mismatch: "Expected to decode Int but found a string instead."
    func describe(_ index: Int) -> String {
        let kind = kind(index)
        if kind.isString { return "a string" }
        if kind.isNumber { return "number" }
        if kind == .true || kind == .false { return "bool" }
        if kind == .null { return "null" }
        return kind == .object ? "a dictionary" : "an array"
    }
}
