// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import Foundation
import Testing

/// Checks that a document's Swift samples are the same, line for line, as their compiled copies in
/// a test file, where each copy sits between `// <marker>` and `// </marker>` lines, indented by
/// eight spaces: how every sample a user reads is kept compiling.
enum CompiledSamples {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The ```` ```swift ```` blocks of the document at `path` (from the package root), without
    /// their import lines when `droppingImports`, and without the blocks that start with
    /// `// Package.swift` when `leavingOutManifests` (the README's manifest excerpt is no Swift
    /// statement; Scripts/consumer-check.sh builds it into a real package instead).
    static func swiftBlocks(of path: String, droppingImports: Bool = false, leavingOutManifests: Bool = false) throws -> [String] {
        let document = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        return document.components(separatedBy: "```swift\n").dropFirst().compactMap { block in
            guard !(leavingOutManifests && block.hasPrefix("// Package.swift\n")) else { return nil }
            return block.components(separatedBy: "```").first.map { text in
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

    /// The ```` ```swift ```` blocks of the doc comments in the source file at `path` (from the
    /// package root), each line without its indentation and `/// ` prefix.
    static func docCommentBlocks(of path: String) throws -> [String] {
        let source = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("///") else {
                current = nil
                continue
            }
            var text = trimmed.dropFirst(3)
            if text.hasPrefix(" ") { text = text.dropFirst() }
            if current == nil {
                if text == "```swift" { current = [] }
            } else if text == "```" {
                blocks.append((current ?? []).joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(String(text))
            }
        }
        return blocks
    }

    /// Expects the doc-comment samples of `sources`, file after file, and the test file's copies
    /// between `doc-sample` markers to be as many and the same.
    static func expectSameDocSamples(
        sources: [String], testFile: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var samples: [(String, String)] = []
        for path in sources {
            samples += try docCommentBlocks(of: path).map { (path, $0) }
        }
        let compiled = try copies(in: testFile, marker: "doc-sample")
        #expect(
            samples.count == compiled.count, "the doc comments have \(samples.count) Swift samples; \(compiled.count) are compiled",
            sourceLocation: sourceLocation)
        for (index, ((path, sample), copy)) in zip(samples, compiled).enumerated() {
            #expect(sample == copy, "sample \(index + 1) (\(path)) differs from its compiled copy", sourceLocation: sourceLocation)
        }
    }

    /// Expects the document's samples and the test file's copies to be as many and the same.
    static func expectSame(
        document: String, droppingImports: Bool = false, testFile: String, marker: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try expectSame(
            document: document, droppingImports: droppingImports, testFiles: [testFile], marker: marker,
            sourceLocation: sourceLocation)
    }

    /// Expects the document's samples and the test files' copies, file after file, to be as many
    /// and the same.
    static func expectSame(
        document: String, droppingImports: Bool = false, leavingOutManifests: Bool = false, testFiles: [String],
        marker: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let samples = try swiftBlocks(of: document, droppingImports: droppingImports, leavingOutManifests: leavingOutManifests)
        let compiled = try testFiles.flatMap { try copies(in: $0, marker: marker) }
        #expect(
            samples.count == compiled.count, "\(document) has \(samples.count) Swift samples; \(compiled.count) are compiled",
            sourceLocation: sourceLocation)
        for (index, (sample, copy)) in zip(samples, compiled).enumerated() {
            #expect(sample == copy, "\(document) sample \(index + 1) differs from its compiled copy", sourceLocation: sourceLocation)
        }
    }
}
