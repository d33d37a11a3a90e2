import Swinject

extension Resolver {
    /// The registered instance of `type`. A missing registration is a wiring bug in the
    /// composition root, found by its tests, so it stops the program with the type's name.
    func resolved<Service>(_ type: Service.Type = Service.self, name: String? = nil) -> Service {
        guard let service = resolve(type, name: name) else {
            preconditionFailure("the composition root registers no \(type)\(name.map { " named \($0)" } ?? "")")
        }
        return service
    }
}
