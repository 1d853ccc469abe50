/// Where tokens are kept between calls, and between launches for the persistent stores.
///
/// NetworkingKit ships three: ``InMemoryTokenStore`` (tests, or a session that must not outlive
/// the process), ``FileTokenStore`` (a JSON file readable by its owner only; servers, Linux, the
/// CLI) and, on Apple platforms, `KeychainTokenStore`. Write your own for any other secure
/// storage:
///
/// ```swift
/// struct VaultTokenStore: TokenStore {
///     let vault: Vault
///     func token() async throws -> AuthToken? { try await vault.read("token") }
///     func setToken(_ token: AuthToken) async throws { try await vault.write(token, to: "token") }
///     func removeToken() async throws { try await vault.delete("token") }
/// }
/// ```
///
/// A store only stores: expiry and refresh are ``TokenRefresher``'s job, which reads the store
/// once and then keeps the current token in memory, writing every change through.
public protocol TokenStore: Sendable {
    /// The stored token, or `nil` when there is none. A store whose contents cannot be read as a
    /// token (a corrupt file) answers `nil` rather than failing: the user simply signs in again.
    func token() async throws -> AuthToken?

    /// Stores `token`, replacing any previous one.
    func setToken(_ token: AuthToken) async throws

    /// Forgets the stored token; removing a token that is not there is not an error.
    func removeToken() async throws
}

/// A ``TokenStore`` that keeps the token in memory only: nothing survives the process.
///
/// The seed articles' `TokenStore` actor, in the shape of the protocol.
public actor InMemoryTokenStore: TokenStore {
    private var stored: AuthToken?

    /// Creates a store holding `token`, or nothing.
    public init(_ token: AuthToken? = nil) {
        self.stored = token
    }

    /// The token held, if any.
    public func token() -> AuthToken? {
        stored
    }

    /// Holds `token` in place of the previous one.
    public func setToken(_ token: AuthToken) {
        stored = token
    }

    /// Forgets the token.
    public func removeToken() {
        stored = nil
    }
}
