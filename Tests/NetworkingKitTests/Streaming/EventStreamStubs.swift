import Foundation
import NetworkingKitTesting

@testable import NetworkingKit

/// What the event-stream suites answer with and read through.
enum EventStreamStubs {
    /// A `text/event-stream` answer of `text`; `cutShort` declares more than it sends, so the
    /// connection breaks (`truncatedBody`) after the text.
    static func eventStream(_ text: String, cutShort: Bool = false) -> StubResponse {
        let data = Data(text.utf8)
        if cutShort {
            return .truncated(data, declaredLength: data.count + 100, headers: ["Content-Type": "text/event-stream"])
        }
        return StubResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], body: HTTPBody(data))
    }

    /// Options whose waits are on `clock` and whose jitter takes nothing off.
    static func options(_ clock: ImmediateClock) -> EventStreamOptions {
        var options = EventStreamOptions()
        options.clock = clock
        options.random = { 1 }
        return options
    }
}
