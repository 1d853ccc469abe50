#if DemoAPI
/// Runs `body` with a started server and stops the server afterwards, whether `body` returns or
/// throws: the shape of every `withServer` of DemoAPI's servers.
func withStopping<Server: Sendable, T>(
    _ server: Server,
    stop: (Server) async -> Void,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Server) async throws -> T
) async throws -> T {
    do {
        let value = try await body(server)
        await stop(server)
        return value
    } catch {
        await stop(server)
        throw error
    }
}
#endif
