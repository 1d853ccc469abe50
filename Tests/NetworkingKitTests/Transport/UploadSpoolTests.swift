import Foundation
import Testing

@testable import NetworkingKit

/// URLSession uploads a streamed body from a copy on disk: that copy may hold a password.
@Suite("URLSession uploads: the spooled copy of a body")
struct UploadSpoolTests {
    @Test(
        "the copy is the owner's only from its creation (0600, where a file made the usual way is 0644), holds the body, and its name goes when removed"
    )
    func ownerOnly() async throws {
        let secret = Data("password=hunter2&".utf8)
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            for _ in 0..<1000 { continuation.yield(secret) }
            continuation.finish()
        }
        let spooled = try await URLSessionTransport.spool(HTTPBody(chunks, length: .unknown, iterationBehavior: .single))
        let attributes = try FileManager.default.attributesOfItem(atPath: spooled.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try Data(contentsOf: spooled.url) == Data((0..<1000).flatMap { _ in secret }))
        spooled.remove()
        #expect(!FileManager.default.fileExists(atPath: spooled.path))
    }
}
