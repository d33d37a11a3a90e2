/// What a test may make of a ``MemoryStorage`` to stand for a database: a health check that takes
/// a while, and a catalogue that may change, so that the server asks its version (the asks are
/// counted: ``MemoryStorage/catalogueVersionAsks``) as it asks a database's.
package struct MemoryStorageProbes: Sendable {
    package var healthDelay: Duration
    package var catalogueMayChange: Bool

    package init(healthDelay: Duration = .zero, catalogueMayChange: Bool = false) {
        self.healthDelay = healthDelay
        self.catalogueMayChange = catalogueMayChange
    }
}
