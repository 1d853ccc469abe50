import Benchmark
import BenchmarkScenarios
import Foundation
import NetworkingKit

// What the client and each middleware cost per call, over a transport that does no I/O (the rows
// are in BenchmarkScenarios, which InstructionCounts shares).
//
// Each sample is 1,000 calls in one task (`scalingFactor: .kilo`); run with `--scale` to read
// every figure per call. Compare each row with "raw_transport" (the same bytes sent and decoded by
// hand) in the same run: the difference is NetworkingKit's share. "client_pass_through" is what
// any middleware costs by being in the chain; the "no backend" rows are the observability
// middlewares in an app that bootstrapped nothing, and should cost no more than that.
/// The disk cache row's folder, emptied before and after the row.
let diskCacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-bench-disk-cache-\(getpid())")

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 200,
        // CI fails when a row allocates more than this over Thresholds/ (per 1,000 calls: under
        // one allocation per call). Instructions are counted by Benchmarks/instruction-counts.sh,
        // under callgrind, where this VM has no hardware counters.
        thresholds: [
            .mallocCountTotal: .init(absolute: [.p90: 500]),
            .instructions: .init(relative: [.p90: 5]),
        ]
    )

    Benchmark(Rows.raw) { benchmark in
        let call = RawTransportCall()
        for _ in benchmark.scaledIterations {
            blackHole(try await call())
        }
    }

    for row in Rows.clients {
        Benchmark(row.name) { benchmark, client in
            for _ in benchmark.scaledIterations {
                blackHole(try await client.send(Rows.filmRequest))
            }
        } setup: {
            row.makeClient()
        }
    }

    // Decoding alone: JSONDecoder used directly and FastJSONDecoder, the same documents (small,
    // medium, large) and settings. One decode per sample.
    for row in DecodeRows.rows {
        let large = row.name.hasPrefix("decode_large")
        Benchmark(row.name, configuration: .init(scalingFactor: .one, maxDuration: .seconds(2), maxIterations: large ? 10 : 200)) {
            benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try row.run())
            }
        }
    }

    // POSTs through a disk cache holding 500 answers: each successful POST invalidates what is
    // stored for its URL (RFC 9111 §4.4), which the storage answers from its index instead of
    // listing its folder. Disk I/O, so compare it with itself across commits, not with the rows
    // above.
    Benchmark("client_post_disk_cache_500_entries", configuration: .init(maxIterations: 50)) {
        (benchmark: Benchmark, client: LiveAPIClient) in
        let post = Request<Film>(path: "/films/1", method: .post, body: .json(["rating": 9]))
        for _ in benchmark.scaledIterations {
            blackHole(try await client.send(post))
        }
    } setup: { () async throws -> LiveAPIClient in
        try? FileManager.default.removeItem(at: diskCacheFolder)
        let folder = diskCacheFolder
        let client = LiveAPIClient(
            configuration: LiveAPIClient.Configuration(
                baseURL: URL(string: "https://api.example.com/v1"),
                transport: FixedResponseTransport(cacheControl: "max-age=3600"),
                middlewares: [HTTPCache(storage: DiskCacheStorage(directory: folder))], decoder: JSONDecoder()))
        for id in 1...500 {
            _ = try await client.send(Request<Film>(path: "/films/\(id)"))
        }
        return client
    } teardown: {
        try? FileManager.default.removeItem(at: diskCacheFolder)
    }
}
