import Foundation

/// `CLOCK_MONOTONIC` in nanoseconds: the same clock in the server and the client
/// processes of one machine, so that a stamp written by one is read against the other.
func monotonicNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// The resident size of process `pid` (this one by default), from `/proc/<pid>/statm`;
/// nil where there is no such file.
func residentBytes(of pid: String = "self") -> Int? {
    guard let statm = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Gives the pages that the allocator holds free back to the system (glibc's
/// `malloc_trim`, looked up at run time: Swift's Glibc module does not declare it), so
/// that the resident size is closer to what is in use; false where there is none.
@discardableResult
func trimAllocator() -> Bool {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return false }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
    return true
}
