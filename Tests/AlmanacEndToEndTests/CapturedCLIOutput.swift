import Almanac
import TestSupport

extension CapturedOutput {
    /// The CLI's output, captured (`AlmanacCLI.run(…, output: captured.output)`).
    var output: AlmanacCLI.Output { AlmanacCLI.Output(out: writeOut, err: writeErr) }
}
