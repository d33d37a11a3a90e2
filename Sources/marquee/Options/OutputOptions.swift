import ArgumentParser

/// How the scriptable client commands print their answer.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print the answer as JSON, with where it came from, instead of text.")
    var json = false

    @Flag(help: "Print a line for every answer as it arrives, in the original app's words.")
    var trace = false

    @Flag(help: "Exit with status 3 when the answer shown is a stored one because the network failed.")
    var failOnStale = false
}
