import Foundation
import NetworkingKit
import Testing

@Suite("Auth: token stores")
struct AuthTokenStoreTests {
    private static let token = AuthToken(
        accessToken: "at-1", refreshToken: "rt-1", expiresAt: Date(timeIntervalSince1970: 1_700_003_600))

    /// A fresh directory for one test, removed afterwards.
    private func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auth-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }

    private func permissions(of url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }

    @Test("the in-memory store holds, replaces and forgets a token")
    func inMemory() async throws {
        let store = InMemoryTokenStore()
        #expect(await store.token() == nil)
        await store.setToken(Self.token)
        #expect(await store.token() == Self.token)
        await store.setToken(AuthToken(accessToken: "at-2"))
        #expect(await store.token()?.accessToken == "at-2")
        await store.removeToken()
        #expect(await store.token() == nil)
    }

    @Test("the file store writes a file only its owner can read, in a directory it creates 0700")
    func fileIsOwnerOnly() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("nested/token.json")
            let store = FileTokenStore(fileURL: file)
            #expect(try await store.token() == nil)

            try await store.setToken(Self.token)
            #expect(try permissions(of: file) == 0o600)
            #expect(try permissions(of: file.deletingLastPathComponent()) == 0o700)
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains(#""access_token":"at-1""#))

            // Writing again replaces the file; no temporary file is left behind.
            try await store.setToken(AuthToken(accessToken: "at-2", refreshToken: "rt-2"))
            #expect(try permissions(of: file) == 0o600)
            let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
            #expect(names == ["token.json"])
        }
    }

    @Test("a token file written by one store is read by a new one")
    func fileSurvivesNewInstance() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("token.json")
            try await FileTokenStore(fileURL: file).setToken(Self.token)
            #expect(try await FileTokenStore(fileURL: file).token() == Self.token)

            try await FileTokenStore(fileURL: file).removeToken()
            #expect(try await FileTokenStore(fileURL: file).token() == nil)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            try await FileTokenStore(fileURL: file).removeToken()  // already gone: not an error
        }
    }

    @Test("a corrupt token file reads as no token, and the next sign-in replaces it")
    func corruptFile() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("token.json")
            for garbage in [#"{"access_tok"#, "not json at all", #"{"refresh_token":"rt-1"}"#, ""] {
                try Data(garbage.utf8).write(to: file)
                #expect(try await FileTokenStore(fileURL: file).token() == nil, "\(garbage)")
            }
            // A file someone else left world-readable comes back owner-only.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            let store = FileTokenStore(fileURL: file)
            try await store.setToken(Self.token)
            #expect(try await store.token() == Self.token)
            #expect(try permissions(of: file) == 0o600)
        }
    }

    @Test("the refresher reads the store once and writes refreshed tokens through")
    func refresherWritesThrough() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("token.json")
            try await FileTokenStore(fileURL: file).setToken(AuthToken(accessToken: "at-1", refreshToken: "rt-1"))

            let refresher = TokenRefresher(store: FileTokenStore(fileURL: file)) { token in
                AuthToken(accessToken: "at-2", refreshToken: "rt-2")
            }
            #expect(try await refresher.validToken()?.accessToken == "at-1")
            _ = try await refresher.refresh()
            #expect(try await FileTokenStore(fileURL: file).token()?.accessToken == "at-2")

            // A new launch picks the session up from the file.
            let relaunched = TokenRefresher(store: FileTokenStore(fileURL: file)) { _ in AuthToken(accessToken: "unused") }
            #expect(try await relaunched.validToken()?.accessToken == "at-2")

            try await relaunched.removeToken()
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test("a token's description leaves its secrets out")
    func descriptionRedacts() {
        let text = String(describing: Self.token)
        #expect(!text.contains("at-1"))
        #expect(!text.contains("rt-1"))
        #expect(text.contains("refreshable"))
        #expect(AuthToken(accessToken: "x", tokenType: "bearer").authorizationValue == "Bearer x")
        #expect(AuthToken(accessToken: "x", tokenType: "MAC").authorizationValue == "MAC x")
    }
}
