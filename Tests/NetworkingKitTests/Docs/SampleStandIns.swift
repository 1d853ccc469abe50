// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
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

/// Two films the testing samples stub answers with.
extension PixarFilm {
    static let toyStory = PixarFilm(
        id: "toy-story", title: "Toy Story", releaseYear: 1995, releaseDate: Date(timeIntervalSince1970: 816_998_400),
        studio: "Pixar", synopsis: "A cowboy doll is threatened by a new spaceman action figure.")
    static let up = PixarFilm(
        id: "up", title: "Up", releaseYear: 2009, releaseDate: Date(timeIntervalSince1970: 1_243_555_200),
        studio: "Pixar", synopsis: "An old man ties balloons to his house.")
}

/// A view model as an app would write it: it loads the films, or keeps why it could not.
final class FilmsViewModel {
    private let client: any APIClient
    private(set) var films: [PixarFilm] = []
    private(set) var errorMessage: String?

    init(client: any APIClient) {
        self.client = client
    }

    func load() async {
        do {
            films = try await client.request(PixarAPIEndpoint.films, as: [PixarFilm].self)
            errorMessage = nil
        } catch {
            errorMessage = error.localizedDescription
        }
    }
}

/// A stand-in for PackageDescription's `Target`, with the two factory methods the manifest sample
/// uses and their labels: a manifest's API cannot be imported into a test.
struct ManifestTarget {
    struct Dependency: ExpressibleByStringLiteral {
        init(stringLiteral name: String) {}

        static func product(name: String, package: String) -> Dependency {
            Dependency(stringLiteral: name)
        }
    }

    static func testTarget(name: String, dependencies: [Dependency] = []) -> ManifestTarget {
        ManifestTarget()
    }
}
