// swift-format-ignore-file
// (The samples here are copies of documents, compared line for line.)
import ExampleServices
import Foundation
import NetworkingKit
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The Swift samples of the Transfers DocC article, compiled: each sits between `article-sample`
// markers, exactly as in the article, and the test below fails when they differ.

private struct UploadReceipt: Decodable, Sendable {
    let id: Int
}

private enum TransfersArticleSamples {
    static func upload(client: LiveAPIClient, posterURL: URL, scriptURL: URL) async throws {
        // <article-sample>
        var form = MultipartFormData()
        form.append("Luxo Jr.", name: "title")
        form.append(Data(#"{"year":1986}"#.utf8), name: "meta", contentType: "application/json")
        try form.append(fileAt: posterURL, name: "poster")
        try form.append(fileAt: scriptURL, name: "script", filename: "script – final.pdf")

        let receipt = try await client.upload(.multipart(form), to: Request<UploadReceipt>(path: "/upload/multipart", method: .post)) { progress in
            print(progress.fraction ?? 0)
        }
        // </article-sample>
        _ = receipt
    }

    static func download(client: LiveAPIClient, trailerURL: URL) async throws {
        // <article-sample>
        do {
            let file = try await client.download(Request<Data>(path: "/films/up/trailer"), to: trailerURL, resumable: true) { progress in
                print(progress)
            }
            print("\(file.size) bytes, \(file.resumedFrom) of them from an earlier try")
        } catch NetworkError.transport(let failure) where failure.kind == .truncatedBody {
            // The partial file is kept: the next call with `resumable: true` asks only for the rest.
        }
        // </article-sample>
    }

    static func stream(client: LiveAPIClient) async throws {
        // <article-sample>
        let answer = try await client.bytes(Request<Data>(path: "/ndjson"))
        print(answer.status)
        for try await chunk in answer.body {
            print(String(decoding: chunk, as: UTF8.self), terminator: "")
        }
        // </article-sample>
    }

    static func live(client: LiveAPIClient) async throws {
        // <article-sample>
        for try await event in client.events(Request<Data>(path: "/feed")) where event.event == "tick" {
            print(event.id, event.data)
        }
        for try await todo in client.lines(Request<Data>(path: "/todos/export"), as: TodoDTO.self) {
            print(todo.title)
        }
        // </article-sample>
    }

    static func progress(client: LiveAPIClient, trailerURL: URL) async throws {
        // <article-sample>
        let transfer = client.downloadTask(Request<Data>(path: "/films/up/trailer"), to: trailerURL)
        for await update in transfer.progress {
            print(update.completed)
        }
        let file = try await transfer.value
        print(file.location)
        // </article-sample>
    }

    static func foundationProgress(client: LiveAPIClient, trailerURL: URL) async throws {
        // <article-sample>
        let overall = Progress(totalUnitCount: -1)
        let file = try await client.download(Request<Data>(path: "/films/up/trailer"), to: trailerURL) { progress in
            overall.totalUnitCount = progress.total ?? -1
            overall.completedUnitCount = progress.completed
        }
        print(overall.fractionCompleted, file.size)
        // </article-sample>
    }
}

@Suite("Transfers article samples")
struct TransfersArticleTests {
    @Test("every Swift sample of Transfers.md is compiled here, unchanged")
    func samplesMatch() throws {
        try CompiledSamples.expectSame(document: "Sources/NetworkingKit/NetworkingKit.docc/Transfers.md", testFile: #filePath, marker: "article-sample")
    }
}
