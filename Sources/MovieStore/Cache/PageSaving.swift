import Movies

/// The pages of a walk being stored while the next one is read: one page at a time, in the order
/// they came, each started once the one before it is stored; the walk's last store failure is kept.
/// A save is not cancelled with the walk: a walk cancelled mid-way still waits for its page.
struct PageSaving {
    typealias Save = @Sendable ([Movie]) async -> StoreError?

    private let save: Save
    private var running: Task<StoreError?, Never>?
    private var lastFailure: StoreError?

    init(_ save: @escaping Save) {
        self.save = save
    }

    /// Starts storing `movies` once the page being stored is.
    mutating func start(_ movies: [Movie]) async {
        await waitForRunning()
        let save = self.save
        running = Task { await save(movies) }
    }

    /// Waits until every page started is stored; the last failure of the walk, if any.
    mutating func finish() async -> StoreError? {
        await waitForRunning()
        return lastFailure
    }

    private mutating func waitForRunning() async {
        guard let running else { return }
        self.running = nil
        lastFailure = await running.value ?? lastFailure
    }
}
