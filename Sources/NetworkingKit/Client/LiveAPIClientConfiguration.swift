public import Foundation
public import Logging

extension LiveAPIClient {
    /// Everything a ``LiveAPIClient`` is made of.
    public struct Configuration: Sendable {
        /// The base URL that endpoints and requests are relative to.
        public var baseURL: URL?
        /// Moves the bytes; ``URLSessionTransport/shared`` by default.
        public var transport: any HTTPTransport
        /// The middleware chain, outermost first.
        public var middlewares: [any Middleware]
        /// Encodes JSON bodies; see ``defaultEncoder()``.
        public var encoder: JSONEncoder
        /// Decodes answers and error bodies: ``defaultDecoder()``, a `JSONDecoder` you configure,
        /// or any ``ResponseDecoder``.
        public var decoder: any ResponseDecoder
        /// Headers sent with every request; an endpoint's header of the same name wins.
        public var defaultHeaders: [String: String]
        /// How long the transport may wait for the server, unless an endpoint says otherwise.
        public var timeout: Duration
        /// The longest a whole call may take (every retry, token refresh and wait included), unless an
        /// endpoint says otherwise; `nil` for no limit beyond ``timeout`` per attempt.
        public var callTimeout: Duration?
        /// The clock ``callTimeout`` is measured on: `ContinuousClock` unless a test injects its own
        /// (a manual clock that it moves, so that a call times out without waiting).
        public var clock: any Clock<Duration> = ContinuousClock()
        /// The largest response body accepted, unless an endpoint says otherwise; larger bodies fail
        /// with ``NetworkError/responseTooLarge(limit:request:)`` as soon as the limit is crossed.
        public var maxResponseBodySize: Int
        /// How redirects are followed, unless an endpoint says otherwise; see ``RedirectPolicy``.
        public var redirectPolicy: RedirectPolicy
        /// The type that the JSON body of a failed response is decoded into.
        public var errorBodyType: any ServerErrorBody.Type
        /// The logger handed to middlewares and transports; silent by default.
        public var logger: Logger
        /// The names a user reads for the fields of a validation error (`["userId": "Owner"]`),
        /// used by `localizedDescription` of ``NetworkError/validationFailed(_:)``; a field not
        /// listed is named from its key (`userId` and `user_id` read "User id").
        public var fieldNames: [String: String] = [:]

        /// The default response size limit: 32 MiB.
        public static let defaultMaxResponseBodySize = CallPlan.defaultResponseBodyLimit

        /// Creates a configuration.
        public init(
            baseURL: URL?,
            transport: any HTTPTransport = URLSessionTransport.shared,
            middlewares: [any Middleware] = [],
            encoder: JSONEncoder = defaultEncoder(),
            decoder: any ResponseDecoder = defaultDecoder(),
            defaultHeaders: [String: String] = [:],
            timeout: Duration = CallPlan.defaultTimeout,
            callTimeout: Duration? = nil,
            maxResponseBodySize: Int = defaultMaxResponseBodySize,
            redirectPolicy: RedirectPolicy = .default,
            errorBodyType: any ServerErrorBody.Type = APIErrorBody.self,
            logger: Logger = Logger(label: "NetworkingKit", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            self.baseURL = baseURL
            self.transport = transport
            self.middlewares = middlewares
            self.encoder = encoder
            self.decoder = decoder
            self.defaultHeaders = defaultHeaders
            self.timeout = timeout
            self.callTimeout = callTimeout
            self.maxResponseBodySize = maxResponseBodySize
            self.redirectPolicy = redirectPolicy
            self.errorBodyType = errorBodyType
            self.logger = logger
        }
    }
}
