#if canImport(Security)
import Foundation
import Security

/// A ``TokenStore`` that keeps the token in the Keychain, as a generic password item.
///
/// ```swift
/// let store = KeychainTokenStore(service: "com.example.app.auth")
/// let refresher = TokenRefresher(store: store) { token in try await api.refresh(token) }
/// ```
///
/// The item is readable after the device's first unlock and never leaves the device (no iCloud
/// Keychain, no backup restore onto another device): a refresh token is a credential of this
/// installation. An item that does not decode as a token reads as no token.
public struct KeychainTokenStore: TokenStore {
    /// The Keychain service the item is filed under, usually a reverse-DNS name of the app's.
    public let service: String
    /// The account name of the item, to keep several sessions apart.
    public let account: String

    /// Creates a store for the item of `service` and `account`.
    public init(service: String, account: String = "default") {
        self.service = service
        self.account = account
    }

    /// The stored token, or `nil` when there is no item or it is not a valid token.
    /// - Throws: ``KeychainError`` when the Keychain refuses the query (locked, no entitlement).
    public func token() async throws -> AuthToken? {
        var query = baseQuery
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
        guard let data = result as? Data else { return nil }
        return try? AuthToken.storageDecoder().decode(AuthToken.self, from: data)
    }

    /// Stores `token`, updating the item when there is one.
    public func setToken(_ token: AuthToken) async throws {
        let data = try AuthToken.storageEncoder().encode(token)
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let status = SecItemUpdate(baseQuery as CFDictionary, attributes as CFDictionary)
        if status == errSecSuccess { return }
        guard status == errSecItemNotFound else { throw KeychainError(status: status) }
        let added = SecItemAdd(baseQuery.merging(attributes) { _, new in new } as CFDictionary, nil)
        guard added == errSecSuccess else { throw KeychainError(status: added) }
    }

    /// Deletes the item; a missing item is not an error.
    public func removeToken() async throws {
        let status = SecItemDelete(baseQuery as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }

    private var baseQuery: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
    }
}

/// The Keychain refused an operation of ``KeychainTokenStore``.
public struct KeychainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `OSStatus` the Security framework returned.
    public let status: Int32

    /// Creates an error for `status`.
    public init(status: Int32) {
        self.status = status
    }

    /// The Security framework's message for the status, with its code.
    public var description: String {
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "unknown error"
        return "Keychain error \(status): \(message)"
    }
}
#endif
