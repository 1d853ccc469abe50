// Runs one in-memory row (BenchmarkScenarios) a given number of times, for callgrind to count its
// instructions: `InstructionCounts ROW CALLS`, or `InstructionCounts --list` for the rows.
// Benchmarks/instruction-counts.sh runs it twice per row and takes the difference, so that start-up
// and the first calls cancel out.
//
// The main thread blocks on a semaphore instead of being an async main: an async main parks the main
// thread in dispatch_main, which valgrind 3.19 does not survive.
import BenchmarkScenarios
import Dispatch
import Foundation

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--list" {
    print(([Rows.raw] + Rows.clients.map(\.name) + [InProcessNIORow.name] + DecodeRows.rows.map(\.name)).joined(separator: "\n"))
    exit(0)
}
// The two call counts callgrind runs a row with: fewer for the rows that decode large documents.
if arguments.first == "--calls", arguments.count == 2 {
    let calls = DecodeRows.rows.first { $0.name == arguments.last }?.calls ?? (1000, 3000)
    print("\(calls.0) \(calls.1)")
    exit(0)
}
guard arguments.count == 2, let name = arguments.first, let calls = Int(arguments.last!), calls >= 0,
    name == Rows.raw || name == InProcessNIORow.name || Rows.clients.contains(where: { $0.name == name })
        || DecodeRows.rows.contains(where: { $0.name == name })
else {
    FileHandle.standardError.write(Data("usage: InstructionCounts ROW CALLS (rows: InstructionCounts --list)\n".utf8))
    exit(2)
}

/// Calls `call` `calls` times; returns a sum of what it answered, printed so that no call is
/// optimised away.
func repeatCall(_ calls: Int, _ call: () async throws -> Film) async throws -> Int {
    var sum = 0
    for _ in 0..<calls { sum &+= try await call().id }
    return sum
}

let finished = DispatchSemaphore(value: 0)
// Detached: the main actor's queue is the main thread's, which waits below.
Task.detached { [name, calls, finished] in
    do {
        let sum: Int
        if let row = DecodeRows.rows.first(where: { $0.name == name }) {
            var total = 0
            for _ in 0..<calls { total &+= try row.run() }
            print("\(name): \(calls) calls (\(total))")
            finished.signal()
            return
        }
        if name == InProcessNIORow.name {
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
                FileHandle.standardError.write(Data("\(name) needs task executors (macOS 15 and later)\n".utf8))
                exit(2)
            }
            sum = try await InProcessNIORow.run(calls: calls)
        } else if name == Rows.raw {
            let call = RawTransportCall()
            sum = try await repeatCall(calls) { try await call() }
        } else {
            let client = Rows.clients.first { $0.name == name }!.makeClient()
            sum = try await repeatCall(calls) { try await client.send(Rows.filmRequest) }
        }
        print("\(name): \(calls) calls (\(sum))")
    } catch {
        FileHandle.standardError.write(Data("\(name) failed: \(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
