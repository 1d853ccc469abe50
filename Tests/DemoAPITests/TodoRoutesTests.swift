import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import DemoAPI

@Suite("Todos: CRUD, filters, pagination, validation")
struct TodoRoutesTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func listsAllSeededTodosInCamelCase() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/todos", method: .get) { response in
                #expect(response.status == .ok)
                let todos = response.json
                #expect(todos.arrayCount == 200)
                #expect(todos[0]?["userId"] == .number(1))
                #expect(todos[0]?["id"] == .number(1))
                #expect(todos[0]?["title"]?.stringValue?.isEmpty == false)
                #expect(todos[199]?["userId"] == .number(10))
                #expect(response.header("X-Total-Count") == nil)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func filtersByUserAndCompletion() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/todos?userId=3", method: .get) { response in
                let todos = response.json
                #expect(todos.arrayCount == 20)
                #expect(todos[0]?["userId"] == .number(3))
            }
            try await client.execute(uri: "/todos?userId=3&completed=true", method: .get) { response in
                #expect(response.json.arrayCount == 8)
            }
            try await client.execute(uri: "/todos?completed=maybe", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func paginatesWithLinkAndTotalCount() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/todos?completed=false&page=2&limit=10", method: .get) { response in
                #expect(response.status == .ok)
                let todos = response.json
                #expect(todos.arrayCount == 10)
                #expect(response.header("X-Total-Count") == "120")
                let link = try #require(response.header("Link"))
                #expect(
                    link == """
                        <http://localhost/todos?completed=false&page=1&limit=10>; rel="first", \
                        <http://localhost/todos?completed=false&page=1&limit=10>; rel="prev", \
                        <http://localhost/todos?completed=false&page=3&limit=10>; rel="next", \
                        <http://localhost/todos?completed=false&page=12&limit=10>; rel="last"
                        """
                )
            }
            try await client.execute(uri: "/todos?page=1", method: .get) { response in
                #expect(response.json.arrayCount == 10)
                let link = try #require(response.header("Link"))
                #expect(!link.contains("rel=\"prev\""))
                #expect(link.contains("<http://localhost/todos?page=20&limit=10>; rel=\"last\""))
            }
            try await client.execute(uri: "/todos?page=2&limit=100", method: .get) { response in
                #expect(response.json.arrayCount == 100)
                #expect(response.header("Link")?.contains("rel=\"next\"") == false)
            }
            for bad in ["/todos?page=0", "/todos?page=x", "/todos?page=1&limit=101", "/todos?limit=0"] {
                try await client.execute(uri: bad, method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func createsReadsUpdatesAndDeletes() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(
                uri: "/todos",
                method: .post,
                headers: jsonHeaders,
                body: jsonBody(#"{"userId":2,"title":"Write tests"}"#)
            ) { response in
                #expect(response.status == .created)
                #expect(response.headers[.location] == "/todos/201")
                let todo = response.json
                #expect(todo["id"] == .number(201))
                #expect(todo["completed"] == .bool(false))
            }
            try await client.execute(uri: "/todos/201", method: .get) { response in
                #expect(response.json["title"] == .string("Write tests"))
            }
            try await client.execute(uri: "/todos/201", method: .patch, headers: jsonHeaders, body: jsonBody(#"{"completed":true}"#)) {
                response in
                #expect(response.status == .ok)
                #expect(response.json["completed"] == .bool(true))
                #expect(response.json["title"] == .string("Write tests"))
            }
            try await client.execute(
                uri: "/todos/201",
                method: .put,
                headers: jsonHeaders,
                body: jsonBody(#"{"userId":4,"title":"Replaced","completed":false}"#)
            ) { response in
                let todo = response.json
                #expect(todo["userId"] == .number(4))
                #expect(todo["title"] == .string("Replaced"))
                #expect(todo["id"] == .number(201))
            }
            try await client.execute(uri: "/todos/201", method: .delete) { response in
                #expect(response.status == .noContent)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/todos/201", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.json["message"] == .string("No todo with id '201'."))
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func unknownOrNonIntegerIDsAre404() async throws {
        try await withDemoRouter { client, _ in
            for uri in ["/todos/999", "/todos/abc"] {
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .notFound) }
                try await client.execute(uri: uri, method: .delete) { #expect($0.status == .notFound) }
                try await client.execute(uri: uri, method: .patch, headers: jsonHeaders, body: jsonBody(#"{"completed":true}"#)) {
                    #expect($0.status == .notFound)
                }
            }
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test func validationErrorsNameEachField() async throws {
        try await withDemoRouter { client, _ in
            try await client.execute(uri: "/todos", method: .post, headers: jsonHeaders, body: jsonBody(#"{"userId":0,"title":""}"#)) {
                response in
                #expect(response.status == .unprocessableContent)
                let body = response.json
                #expect(body["code"] == .string("validation_failed"))
                #expect(body["errors"]?.arrayCount == 2)
                #expect(body["errors"]?[0]?["field"] == .string("userId"))
                #expect(body["errors"]?[1]?["field"] == .string("title"))
            }
            let longTitle = String(repeating: "x", count: 201)
            try await client.execute(
                uri: "/todos",
                method: .post,
                headers: jsonHeaders,
                body: jsonBody(#"{"userId":1,"title":"\#(longTitle)"}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                let errors = response.json["errors"]
                #expect(errors?[0]?["message"] == .string("must be at most 200 characters"))
            }
            try await client.execute(uri: "/todos/1", method: .put, headers: jsonHeaders, body: jsonBody(#"{"userId":1,"title":"t"}"#)) {
                response in
                #expect(response.status == .unprocessableContent)
                let errors = response.json["errors"]
                #expect(errors?[0]?["field"] == .string("completed"))
            }
            try await client.execute(uri: "/todos", method: .post, headers: jsonHeaders, body: jsonBody("[1,2]")) { response in
                #expect(response.status == .badRequest)
            }
        }
    }
}
