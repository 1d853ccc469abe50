import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DemoAPI

@Suite("Films, characters, search and ratings")
struct FilmRoutesTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func listsTheEightSeededFilms() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/films", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let films = response.json
                #expect(films.arrayCount == 8)
                #expect(films[0]?["id"] == .string("toy-story"))
                #expect(films[0]?["release_date"] == .string("1995-11-22T00:00:00Z"))
                #expect(films[0]?["studio"] == .string("Pixar Animation Studios"))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func servesOneFilmWithCacheHeaders() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/films/up", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.json["title"] == .string("Up"))
                #expect(response.json["release_year"] == .number(2009))
                #expect(response.headers[.cacheControl] == "max-age=60")
                let etag = try #require(response.headers[.eTag])
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 18)
                #expect(response.headers[.lastModified] == "Wed, 06 Mar 2024 09:00:00 GMT")
                #expect(response.headers[.date] != nil)
            }
            try await client.execute(uri: "/films/up?max_age=0", method: .get) { response in
                #expect(response.headers[.cacheControl] == "max-age=0")
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func unknownFilmIsA404WithJSON() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/films/cars-9", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json")
                let body = response.json
                #expect(body["message"] == .string("No film with id 'cars-9'."))
                #expect(body["code"] == .string("not_found"))
                #expect(body["errors"] == nil)
            }
            try await client.execute(uri: "/films/cars-9/characters", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func listsCharactersOfAFilm() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/films/toy-story/characters", method: .get) { response in
                #expect(response.status == .ok)
                let characters = response.json
                #expect(characters.arrayCount == 3)
                #expect(characters[0]?["name"] == .string("Woody"))
                #expect(characters[0]?["film_id"] == .string("toy-story"))
                #expect(characters[0]?["voice_actor"] == .string("Tom Hanks"))
                #expect(response.headers[.eTag] != nil)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func ifNoneMatchGives304WithValidators() async throws {
        try await withDemoRouter { client, state in
            let etag = try await client.execute(uri: "/films/coco", method: .get) { try #require($0.headers[.eTag]) }
            for header in [etag, "W/\(etag)", "\"nope\", \(etag)", "*"] {
                try await client.execute(uri: "/films/coco", method: .get, headers: [.ifNoneMatch: header]) { response in
                    #expect(response.status == .notModified, "If-None-Match: \(header)")
                    #expect(response.body.readableBytes == 0)
                    #expect(response.headers[.eTag] == etag)
                    #expect(response.headers[.cacheControl] == "max-age=60")
                    #expect(response.headers[.lastModified] != nil)
                }
            }
            try await client.execute(uri: "/films/coco", method: .get, headers: [.ifNoneMatch: "\"other\""]) { response in
                #expect(response.status == .ok)
            }
            #expect(state.stats.snapshot.notModified == 4)
            #expect(state.stats.conditionalCount("GET /films/{id}") == 5)
            #expect(state.stats.count("GET /films/{id}") == 6)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func ifModifiedSinceComparesWithLastModified() async throws {
        try await withDemoRouter { client, state in
            let lastModified = try await client.execute(uri: "/films", method: .get) { try #require($0.headers[.lastModified]) }
            try await client.execute(uri: "/films", method: .get, headers: [.ifModifiedSince: lastModified]) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(uri: "/films", method: .get, headers: [.ifModifiedSince: "Sat, 01 Jan 2000 00:00:00 GMT"]) {
                response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/films", method: .get, headers: [.ifModifiedSince: "not a date"]) { response in
                #expect(response.status == .ok)
            }
            // If-None-Match wins over If-Modified-Since.
            try await client.execute(
                uri: "/films",
                method: .get,
                headers: [.ifModifiedSince: lastModified, .ifNoneMatch: "\"stale\""]
            ) { response in
                #expect(response.status == .ok)
            }
            #expect(state.stats.snapshot.notModified == 1)
            #expect(state.stats.conditionalCount("GET /films") == 4)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func searchMatchesTitlesAndCharacterNames() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/search?q=TOY", method: .get) { response in
                #expect(response.status == .ok)
                let body = response.json
                #expect(body["films"]?.arrayCount == 1)
                #expect(body["films"]?[0]?["id"] == .string("toy-story"))
            }
            try await client.execute(uri: "/search?q=buzz%20light", method: .get) { response in
                let body = response.json
                #expect(body["films"]?.arrayCount == 0)
                #expect(body["characters"]?[0]?["id"] == .string("buzz-lightyear"))
            }
            for uri in ["/search", "/search?q="] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .badRequest)
                    #expect(response.json["code"] == .string("bad_request"))
                }
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func ratingsAverageAndValidate() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/films/up/rating", method: .post, headers: jsonHeaders, body: jsonBody(#"{"rating":5}"#)) {
                response in
                #expect(response.status == .ok)
                let body = response.json
                #expect(body["film_id"] == .string("up"))
                #expect(body["average_rating"] == .number(5))
                #expect(body["ratings_count"] == .number(1))
            }
            try await client.execute(
                uri: "/films/up/rating",
                method: .post,
                headers: jsonHeaders,
                body: jsonBody(#"{"rating":2,"comment":"Too many balloons."}"#)
            ) { response in
                let body = response.json
                #expect(body["rating"] == .number(2))
                #expect(body["average_rating"] == .number(3.5))
                #expect(body["ratings_count"] == .number(2))
            }
            for invalid in [#"{"rating":6}"#, #"{"rating":0}"#, #"{"comment":"no rating"}"#, #"{"rating":"five"}"#] {
                try await client.execute(uri: "/films/up/rating", method: .post, headers: jsonHeaders, body: jsonBody(invalid)) {
                    response in
                    #expect(response.status == .unprocessableContent, "\(invalid)")
                    let body = response.json
                    #expect(body["message"] == .string("The rating is invalid."))
                    #expect(body["code"] == .string("validation_failed"))
                    #expect(body["errors"]?[0]?["field"] == .string("rating"))
                    #expect(body["errors"]?[0]?["message"] == .string("must be between 1 and 5"))
                }
            }
            let longComment = String(repeating: "a", count: 501)
            try await client.execute(
                uri: "/films/up/rating",
                method: .post,
                headers: jsonHeaders,
                body: jsonBody(#"{"rating":3,"comment":"\#(longComment)"}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                let errors = response.json["errors"]
                #expect(errors?[0]?["field"] == .string("comment"))
            }
            try await client.execute(uri: "/films/up/rating", method: .post, headers: jsonHeaders, body: jsonBody("{not json")) {
                response in
                #expect(response.status == .badRequest)
                #expect(response.json["code"] == .string("malformed_json"))
            }
            try await client.execute(uri: "/films/nope/rating", method: .post, headers: jsonHeaders, body: jsonBody(#"{"rating":3}"#)) {
                response in
                #expect(response.status == .notFound)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func httpDatesRoundTrip() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.format(FilmCatalog.lastModified["toy-story"] ?? 0) == "Fri, 01 Mar 2024 09:00:00 GMT")
    }
}
