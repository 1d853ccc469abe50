import Foundation
import Hummingbird
import Testing

@testable import DemoAPI

/// Every path a sample names (in the README, the DocC articles and the doc comments) is one
/// DemoAPI serves, so that a newcomer who runs a sample against `netkit serve` gets an answer,
/// not a 404.
@Suite("Sample paths are DemoAPI routes")
struct SamplePathsTests {
    /// The repository's root, from this file's place in it.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The documents whose samples a user reads: the README, every DocC article, and the doc
    /// comments of every source file (its `///` lines).
    private static func documents() throws -> [(name: String, text: String)] {
        var documents = [(name: "README.md", text: try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))]
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let name = String(file.path.dropFirst(root.path.count + 1))
            if file.pathExtension == "md" {
                documents.append((name, try String(contentsOf: file, encoding: .utf8)))
            } else if file.pathExtension == "swift" {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                documents.append((name, lines.filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("///") }.joined(separator: "\n")))
            }
        }
        return documents
    }

    /// The relative paths samples give: `path: "/..."` (a `Request`), and the string an endpoint
    /// enum's `path` returns for a case (`case .films: "/films"`).
    static func samplePaths(in text: String) -> [String] {
        let patterns = [#"path: "(/[^"]*)""#, #"case \.[A-Za-z]+[^:\n]*: "(/[^"]*)""#]
        return patterns.flatMap { pattern in
            let expression = try! NSRegularExpression(pattern: pattern)
            let range = NSRange(text.startIndex..., in: text)
            return expression.matches(in: text, range: range).compactMap { match in
                Range(match.range(at: 1), in: text).map { String(text[$0]) }
            }
        }
    }

    /// Whether `path` (whose `\(...)` interpolations stand for any one segment) is served by the
    /// route `pattern` (whose `{name}` captures one segment and `**` the rest).
    static func matches(_ path: String, route pattern: String) -> Bool {
        let segments = path.split(separator: "/").map(String.init)
        let parts = pattern.split(separator: "/").map(String.init)
        for (index, part) in parts.enumerated() {
            if part == "**" { return segments.count > index }
            guard index < segments.count else { return false }
            let segment = segments[index]
            let isCapture = part.hasPrefix("{") && part.hasSuffix("}")
            if !isCapture, !segment.contains("\\("), segment != part { return false }
            if !isCapture, segment.contains("\\(") { return false }
        }
        return segments.count == parts.count
    }

    @Test("the matcher itself: captures take one segment, ** the rest, an interpolation stands for a segment")
    func matcher() {
        #expect(Self.matches("/films/up/trailer", route: "/films/{id}/trailer"))
        #expect(Self.matches("/films/\\(PathSegment.escape(id))/rating", route: "/films/{id}/rating"))
        #expect(!Self.matches("/films/up", route: "/films/{id}/rating"))
        #expect(!Self.matches("/feeds", route: "/feed"))
        #expect(Self.matches("/echo/a/b", route: "/echo/**"))
        #expect(Self.samplePaths(in: #"Request<Data>(path: "/feed") case .films: "/films""#) == ["/feed", "/films"])
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("every sample's relative path is a DemoAPI route")
    func samplePathsAreRoutes() throws {
        let router = makeDemoRouter()
        let routes = Set(router.routes.map { "\($0.path)" })
        var checked = 0
        for document in try Self.documents() {
            for path in Self.samplePaths(in: document.text) {
                checked += 1
                #expect(routes.contains { Self.matches(path, route: $0) }, "\(document.name): \(path) is not a DemoAPI route")
            }
        }
        // The samples are there to be checked: a pattern that stopped matching them would pass vacuously.
        #expect(checked > 40)
    }
}
