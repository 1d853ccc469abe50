#if DemoAPI
import Foundation
import NetworkingKitAsyncHTTPClient

/// What one round of one scenario measured.
struct BenchRound: Sendable {
    /// From the first request sent to the last answer decoded.
    let elapsed: Duration
    /// Each request's time, from send to decoded answer.
    let latencies: [Duration]
    /// The process's CPU time (user and system, every thread) over the round.
    let cpu: Duration

    var requestsPerSecond: Double {
        Double(latencies.count) / elapsed.seconds
    }

    /// CPU time per request: what the client costs, steadier than throughput on a machine whose
    /// cores are shared with the server and whatever else runs.
    var cpuPerRequest: Duration {
        cpu / latencies.count
    }

    /// The CPU time the process has used so far, every thread, user and system.
    static func processCPUTime() -> Duration {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func duration(_ time: timeval) -> Duration {
            .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
        }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }
}

/// Sends `requests` requests of a scenario, `concurrency` at a time, and times them.
struct BenchLoad: Sendable {
    let requests: Int
    let concurrency: Int
    /// `NIOTransport.LoopExecutor`s the workers run on, one each in turn (`--on-event-loops`);
    /// none: the global executor. Typed loosely: task executors are macOS 15 and later.
    var executors: [any Sendable] = []

    func run(_ scenario: BenchScenario) async throws -> BenchRound {
        let clock = ContinuousClock()
        let cpuAtStart = BenchRound.processCPUTime()
        let start = clock.now
        let (requests, concurrency, executors) = (requests, concurrency, executors)
        let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
            // One worker: every `concurrency`-th request, so the requests are spread evenly.
            @Sendable func work(_ worker: Int) async throws -> [Duration] {
                var mine: [Duration] = []
                mine.reserveCapacity(requests / concurrency + 1)
                for index in stride(from: worker, to: requests, by: concurrency) {
                    let sent = clock.now
                    try await scenario.fetch(index)
                    mine.append(clock.now - sent)
                }
                return mine
            }
            for worker in 0..<min(concurrency, requests) {
                if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
                    let executors = executors as? [NIOTransport.LoopExecutor], !executors.isEmpty
                {
                    group.addTask(executorPreference: executors[worker % executors.count]) { try await work(worker) }
                } else {
                    group.addTask { try await work(worker) }
                }
            }
            var all: [Duration] = []
            for try await part in group { all += part }
            return all
        }
        let elapsed = clock.now - start
        return BenchRound(elapsed: elapsed, latencies: latencies, cpu: BenchRound.processCPUTime() - cpuAtStart)
    }
}

/// A scenario's rounds, summed up.
struct BenchSummary: Sendable {
    let scenario: String
    /// The median round's throughput: robust against one round disturbed by something else.
    let requestsPerSecond: Double
    let p50: Duration
    let p99: Duration
    /// The median round's CPU time per request.
    let cpuPerRequest: Duration

    init(scenario: String, rounds: [BenchRound]) {
        self.scenario = scenario
        let throughputs = rounds.map(\.requestsPerSecond).sorted()
        self.requestsPerSecond = throughputs[throughputs.count / 2]
        self.cpuPerRequest = rounds.map(\.cpuPerRequest).sorted()[rounds.count / 2]
        let latencies = rounds.flatMap(\.latencies).sorted()
        self.p50 = latencies[(latencies.count - 1) / 2]
        self.p99 = latencies[(latencies.count - 1) * 99 / 100]
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
#endif
