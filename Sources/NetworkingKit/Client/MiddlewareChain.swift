import HTTPTypes

/// Middlewares folded around the redirect step and the transport into one function, built once
/// per client so that a request pays no per-call composition cost.
struct MiddlewareChain: Sendable {
    let send: MiddlewareNext

    init(middlewares: [any Middleware], transport: any HTTPTransport) {
        let redirects = RedirectFollower(transport: transport)
        var next: MiddlewareNext = { request, body, context in
            try await redirects.send(request, body: body, context: context)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, body, context in
                try await middleware.intercept(request, body: body, context: context, next: inner)
            }
        }
        self.send = next
    }
}
