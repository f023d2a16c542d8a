import Foundation
import Hummingbird
import HummingbirdWebSocket
import Ripple
import RippleLive

/// What a write endpoint answers: the id of its commit, which the page waits for on its
/// stream before it calls the write done (read your writes).
public struct WriteReceipt: ResponseEncodable, Decodable, Equatable, Sendable {
    /// The todo written, when the write was about one.
    public var todo: Todo?
    /// The event id of the commit: `<epoch>-<seq>`.
    public var event: String
    /// The commit sequence, the number after the dash of `event`.
    public var seq: UInt64
}

/// The routes of the live todo list.
public enum TodoRoutes {
    /// Body of `POST /todos`.
    struct NewTodo: Decodable {
        var title: String
    }

    /// `GET /` (the page), `GET /live` (the live queries as an event stream),
    /// `GET /live/ws` (the same over WebSocket), and the writes: `POST /todos` with
    /// `{"title":"..."}`, `POST /todos/{id}/toggle`, `POST /todos/{id}/delete`,
    /// `POST /todos/clear-done`.
    public static func makeRouter(hub: LiveHub, page: ByteBuffer) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: page))
        }
        router.addLiveQueries(hub, at: "live")
        router.addLiveWebSocket(hub, at: "live/ws")
        router.post("todos") { request, context -> WriteReceipt in
            let new = try await request.decode(as: NewTodo.self, context: context)
            return try await write(hub) { db in try TodoStore.add(new.title, db) }
        }
        router.post("todos/clear-done") { _, _ -> WriteReceipt in
            try await write(hub) { db in
                _ = try TodoStore.clearDone(db)
                return nil
            }
        }
        router.post("todos/:id/toggle") { _, context -> WriteReceipt in
            let id = try context.parameters.require("id", as: Int64.self)
            return try await write(hub) { db in try TodoStore.toggle(id, db) }
        }
        router.post("todos/:id/delete") { _, context -> WriteReceipt in
            let id = try context.parameters.require("id", as: Int64.self)
            return try await write(hub) { db in
                try TodoStore.delete(id, db)
                return nil
            }
        }
        return router
    }

    /// Runs `updates` in the hub, which returns once the commit's values are posted to the
    /// streams; a refused write is a 400 or a 404 and commits nothing.
    static func write(_ hub: LiveHub, _ updates: @escaping @Sendable (Database) throws -> Todo?) async throws -> WriteReceipt {
        do {
            let (todo, eventID) = try await hub.write(updates)
            return WriteReceipt(todo: todo, event: eventID.description, seq: eventID.sequence)
        } catch let failure as TodoStore.Failure {
            switch failure {
            case .emptyTitle: throw HTTPError(.badRequest, message: failure.description)
            case .notFound: throw HTTPError(.notFound, message: failure.description)
            }
        }
    }
}
