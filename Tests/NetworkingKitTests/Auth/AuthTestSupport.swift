import Foundation
@_spi(Transport) import NetworkingKit
import NetworkingKitTesting
import Testing

/// Holds refreshes back until the test opens it, so that concurrent callers can all join one.
final class RefreshGate: Sendable {
    private let state = LockedState((isOpen: false, waiters: [CheckedContinuation<Void, Never>]()))

    init(open: Bool = false) {
        state.withLock { $0.isOpen = open }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A token server in memory: `/me` accepts only the newest access token, and each refresh issues
/// `at-N`/`rt-N` and invalidates the previous pair, as a rotating server does.
final class FakeTokenServer: Sendable {
    private struct State {
        var generation = 1
        var accessValid = true
        var refreshes = 0
        var failure: (any Error)?
    }

    private let state = LockedState(State())
    let gate: RefreshGate

    init(gate: RefreshGate = RefreshGate(open: true)) {
        self.gate = gate
    }

    /// The token the server issued last.
    var currentToken: AuthToken {
        state.withLock { AuthToken(accessToken: "at-\($0.generation)", refreshToken: "rt-\($0.generation)") }
    }

    var refreshCount: Int { state.withLock { $0.refreshes } }

    /// The current access token stops being accepted (the refresh token still works).
    func expireAccessToken() {
        state.withLock { $0.accessValid = false }
    }

    /// Every refresh from now on fails with `error`.
    func failRefreshes(with error: any Error) {
        state.withLock { $0.failure = error }
    }

    /// The transport's answer: 200 for the current, unexpired access token, 401 otherwise.
    func answer(_ request: RecordedRequest) -> StubResponse {
        let accepted = state.withLock { $0.accessValid ? "Bearer at-\($0.generation)" : nil }
        if let accepted, request.header("Authorization") == accepted {
            return .json(#"{"username":"woody"}"#)
        }
        return .json(
            #"{"message":"The access token is invalid."}"#, status: .unauthorized,
            headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
    }

    /// The refresh a ``TokenRefresher`` performs: waits at the gate, then rotates the tokens.
    func refresh(_ token: AuthToken, now: Date? = nil) async throws -> AuthToken {
        state.withLock { $0.refreshes += 1 }
        await gate.wait()
        return try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard token.refreshToken == "rt-\(state.generation)" else {
                throw NetworkError.unauthorized(Self.refusal)
            }
            state.generation += 1
            state.accessValid = true
            return AuthToken(
                accessToken: "at-\(state.generation)", refreshToken: "rt-\(state.generation)",
                expiresAt: now.map { $0.addingTimeInterval(3600) })
        }
    }

    /// What the refresh route answers for a refresh token it does not know.
    static let refusal = HTTPFailure(
        request: RequestSummary(method: .post, url: URL(string: "https://api.example.com/v1/auth/refresh")),
        response: HTTPResponse(status: .unauthorized))
}

/// Counts sign-outs.
final class SignOutRecorder: Sendable {
    private let errors = LockedState<[String]>([])

    var count: Int { errors.withLock { $0.count } }
    var descriptions: [String] { errors.withLock { $0 } }

    var handler: TokenRefresher.SignOutHandler {
        { error in self.errors.withLock { $0.append(String(describing: error)) } }
    }
}

/// A client whose transport is `server` behind an authentication middleware over `refresher`.
func makeAuthClient(_ refresher: TokenRefresher, _ server: FakeTokenServer) -> (LiveAPIClient, StubTransport) {
    makeClient(middlewares: [AuthenticationMiddleware(tokenProvider: refresher)]) { request in
        server.answer(request)
    }
}

/// `GET /me`, the protected route of these tests.
let meEndpoint = TestEndpoint(path: "/me")
