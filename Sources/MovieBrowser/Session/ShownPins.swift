import MovieStore

/// Keeps the store told what the screen shows, one write at a time and only when it changed:
/// each new set replaces the last, after it.
struct ShownPins<Service: OfflineMovieService> {
    let service: Service
    private var last: ShownOnScreen?
    private var writing: Task<Void, Never>?

    init(service: Service) {
        self.service = service
    }

    mutating func keep(_ shown: ShownOnScreen) {
        guard shown != last else { return }
        last = shown
        writing = Task { [service, previous = writing] in
            await previous?.value
            await service.show(shown)
        }
    }

    /// Forgets what the screen showed, when the browser ends (a killed browser's pins are
    /// forgotten when the store finds its process gone).
    mutating func end() async {
        keep(.nothing)
        await writing?.value
    }
}
