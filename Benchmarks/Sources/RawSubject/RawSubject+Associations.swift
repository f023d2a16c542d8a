import BenchCore
import CSQLiteBench
import Foundation

// W9's physical limit: the queries Ripple and GRDB run, and the same structs, by hand.

extension RawSubject {
    struct AuthorInfo { var author: RawAuthor; var books: [RawBook] }
    struct BookInfo { var book: RawBook; var author: RawAuthor }

    static func makeAuthorsAndBooks(_ directory: URL, _ sizes: Sizes) throws -> Connection {
        let connection = try Connection(path: directory.appendingPathComponent("db.sqlite").path)
        try connection.execute(AuthorsAndBooks.schema)
        try connection.execute(AuthorsAndBooks.populationSQL(sizes))
        return connection
    }

    static func author(_ statement: OpaquePointer, at index: CInt) -> RawAuthor {
        RawAuthor(id: sqlite3_column_int64(statement, index), name: columnText(statement, index + 1), country: columnText(statement, index + 2))
    }

    static func book(_ statement: OpaquePointer, at index: CInt) -> RawBook {
        RawBook(id: sqlite3_column_int64(statement, index), authorId: sqlite3_column_int64(statement, index + 1),
                title: columnText(statement, index + 2), year: sqlite3_column_int64(statement, index + 3))
    }

    /// W9a: the authors, then their books in one query, grouped by author.
    static func authorsWithBooks(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let connection = try makeAuthorsAndBooks(directory, sizes)
        var infos: [AuthorInfo] = []
        let seconds = try measure {
            let authors = try connection.prepare("SELECT * FROM author")
            defer { sqlite3_finalize(authors) }
            var indexOfAuthor: [Int64: Int] = [:]
            while sqlite3_step(authors) == SQLITE_ROW {
                let author = author(authors, at: 0)
                indexOfAuthor[author.id] = infos.count
                infos.append(AuthorInfo(author: author, books: []))
            }
            let ids = infos.map { String($0.author.id) }.joined(separator: ",")
            let books = try connection.prepare("SELECT * FROM book WHERE authorId IN (\(ids))")
            defer { sqlite3_finalize(books) }
            while sqlite3_step(books) == SQLITE_ROW {
                let book = book(books, at: 0)
                infos[indexOfAuthor[book.authorId]!].books.append(book)
            }
        }
        guard infos.count == sizes.w9Authors, infos.allSatisfy({ $0.books.count == sizes.w9BooksPerAuthor }) else {
            throw RawError(description: "wrong count")
        }
        return Sample(seconds: seconds)
    }

    /// W9b: books joined with their authors.
    static func booksWithAuthor(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let connection = try makeAuthorsAndBooks(directory, sizes)
        var infos: [BookInfo] = []
        let seconds = try measure {
            let select = try connection.prepare("SELECT book.*, author.* FROM book JOIN author ON author.id = book.authorId")
            defer { sqlite3_finalize(select) }
            while sqlite3_step(select) == SQLITE_ROW {
                infos.append(BookInfo(book: book(select, at: 0), author: author(select, at: 4)))
            }
        }
        guard infos.count == sizes.w9Authors * sizes.w9BooksPerAuthor else { throw RawError(description: "wrong count") }
        return Sample(seconds: seconds)
    }
}
