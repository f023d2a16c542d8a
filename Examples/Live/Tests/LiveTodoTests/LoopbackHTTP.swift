import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 client for loopback servers, on a plain socket: Foundation's URLSession
/// on Linux refuses chromedriver's answers, whose header lines have no space after the
/// colon. One request per connection; the body is read by its Content-Length.
enum LoopbackHTTP {
    struct Response: Sendable {
        var status: Int
        var body: Data
    }

    static func send(port: Int, method: String, path: String, body: Data? = nil) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            // Blocking reads, off the concurrency pool.
            DispatchQueue.global().async {
                continuation.resume(with: Result { try exchange(port: port, method: method, path: path, body: body) })
            }
        }
    }

    private static func exchange(port: Int, method: String, path: String, body: Data?) throws -> Response {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("no socket") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw TestFailure("cannot connect to port \(port)") }

        var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n".utf8)
        if let body {
            request += Data("Content-Type: application/json\r\nContent-Length: \(body.count)\r\n".utf8)
        }
        request += Data("\r\n".utf8)
        request += body ?? Data()
        try request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw TestFailure("cannot send to port \(port)") }
                sent += count
            }
        }

        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let separator = Data("\r\n\r\n".utf8)
        while true {
            if let end = received.range(of: separator) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let lines = head.components(separatedBy: "\r\n")
                let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
                let length = lines.dropFirst().compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first
                let body = received[end.upperBound...]
                if let length, body.count >= length {
                    return Response(status: status, body: Data(body.prefix(length)))
                }
            }
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else {
                // The server closed: what came is the whole answer, if it has a head.
                guard let end = received.range(of: separator) else { throw TestFailure("no answer from port \(port)") }
                let status = String(decoding: received[..<end.lowerBound], as: UTF8.self).split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                return Response(status: status, body: Data(received[end.upperBound...]))
            }
            received.append(contentsOf: buffer[0..<count])
        }
    }
}
