import Logging
import MovieAPI
import Movies
import Networking
import ReferenceAPI
import Swinject

/// The API's shared pieces: one context, one transport, and one client stack built on them,
/// which decides how its authenticated client, token client, auth service and interceptor fit;
/// the app resolves the authenticated client.
struct APIAssembly: Assembly {
    /// The name of the signed-in person's client stack.
    static let person = "person"

    let settings: AppSettings
    let closers: RunClosers

    func assemble(container: Container) {
        let settings = self.settings
        container.register((any APIContext).self) { _ -> any APIContext in
            settings.keepsCredential
                ? FileAPIContext(environment: settings.environment, fileURL: settings.credentialsFile, holder: .application(settings.clientCredentials))
                : InMemoryAPIContext(environment: settings.environment)
        }.inObjectScope(.container)

        let closers = self.closers
        container.register((any Transport).self) { _ -> any Transport in
            if let scenario = settings.stubScenario { return ReferenceStubs.transport(scenario: scenario) }
            let transport = AsyncHTTPClientTransport()
            closers.add { try await transport.shutdown() }
            return transport
        }.inObjectScope(.container)

        // One stack per run: its interceptor's single-flight renewal only works if every client shares it.
        container.register(APIClientStack.self) { resolver in
            APIClientStack(
                context: resolver.resolved(),
                transport: resolver.resolved(),
                clientCredentials: settings.clientCredentials,
                requestTimeout: settings.requestTimeout,
                callDeadline: settings.callDeadline,
                curlPlaceholders: settings.curlPlaceholders,
                logger: Logger(label: "marquee.http")
            )
        }.inObjectScope(.container)

        container.register(APIClient.self) { resolver in resolver.resolved(APIClientStack.self).client }

        // The signed-in person's own stack: their credential file entry, refreshed with the client
        // that signed them in, never replaced by the client's own grant.
        if let person = settings.person {
            container.register(APIClientStack.self, name: Self.person) { resolver in
                APIClientStack(
                    context: FileAPIContext(environment: settings.environment, fileURL: settings.credentialsFile, holder: .person(account: person)),
                    transport: resolver.resolved(),
                    clientCredentials: settings.clientCredentials,
                    person: person,
                    requestTimeout: settings.requestTimeout,
                    callDeadline: settings.callDeadline,
                    curlPlaceholders: settings.curlPlaceholders,
                    logger: Logger(label: "marquee.http")
                )
            }.inObjectScope(.container)
        }
    }
}
