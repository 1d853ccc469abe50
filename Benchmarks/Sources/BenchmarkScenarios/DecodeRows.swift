import Foundation
import NetworkingKit

/// The decoding rows: the same documents decoded by `JSONDecoder` used directly and by
/// `FastJSONDecoder`, both with snake_case keys and ISO 8601 dates (what the client's default
/// decoder reads). ClientOverhead counts their allocations; InstructionCounts their instructions.
public enum DecodeRows {
    /// An answer of about 200 bytes: one object of scalars, no dates.
    public static let small = Data(
        #"{"id":1,"title":"Toy Story","year":1995,"director":"John Lasseter","rating":8.3,"runtime_minutes":81,"studio":"Pixar Animation Studios","sequel":false,"tagline":"The adventure takes off!"}"#
            .utf8)

    /// An answer of about 100 KB: a list of 450 tasks with a nested object, a list, an optional
    /// date and numbers of each kind.
    public static let medium = tasks(450)

    /// An answer of about 5 MB: the medium list's records, 22,500 of them.
    public static let large = tasks(22_500)

    /// The rows, with how many calls callgrind counts for each (the difference of two runs).
    public static let rows: [DecodeRow] = [
        DecodeRow("decode_small_jsondecoder", calls: (1000, 3000)) { try foundation.decode(SmallFilm.self, from: small).id },
        DecodeRow("decode_small_fast", calls: (1000, 3000)) { try fast.decode(SmallFilm.self, from: small).id },
        DecodeRow("decode_medium_jsondecoder", calls: (4, 12)) { try foundation.decode([Task].self, from: medium).count },
        DecodeRow("decode_medium_fast", calls: (4, 12)) { try fast.decode([Task].self, from: medium).count },
        DecodeRow("decode_large_jsondecoder", calls: (1, 2)) { try foundation.decode([Task].self, from: large).count },
        DecodeRow("decode_large_fast", calls: (1, 2)) { try fast.decode([Task].self, from: large).count },
    ]

    /// `JSONDecoder` set up as the client's default decoder reads: snake_case keys, ISO 8601 dates
    /// (with or without fractional seconds since Swift 6.2).
    public static let foundation: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// The client's default decoder.
    public static let fast = LiveAPIClient.Configuration.defaultDecoder()

    public struct SmallFilm: Decodable, Sendable {
        public let id: Int
        public let title: String
        public let year: Int
        public let director: String
        public let rating: Double
        public let runtimeMinutes: Int
        public let studio: String
        public let sequel: Bool
        public let tagline: String?
    }

    public struct Person: Decodable, Sendable {
        public let id: Int
        public let name: String
        public let email: String
    }

    public struct Task: Decodable, Sendable {
        public let id: Int
        public let userId: Int
        public let title: String
        public let completed: Bool
        public let priority: Int
        public let score: Double
        public let tags: [String]
        public let createdAt: Date
        public let dueAt: Date?
        public let assignee: Person
    }

    /// `count` tasks, the same bytes on every run.
    public static func tasks(_ count: Int) -> Data {
        let verbs = ["Buy", "Call", "Write", "Review", "Fix", "Plan", "Clean", "Read", "Book", "Send"]
        let things = ["the groceries", "the landlord", "a blog post", "the dentist", "the bike", "the report", "the plants"]
        let names = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"]
        var text = "["
        for index in 1...count {
            if index > 1 { text += "," }
            let day = 1 + index % 28
            let created = "2026-11-\(day < 10 ? "0" : "")\(day)T09:\(index % 50 + 10):\(index % 50 + 10)Z"
            let due = index % 3 == 0 ? "null" : "\"2026-12-\(day < 10 ? "0" : "")\(day)T18:00:00.250Z\""
            let person = 1 + index % 5
            text += #"{"id":\#(index),"user_id":\#(person),"title":"\#(verbs[index % 10]) \#(things[index % 7])","#
            text += #""completed":\#(index % 5 == 0),"priority":\#(index % 4),"score":\#(Double(index % 100) / 8),"#
            text += #""tags":["home","errand"],"created_at":"\#(created)","due_at":\#(due),"#
            text += #""assignee":{"id":\#(person),"name":"\#(names[person - 1])","email":"user\#(person)@example.com"}}"#
        }
        return Data((text + "]").utf8)
    }
}

/// One decoding row: a name, its call (which returns something to keep), and callgrind's two
/// call counts.
public struct DecodeRow: Sendable {
    public let name: String
    public let calls: (Int, Int)
    public let run: @Sendable () throws -> Int

    init(_ name: String, calls: (Int, Int), run: @escaping @Sendable () throws -> Int) {
        self.name = name
        self.calls = calls
        self.run = run
    }
}
