import Foundation
import NetworkingKit

// What the compiled samples (README, articles, doc comments) take from the app around them, when
// more than one file needs it.

/// The signed-in user, as an app's `/me` returns it.
struct Me: Decodable, Sendable {
    let name: String
}

/// What shows the sign-in screen.
actor SampleSignInScreen {
    func showSignIn() {}
}

/// The app's own client for its refresh route.
struct SampleAuthAPI: Sendable {
    func refresh(_ token: AuthToken) async throws -> AuthToken {
        token
    }
}

#if !canImport(Security)
/// NetworkingKit's `KeychainTokenStore` exists on Apple platforms only; elsewhere this stand-in,
/// with the same initializer, lets the samples compile too. On Apple platforms they are compiled
/// against the real store.
struct KeychainTokenStore: TokenStore {
    let service: String

    func token() async throws -> AuthToken? { nil }
    func setToken(_ token: AuthToken) async throws {}
    func removeToken() async throws {}
}
#endif
