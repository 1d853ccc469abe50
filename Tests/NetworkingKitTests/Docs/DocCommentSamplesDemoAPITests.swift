// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import DemoAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The Swift sample of DemoAPI's doc comments, compiled like the others (see
// DocCommentSamplesCoreTests.swift).

@available(macOS 14, iOS 17, tvOS 17, *)
private enum DocCommentDemoAPISamples {
    static func demoServerSample() async throws {
        // <doc-sample>
        try await DemoServer.withServer { server in
            let (data, _) = try await URLSession.shared.data(from: server.baseURL.appending(path: "films"))
            #expect(!data.isEmpty)
            #expect(server.stats.count("GET /films") == 1)
        }
        // </doc-sample>
    }
}

@Suite("Doc-comment samples: DemoAPI, and every sample accounted for")
struct DocCommentSamplesDemoAPITests {
    @Test("every Swift sample in these doc comments is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSameDocSamples(
            sources: [
                "Sources/DemoAPI/Server/DemoServer.swift"
            ],
            testFile: #filePath)
    }

    @Test("every source file whose doc comments hold a Swift sample is listed by one of the doc-sample suites")
    func everySampleIsListed() throws {
        let root = CompiledSamples.packageRoot
        var withSamples: Set<String> = []
        let sources = root.appendingPathComponent("Sources")
        for case let file as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        where file.pathExtension == "swift" {
            if try String(contentsOf: file, encoding: .utf8).contains("/// ```swift") {
                withSamples.insert(String(file.path.dropFirst(root.path.count + 1)))
            }
        }
        var listed: Set<String> = []
        let docs = root.appendingPathComponent("Tests/NetworkingKitTests/Docs")
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasPrefix("DocCommentSamples") {
            let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("\"Sources/"), let end = trimmed.dropFirst().firstIndex(of: "\"") {
                    listed.insert(String(trimmed[trimmed.index(after: trimmed.startIndex)..<end]))
                }
            }
        }
        #expect(withSamples.count > 40)
        #expect(withSamples.subtracting(listed).sorted() == [], "samples no test compiles")
    }
}
