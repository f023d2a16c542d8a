import Foundation
import LiveTodo
import Ripple

/// `live-todo [--host H] [--port N] [--db PATH]` serves the list;
/// `live-todo write [--db PATH] add TITLE | toggle ID | delete ID | clear-done` writes to
/// the same file from this process, as another program would.
let usage = """
    usage: live-todo [--host HOST] [--port PORT] [--db PATH]
           live-todo write [--db PATH] add TITLE | toggle ID | delete ID | clear-done
    Defaults: LIVE_TODO_HOST or 127.0.0.1, LIVE_TODO_PORT or 8080 (0: any free port),
    LIVE_TODO_DB or todos.sqlite.
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("live-todo: \(message)\n\(usage)\n".utf8))
    exit(2)
}

func say(_ line: String) {
    // Unbuffered: a program that reads this pipe gets the line at once.
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let environment = ProcessInfo.processInfo.environment
var host = environment["LIVE_TODO_HOST"] ?? "127.0.0.1"
var port = environment["LIVE_TODO_PORT"].flatMap { Int($0) } ?? 8080
var path = environment["LIVE_TODO_DB"] ?? "todos.sqlite"
var words: [String] = []

/// The value after an option.
func value(of option: String, _ arguments: inout ArraySlice<String>) -> String {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
    return value
}

var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--host": host = value(of: argument, &arguments)
    case "--port":
        guard let number = Int(value(of: argument, &arguments)) else { fail("--port needs a number") }
        port = number
    case "--db": path = value(of: argument, &arguments)
    case "-h", "--help":
        say(usage)
        exit(0)
    default: words.append(argument)
    }
}

func todoID(_ word: String) -> Int64 {
    guard let id = Int64(word) else { fail("a todo id is a number") }
    return id
}

switch words.first {
case nil:
    try await TodoServer.run(host: host, port: port, path: path) { url in
        say("Live todo list at \(url)")
    }
case "write":
    // A plain Ripple connection of this process: the server hears the commit as another
    // process's.
    let queue = try DatabaseQueue(path: path)
    try TodoStore.migrator.migrate(queue)
    let command = Array(words.dropFirst())
    do {
        switch command.first {
        case "add" where command.count == 2:
            let todo = try queue.write { db in try TodoStore.add(command[1], db) }
            say("added \(todo.id ?? 0)")
        case "toggle" where command.count == 2:
            let id = todoID(command[1])
            let todo = try queue.write { db in try TodoStore.toggle(id, db) }
            say("\(todo.done ? "done" : "not done") \(id)")
        case "delete" where command.count == 2:
            let id = todoID(command[1])
            try queue.write { db in try TodoStore.delete(id, db) }
            say("deleted \(id)")
        case "clear-done" where command.count == 1:
            let count = try queue.write { db in try TodoStore.clearDone(db) }
            say("cleared \(count)")
        default:
            fail("unknown write \(command.joined(separator: " "))")
        }
    } catch let failure as TodoStore.Failure {
        FileHandle.standardError.write(Data("live-todo: \(failure)\n".utf8))
        exit(1)
    }
default:
    fail("unknown command \(words.joined(separator: " "))")
}
