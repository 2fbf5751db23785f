import Almanac
import Foundation

// Parse the command line and hand over to the Almanac module; exit with its status.
exit(AlmanacCLI.run(arguments: Array(CommandLine.arguments.dropFirst()),
                    environment: ProcessInfo.processInfo.environment))
