import Foundation
import NetworkingKit
import NetworkingKitTesting
import Testing

/// One client for an API whose newer endpoints speak camelCase while the rest speak snake_case
/// (the client's default coders).
@Suite("Per-request coders")
struct PerRequestCodersTests {
    struct Profile: Codable, Sendable, Equatable {
        let displayName: String
        let createdAt: Date
    }

    /// `/v2/...` endpoints: camelCase keys, dates as seconds since 1970.
    enum ProfilesAPI: APIEndpoint {
        case legacy(Profile)
        case current(Profile)

        var path: String {
            switch self {
            case .legacy: "/profiles"
            case .current: "/v2/profiles"
            }
        }
        var method: HTTPMethod { .post }
        var body: (any Encodable)? {
            switch self {
            case .legacy(let profile), .current(let profile): profile
            }
        }
        var options: RequestOptions {
            guard case .current = self else { return .default }
            var options = RequestOptions()
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            options.encoder = encoder
            options.decoder = decoder
            return options
        }
    }

    @Test("an endpoint's encoder and decoder replace the client's for its calls only")
    func endpointCoders() async throws {
        // The server answers with what it received.
        let transport = StubTransport { request in .json(request.bodyText ?? "") }
        let client = LiveAPIClient(configuration: LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport))
        let woody = Profile(displayName: "Woody", createdAt: Date(timeIntervalSince1970: 1_000_000))

        #expect(try await client.request(ProfilesAPI.current(woody), as: Profile.self) == woody)
        #expect(try await client.request(ProfilesAPI.legacy(woody), as: Profile.self) == woody)
        let bodies = transport.requests.compactMap(\.bodyText)
        #expect(bodies.count == 2)
        #expect(bodies[0].contains(#""displayName":"Woody""#) && bodies[0].contains(#""createdAt":1000000"#), "\(bodies[0])")
        #expect(bodies[1].contains(#""display_name":"Woody""#) && bodies[1].contains("1970-01-12T13:46:40Z"), "\(bodies[1])")
    }

    @Test("a typed request carries its decoder in its options, and JSON lines use it too")
    func requestDecoder() async throws {
        let transport = StubTransport { _ in .json("{\"displayName\":\"Jessie\",\"createdAt\":0}\n") }
        let client = LiveAPIClient(configuration: LiveAPIClient.Configuration(baseURL: testBaseURL, transport: transport))
        var options = RequestOptions()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        options.decoder = decoder
        let request = Request<Profile>(path: "/v2/profiles/jessie", options: options)
        #expect(try await client.send(request) == Profile(displayName: "Jessie", createdAt: Date(timeIntervalSince1970: 0)))

        var lines: [Profile] = []
        for try await profile in client.lines(request, as: Profile.self) {
            lines.append(profile)
        }
        #expect(lines.map(\.displayName) == ["Jessie"])
        // The client's own decoder (snake_case keys, ISO 8601 dates) cannot read it.
        let plain = Request<Profile>(path: "/v2/profiles/jessie")
        await #expect(throws: NetworkError.self) { try await client.send(plain) }
    }
}
