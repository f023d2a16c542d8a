import Ripple
import RippleLive

/// How many todos there are, and how many are done.
public struct TodoSummary: Codable, Equatable, Sendable {
    /// Every todo.
    public var total: Int
    /// The todos done.
    public var done: Int
}

/// The live queries the page subscribes to, on one connection: the two values of one
/// commit arrive together, so the list and its counts never disagree.
public enum TodoQueries {
    /// `q=todos`: every todo, in the order they were added.
    public static let todos = LiveQuery("todos") { _ in
        LiveFetch(all: TodoStore.all)
    }

    /// `q=summary`: the counts under the list.
    public static let summary = LiveQuery("summary") { _ in
        LiveFetch(tracking: Todo.all()) { db in
            TodoSummary(
                total: try Todo.fetchCount(db),
                done: try Todo.filter(Todo.Columns.done == true).fetchCount(db))
        }
    }

    /// Both queries.
    public static let all = [todos, summary]
}
