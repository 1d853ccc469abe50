// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import Hummingbird
import NetworkingKit

// The README's sample for apps that use NetworkingKit inside a Hummingbird server, compiled in a
// file of its own: here both modules are imported, as in such an app, so that the sample proves
// the module-qualified names resolve. ReadmeSamplesTests compares it with the README.

private enum ReadmeServerSample {
    static func sample() {
        // <readme-sample>

        struct Profile: Decodable, Sendable {
            let name: String
        }

        // A Hummingbird route that asks another API through NetworkingKit. Both modules have a `Request`,
        // a `Response` and a `RequestContext`, so this file names each by its module.
        func greeting(
            _ request: Hummingbird.Request, context: some Hummingbird.RequestContext, api: some APIClient
        ) async throws -> String {
            let profile = try await api.send(NetworkingKit.Request<Profile>(path: "/me"))
            return "Hello, \(profile.name)"
        }
        // </readme-sample>
    }
}
