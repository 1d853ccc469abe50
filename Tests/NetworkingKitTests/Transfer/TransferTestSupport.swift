import Foundation
import NetworkingKit
import Testing

/// A folder of its own for one test, removed by `cleanup()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nk-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `data` to a file named `name` in the folder.
    func file(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// The names of the files in the folder, hidden ones included, sorted.
    var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    func cleanup() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// `count` bytes that differ from one position to the next, so a misplaced range shows.
func patternedData(_ count: Int, salt: UInt8 = 0) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(salt)) })
}
