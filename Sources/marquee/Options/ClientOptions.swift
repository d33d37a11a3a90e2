import ArgumentParser

/// The options every client command accepts after its name.
struct ClientOptions: ParsableArguments {
    @Option(
        name: .customLong("env"),
        help: ArgumentHelp(
            "Which API to use: embedded, production, or a base URL such as http://127.0.0.1:8080/api/.",
            valueName: "environment"
        )
    )
    var environment: EnvironmentOption = .embedded

    @Flag(help: "Print the movies as JSON instead of a table.")
    var json = false
}
