/// An answer's body that is read only as it is asked for: each ``AsyncIterator/next()`` reads one
/// chunk from the connection, and between two asks nothing is read. So a reader that stops asking
/// leaves the rest in the connection (and the transport's own small buffer), and the server, once
/// the socket's buffers are full, waits: the body holds no more than its reader wants, whatever a
/// server sends. It is read once, by one task at a time.
public struct StreamedBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    private let makeReader: @Sendable () -> AsyncIterator

    /// A body read from `chunks` as it is asked for.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == [UInt8] {
        makeReader = { AsyncIterator(chunks.makeAsyncIterator()) }
    }

    public func makeAsyncIterator() -> AsyncIterator { makeReader() }

    /// Reads the next chunk when asked, and not before. It may be handed to another task (to race
    /// a read with a timer), but only one read may be under way at a time.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        private let chunks: Chunks

        fileprivate init<Base: AsyncIteratorProtocol>(_ base: Base) where Base.Element == [UInt8] {
            chunks = Chunks(base)
        }

        public func next() async throws -> [UInt8]? { try await chunks.next() }
    }

    /// The iterator of the chunks, in a box that a task can be handed.
    private final class Chunks: @unchecked Sendable {
        private let read: () async throws -> [UInt8]?

        init<Base: AsyncIteratorProtocol>(_ base: Base) where Base.Element == [UInt8] {
            var base = base
            read = { try await base.next() }
        }

        func next() async throws -> [UInt8]? { try await read() }
    }
}
