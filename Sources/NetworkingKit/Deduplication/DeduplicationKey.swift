import HTTPTypes

/// What two requests must have in common to share one network call: everything that can change
/// the answer.
///
/// - The method: only GET and HEAD are ever merged, and never with each other.
/// - The URL: scheme and host compared without case (as URLs define them), path and query exactly.
/// - Every header field sent, by lowercased name and exact value, except the ones the
///   deduplicator was told to ignore (ids that differ on every call, such as `traceparent`).
///   Headers are kept rather than picked from a list of "headers that vary the answer" because a
///   list would miss an app's own credential header (`X-API-Key`) and merge two users' calls.
///   Fields are ordered by name, keeping the order of repeated fields, which is significant.
/// - The call's plan, which changes the outcome below this middleware: timeout, response size
///   limit and redirect policy. Other options come from the request that starts the call.
///
/// ## Why credentials are kept in clear
///
/// The key holds header values as they were sent, `Authorization` and `Cookie` included, not a
/// hash of them. Only an exact comparison guarantees that two different credentials are never
/// merged: a collision of an in-process hash (`Hasher` gives 64 bits) would hand one user's answer
/// to another, and SHA-256 is not available without another dependency. Keeping them adds no
/// exposure: the key lives only while the call is in flight, and for that time the request it was
/// made from (held by the call and by each waiter) holds the very same values. The key is never
/// logged, and its `description` and mirror leave the header values out.
struct DeduplicationKey: Hashable, Sendable {
    /// The hash of everything below, worked out once: the table of calls in flight hashes a key
    /// up to four times per call, and every header field each time.
    private let digest: Int
    /// A header field, by its lowercased name.
    struct Field: Hashable, Sendable {
        let name: String
        let value: String
    }

    let method: HTTPRequest.Method
    let scheme: String?
    let authority: String?
    let path: String?
    let fields: [Field]
    let plan: CallPlan

    /// The key of a request, or `nil` when the request must never share a call:
    /// - its method is not GET or HEAD (the others are not safe: each call must reach the server);
    /// - it has a body (the body's meaning in a GET is undefined, and a stream can be read once);
    /// - its endpoint opted out with ``RequestOptions/allowsDeduplication``;
    /// - it asks for a fresh answer with `Cache-Control: no-cache`, `no-store` or `max-age=0`, or
    ///   `Pragma: no-cache`: a call that started before it may be answered before it was made.
    init?(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, ignoring ignoredHeaders: Set<HTTPField.Name>) {
        guard request.method == .get || request.method == .head, body == nil, context.options.allowsDeduplication else {
            return nil
        }
        var fields: [Field] = []
        fields.reserveCapacity(request.headerFields.count)
        var inOrder = true
        for field in request.headerFields {
            if Self.asksForFreshAnswer(field) { return nil }
            guard !ignoredHeaders.contains(field.name) else { continue }
            let kept = Field(name: field.name.canonicalName, value: field.value)
            if let previous = fields.last, previous.name > kept.name { inOrder = false }
            fields.append(kept)
        }
        // Sorted by name, then by position, so the order of different names does not matter and
        // the order of repeated names does. Fields often come in order already: no sort then.
        if !inOrder {
            fields = fields.enumerated()
                .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
                .map(\.element)
        }

        self.method = request.method
        self.scheme = request.scheme?.lowercasedIfNeeded
        self.authority = request.authority?.lowercasedIfNeeded
        self.path = request.path
        self.fields = fields
        self.plan = context.plan
        var hasher = Hasher()
        hasher.combine(method)
        hasher.combine(scheme)
        hasher.combine(authority)
        hasher.combine(path)
        hasher.combine(self.fields)
        hasher.combine(plan)
        self.digest = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    /// Whether a field is a request directive that forbids answering from anything but a call of
    /// this request's own.
    private static func asksForFreshAnswer(_ field: HTTPField) -> Bool {
        switch field.name.canonicalName {
        case "cache-control":
            let directives = CacheControl(line: field.value)
            return directives.noCache || directives.noStore || directives.seconds("max-age") == .valid(0)
        case "pragma":
            return CacheControl.pragmaAsksNoCache(field.value)
        default:
            return false
        }
    }
}

extension DeduplicationKey: CustomStringConvertible, CustomReflectable {
    /// `GET https://api.example.com/v1/films (3 header fields)`: no header values, which may be
    /// credentials.
    var description: String {
        "\(method) \(scheme ?? "")://\(authority ?? "")\(path ?? "") (\(fields.count) header fields)"
    }

    /// Without children, so that `dump` cannot print header values either.
    var customMirror: Mirror {
        Mirror(self, children: [], displayStyle: .struct)
    }
}
