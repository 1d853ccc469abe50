/// The result of a pure computation for the most recent input, kept so that the next call with
/// the same input skips the work.
///
/// Made for values that nearly every call repeats: the `Authorization` field of the current token,
/// the cache partition of the current credentials. One entry, not a table: a new input replaces
/// the old one, so nothing grows, and a secret is kept no longer than the next one to arrive.
/// Copies share the entry, as ``LockedState``'s copies share their value.
struct LastResult<Input: Equatable & Sendable, Output: Sendable>: Sendable {
    private let last = LockedState<(input: Input, output: Output)?>(nil)

    init() {}

    /// The output for `input`: the one kept when `input` equals the last input, otherwise
    /// `compute(input)`, which is then kept. `compute` runs outside the lock; two callers with a
    /// new input may both run it, and either result is kept.
    func value(for input: Input, compute: (Input) throws -> Output) rethrows -> Output {
        if let kept = last.withLock({ $0 }), kept.input == input { return kept.output }
        let output = try compute(input)
        last.withLock { $0 = (input, output) }
        return output
    }
}
