/// Where a call's operation name comes from, worked out only when something asks: metrics
/// dimensions, span names and log metadata (``RequestContext/operationName``).
enum OperationName: Sendable {
    /// A typed ``Request`` without a name of its own.
    case none
    /// ``RequestOptions/operationName``, set by the endpoint or the request.
    case explicit(String)
    /// An endpoint without an explicit name: its case name when it is an enum.
    case endpoint(any Sendable)

    init(options: RequestOptions, endpoint: (any Sendable)?) {
        if let name = options.operationName {
            self = .explicit(name)
        } else if let endpoint {
            self = .endpoint(endpoint)
        } else {
            self = .none
        }
    }

    var name: String? {
        switch self {
        case .none: nil
        case .explicit(let name): name
        case .endpoint(let endpoint): Self.caseName(of: endpoint)
        }
    }

    /// `filmDetail` for `PixarAPIEndpoint.filmDetail(id: "up")`, `films` for `.films`; `nil` for an
    /// endpoint that is not an enum (a struct has no name to offer but its type's).
    static func caseName(of endpoint: any Sendable) -> String? {
        let mirror = Mirror(reflecting: endpoint)
        guard mirror.displayStyle == .enum else { return nil }
        // A case with associated values shows them as one child named after the case.
        if let label = mirror.children.first?.label { return label }
        return String(describing: endpoint)
    }
}

private enum OperationNameKey: RequestOptionKey {
    static let defaultValue: String? = nil
}

extension RequestOptions {
    /// The name of the operation, as in an OpenAPI document's `operationId`
    /// (`"getFilmDetail"`): a metrics dimension (`operation`), the span's name, and log
    /// metadata. `nil` (the default) names an endpoint enum's calls after their case
    /// (`filmDetail`) and leaves a typed ``Request``'s unnamed.
    public var operationName: String? {
        get { self[OperationNameKey.self] }
        set { self[OperationNameKey.self] = newValue }
    }
}
