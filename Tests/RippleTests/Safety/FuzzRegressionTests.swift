import Foundation
import RippleOracle
import XCTest

/// Replays the fuzzer's seed inputs and every input that once crashed Ripple
/// (Tests/Fuzz/Crashes, written by Scripts/fuzz): none may crash it.
final class FuzzRegressionTests: XCTestCase {
    func testFuzzInputsDoNotCrash() throws {
        let fuzz = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz")
        var replayed = 0
        for folder in ["Corpus", "Crashes"] {
            let directory = fuzz.appendingPathComponent(folder)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files.sorted() where !file.hasPrefix(".") {
                FuzzHarness.run(Array(try Data(contentsOf: directory.appendingPathComponent(file))))
                replayed += 1
            }
        }
        XCTAssertGreaterThanOrEqual(replayed, 5, "the seed corpus is in Tests/Fuzz/Corpus")
    }
}
