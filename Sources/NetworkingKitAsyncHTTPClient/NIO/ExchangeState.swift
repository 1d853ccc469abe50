#if AsyncHTTPClientTransport || DemoAPI
/// The life of one request on one connection, as a value with no I/O: waiting for its head, then
/// for its body's end, then over (well or not), once. ``HTTP1Exchange`` keeps it behind its lock
/// and carries out what each step returns: whom to wake, which timer to disarm, which upload to
/// stop. Tests drive it directly.
struct ExchangeState<HeadWaiter, Ticket, Upload> {
    enum Phase: Equatable {
        /// Sent or being sent; no answer yet.
        case waitingForHead
        /// The head has arrived; the body is coming.
        case receivingBody
        /// Over: read to its end, or failed.
        case ended(succeeded: Bool)
    }

    private(set) var phase = Phase.waitingForHead
    /// `send`, waiting for the head.
    private var headWaiter: HeadWaiter?
    /// The request's timer.
    private var deadline: Ticket?
    /// The timer ends with the head (a streamed answer's body may take as long as it lasts).
    let deadlineEndsWithHead: Bool
    /// The task sending a streamed request body.
    private var upload: Upload?
    /// The first failure, kept for a waiter that comes after it.
    private(set) var failure: (any Error)?

    init(deadlineEndsWithHead: Bool) {
        self.deadlineEndsWithHead = deadlineEndsWithHead
    }

    /// What to do with what was handed over when the exchange had already ended.
    struct Refused {
        let failure: any Error
    }

    /// `send` waits for the head; refused (with the failure) when the exchange already failed.
    mutating func waitForHead(_ waiter: HeadWaiter) -> Refused? {
        if case .ended = phase { return Refused(failure: failure ?? CancellationError()) }
        headWaiter = waiter
        return nil
    }

    /// The request's timer is armed; handed back when it is not needed (over, or past its head).
    mutating func armed(_ ticket: Ticket) -> Ticket? {
        switch phase {
        case .waitingForHead: break
        case .receivingBody where !deadlineEndsWithHead: break
        default: return ticket
        }
        deadline = ticket
        return nil
    }

    /// The upload task started; handed back (to cancel) when the exchange is already over.
    mutating func uploading(_ task: Upload) -> Upload? {
        if case .ended = phase { return task }
        upload = task
        return nil
    }

    /// What the head found waiting: the waiter, and the timer when it ends with the head.
    mutating func headArrived() -> (waiter: HeadWaiter?, endedDeadline: Ticket?) {
        guard phase == .waitingForHead else { return (nil, nil) }
        phase = .receivingBody
        defer {
            headWaiter = nil
            if deadlineEndsWithHead { deadline = nil }
        }
        return (headWaiter, deadlineEndsWithHead ? deadline : nil)
    }

    /// What ending found to wake and stop.
    struct Ending {
        /// `send`, still waiting for the head (it gets the failure).
        let headWaiter: HeadWaiter?
        let deadline: Ticket?
        /// The upload to stop: over either way once the answer has ended.
        let upload: Upload?
        /// Whether the head had arrived (a failure is then a cut body).
        let hadHead: Bool
    }

    /// The answer was read to its end.
    mutating func finished() -> Ending? {
        end(succeeded: true)
    }

    /// The request's timer fired: the exchange fails, unless it was a streamed answer's and its
    /// head has arrived (the watch may run the timer just after the head disarmed it).
    mutating func deadlinePassed(_ error: any Error) -> Ending? {
        if deadlineEndsWithHead, phase == .receivingBody { return nil }
        return failed(error)
    }

    /// The exchange failed with `error` (cut, cancelled, past its deadline, refused); `nil` once
    /// it had ended.
    mutating func failed(_ error: any Error) -> Ending? {
        guard let ending = end(succeeded: false) else { return nil }
        failure = error
        return ending
    }

    private mutating func end(succeeded: Bool) -> Ending? {
        let hadHead: Bool
        switch phase {
        case .ended: return nil
        case .waitingForHead: hadHead = false
        case .receivingBody: hadHead = true
        }
        phase = .ended(succeeded: succeeded)
        defer {
            headWaiter = nil
            deadline = nil
            upload = nil
        }
        return Ending(headWaiter: headWaiter, deadline: deadline, upload: upload, hadHead: hadHead)
    }
}
extension ExchangeState: Sendable where HeadWaiter: Sendable, Ticket: Sendable, Upload: Sendable {}
#endif
