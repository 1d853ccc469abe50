import Foundation
import Testing

/// Checks that a document's Swift samples are the same, line for line, as their compiled copies in
/// a test file, where each copy sits between `// <marker>` and `// </marker>` lines, indented by
/// eight spaces: how every sample a user reads is kept compiling.
enum CompiledSamples {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The ```` ```swift ```` blocks of the document at `path` (from the package root), without
    /// their import lines when `droppingImports`.
    static func swiftBlocks(of path: String, droppingImports: Bool = false) throws -> [String] {
        let document = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        return document.components(separatedBy: "```swift\n").dropFirst().compactMap { block in
            block.components(separatedBy: "```").first.map { text in
                guard droppingImports else { return text }
                return text.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
            }
        }
    }

    /// The copies between `marker` lines in the source file at `testFile`, their indentation removed.
    static func copies(in testFile: String, marker: String) throws -> [String] {
        let source = try String(contentsOf: URL(fileURLWithPath: testFile), encoding: .utf8)
        return source.components(separatedBy: "// <\(marker)>\n").dropFirst().compactMap { part in
            part.components(separatedBy: "// </\(marker)>").first.map { text in
                text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                    .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
                    .joined(separator: "\n") + "\n"
            }
        }
    }

    /// Expects the document's samples and the test file's copies to be as many and the same.
    static func expectSame(
        document: String, droppingImports: Bool = false, testFile: String, marker: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let samples = try swiftBlocks(of: document, droppingImports: droppingImports)
        let compiled = try copies(in: testFile, marker: marker)
        #expect(
            samples.count == compiled.count, "\(document) has \(samples.count) Swift samples; \(compiled.count) are compiled",
            sourceLocation: sourceLocation)
        for (index, (sample, copy)) in zip(samples, compiled).enumerated() {
            #expect(sample == copy, "\(document) sample \(index + 1) differs from its compiled copy", sourceLocation: sourceLocation)
        }
    }
}
