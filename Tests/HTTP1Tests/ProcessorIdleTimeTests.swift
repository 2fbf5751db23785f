import Testing
import Transport

/// `/proc/stat`'s first line, read strictly: the governor's one input from outside the process.
@Suite struct ProcessorIdleTimeTests {
    @Test func idleAndIowaitOfTheAggregateLine() {
        let text = "cpu  4705 150 1120 16250 520 0 45 0 0 0\ncpu0 2000 75 560 8125 260 0 20 0 0 0\n"
        #expect(ProcessorIdleTime.idleTicks(inFirstLineOf: Array(text.utf8)) == 16_770)
    }

    @Test func anythingElseIsUnknown() {
        for text in ["", "cpu0 1 2 3 4 5\n", "cpu 1 2 3 4\n", "cpu 1 2 3 x 5\n", "cpu 1 2 3 -4 5\n",
                     "intr 1 2 3 4 5\n", "cpu 1 2 3 99999999999999999999 5\n",
                     "cpu 1 2 3 18446744073709551615 1\n", "\ncpu 1 2 3 4 5\n"] {
            #expect(ProcessorIdleTime.idleTicks(inFirstLineOf: Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func theMachineReadingGrows() throws {
        let first = try #require(ProcessorIdleTime.read())
        let second = try #require(ProcessorIdleTime.read())
        #expect(second >= first)
    }
}
