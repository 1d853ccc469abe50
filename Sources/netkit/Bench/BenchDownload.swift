#if DemoAPI
import AsyncHTTPClient
import Foundation
import NetworkingKit
import NetworkingKitAsyncHTTPClient
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `netkit bench --download N`: one large body written to a file, by raw AsyncHTTPClient (each
/// buffer written with `write(2)`, no copy) and by `LiveAPIClient.download` over
/// a transport (`AsyncHTTPClientTransport`, on the same `HTTPClient`, or `NIOTransport`),
/// rounds interleaved.
struct BenchDownload: Sendable {
    let url: URL
    let folder: URL
    let transport: any HTTPTransport

    /// The raw baseline: execute, then every buffer straight to the file.
    func raw() async throws -> (bytes: Int64, elapsed: Duration) {
        let start = ContinuousClock.now
        let path = folder.appendingPathComponent("raw.bin").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw BenchFailure.status(-1) }
        defer {
            close(descriptor)
            unlink(path)
        }
        let response = try await AsyncHTTPClientTransport.sharedClient.execute(
            HTTPClientRequest(url: url.absoluteString), timeout: .seconds(3600))
        guard response.status == .ok else { throw BenchFailure.status(Int(response.status.code)) }
        var bytes: Int64 = 0
        for try await buffer in response.body {
            try buffer.withUnsafeReadableBytes { pointer in
                var offset = 0
                while offset < pointer.count {
                    let written = write(descriptor, pointer.baseAddress! + offset, pointer.count - offset)
                    guard written > 0 else { throw BenchFailure.status(-2) }
                    offset += written
                }
            }
            bytes += Int64(buffer.readableBytes)
        }
        return (bytes, ContinuousClock.now - start)
    }

    /// NetworkingKit: `download(_:to:)`, temporary file, length check and `rename` included.
    func client() async throws -> (bytes: Int64, elapsed: Duration) {
        let start = ContinuousClock.now
        let client = LiveAPIClient(configuration: LiveAPIClient.Configuration(baseURL: nil, transport: transport))
        let destination = folder.appendingPathComponent("client.bin")
        defer { try? FileManager.default.removeItem(at: destination) }
        let file = try await client.download(Request<Data>(path: url.absoluteString), to: destination)
        return (file.size, ContinuousClock.now - start)
    }

    /// `rounds` of each, interleaved (the order alternating), as median MB/s per side.
    func measure(rounds: Int) async throws -> (raw: Double, client: Double) {
        var raws: [Double] = []
        var ours: [Double] = []
        func rate(_ result: (bytes: Int64, elapsed: Duration)) -> Double {
            let seconds = Double(result.elapsed.components.seconds) + Double(result.elapsed.components.attoseconds) * 1e-18
            return Double(result.bytes) / 1_000_000 / max(seconds, 1e-9)
        }
        _ = try await raw()
        _ = try await client()
        for round in 0..<rounds {
            if round.isMultiple(of: 2) {
                raws.append(rate(try await raw()))
                ours.append(rate(try await client()))
            } else {
                ours.append(rate(try await client()))
                raws.append(rate(try await raw()))
            }
        }
        return (raws.sorted()[raws.count / 2], ours.sorted()[ours.count / 2])
    }
}
#endif
