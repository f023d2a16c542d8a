import Foundation
import RippleOracle

#if RIPPLE_FUZZ
import CFuzzSupport
#endif

// Built by Scripts/fuzz (AddressSanitizer, coverage for libFuzzer, libFuzzer's driver, and
// `-D RIPPLE_FUZZ`), it fuzzes `FuzzHarness`. Built plainly, it replays the input files it
// is given.
@main
struct RippleFuzz {
    static func main() throws {
        #if RIPPLE_FUZZ
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                FuzzHarness.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                return 0
            })
        #else
        for path in CommandLine.arguments.dropFirst() {
            FuzzHarness.run(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            print("replayed \(path)")
        }
        #endif
    }
}
