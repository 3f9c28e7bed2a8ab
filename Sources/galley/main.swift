import Foundation
import GalleyCLI

exit(GalleyCLI.run(CommandLine.arguments))
