import BenchCore
import Foundation
import GRDB

// W9: associations, as GRDB's documentation writes them.

extension GRDBSubject {
    struct Author: Codable, FetchableRecord, TableRecord {
        static let books = hasMany(Book.self)
        var id: Int64, name: String, country: String
    }

    struct Book: Codable, FetchableRecord, TableRecord {
        static let author = belongsTo(Author.self)
        var id: Int64, authorId: Int64, title: String, year: Int64
    }

    struct AuthorInfo: Decodable, FetchableRecord {
        var author: Author
        var books: [Book]
    }

    struct BookInfo: Decodable, FetchableRecord {
        var book: Book
        var author: Author
    }

    static func makeAuthorsAndBooks(_ directory: URL, _ sizes: Sizes) throws -> DatabaseQueue {
        let dbQueue = try makeQueue(directory)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: AuthorsAndBooks.schema)
            try db.execute(sql: AuthorsAndBooks.populationSQL(sizes))
        }
        return dbQueue
    }

    /// W9a: every author with her books, prefetched.
    static func authorsIncludingAllBooks(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let dbQueue = try makeAuthorsAndBooks(directory, sizes)
        var infos: [AuthorInfo] = []
        let seconds = try measure {
            infos = try dbQueue.read { db in
                try Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
            }
        }
        precondition(infos.count == sizes.w9Authors && infos.allSatisfy { $0.books.count == sizes.w9BooksPerAuthor })
        return Sample(seconds: seconds)
    }

    /// W9b: every book with its author, joined.
    static func booksIncludingAuthor(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let dbQueue = try makeAuthorsAndBooks(directory, sizes)
        var infos: [BookInfo] = []
        let seconds = try measure {
            infos = try dbQueue.read { db in
                try Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchAll(db)
            }
        }
        precondition(infos.count == sizes.w9Authors * sizes.w9BooksPerAuthor && infos.allSatisfy { $0.author.id == $0.book.authorId })
        return Sample(seconds: seconds)
    }
}
