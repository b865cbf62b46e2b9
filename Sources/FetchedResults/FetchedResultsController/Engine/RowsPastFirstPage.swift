import Dispatch
import SQLiteStoreCore

/// The rows past a first page, asked for by the consumer while the rest of the index is read
/// in the background, in the page's snapshot: the background read answers between its steps,
/// from the rows it has read or with keyset queries in its own read transaction (never
/// reading the results again, never waiting for the rest); once it has read everything, the
/// complete index answers.
final class RowsPastFirstPage<M: StoreModel>: Sendable {
    /// Rows asked for: rows `rows` of section `section` (section 0 without sections).
    struct Wanted: Sendable {
        let section: Int
        let rows: Range<Int>
    }

    /// Rowids at consecutive rows of a section, with their objects when read in the page's snapshot.
    struct Rows: Sendable {
        var rowIDs: [Int64]
        var models: [Int64: M]?
    }

    private struct Request {
        let wanted: Wanted
        let answer: HandOff<Rows>
    }

    private enum State {
        case reading([Request])
        case complete(ResultIndex)
        case stopped(any Error)
    }

    private let state = Locked(State.reading([]))
    /// For tests: how many rows the background read reads before it holds (it then only
    /// answers requests) until `resume()` or its cancellation; `nil`: it never holds.
    private let hold: Locked<Int?>
    /// Wakes a held background read: a request came, or the hold ended.
    private let wake = DispatchSemaphore(value: 0)

    /// Rows past a first page; `holdingAfter` holds the background read once it has read
    /// that many rows (tests only, to ask while it is certainly not done).
    init(holdingAfter rows: Int? = nil) {
        hold = Locked(rows)
    }

    // MARK: The consumer's side (blocks until answered)

    /// The rows `wanted` of the complete results (fewer past their section's end).
    func rows(_ wanted: Wanted) throws -> Rows {
        let answer = HandOff<Rows>()
        let immediate: Result<Rows, any Error>? = state.withLock { state in
            switch state {
            case .reading(let requests):
                state = .reading(requests + [Request(wanted: wanted, answer: answer)])
                return nil
            case .complete(let index): return .success(Self.rows(wanted, in: index))
            case .stopped(let error): return .failure(error)
            }
        }
        if let immediate { return try immediate.get() }
        if hold.current != nil { wake.signal() }
        return try answer.wait()
    }

    /// Ends the hold of the background read (tests).
    func resume() {
        hold.withLock { $0 = nil }
        wake.signal()
    }

    // MARK: The background read's side

    /// Answers the requests with `read` (given the rows wanted, it returns them in the page's
    /// snapshot), having read `rowsRead` rows of the index. Held (tests), it goes on answering
    /// until resumed, and throws `CancellationError` once `isCancelled` says so.
    func serve(rowsRead: Int, isCancelled: () -> Bool, _ read: (Wanted) throws -> Rows) throws {
        try answer(read)
        while let held = hold.current, rowsRead >= held {
            _ = wake.wait(timeout: .now() + .milliseconds(10))
            if isCancelled() { throw CancellationError() }
            try answer(read)
        }
    }

    private func answer(_ read: (Wanted) throws -> Rows) throws {
        let requests = state.withLock { state -> [Request] in
            guard case .reading(let requests) = state else { return [] }
            state = .reading([])
            return requests
        }
        for request in requests {
            do {
                _ = request.answer.fulfil(.success(try read(request.wanted)))
            } catch {
                _ = request.answer.fulfil(.failure(error))
                throw error
            }
        }
    }

    /// The complete index is read: it answers every request from now on.
    func complete(with index: ResultIndex) {
        for request in finish(.complete(index)) { _ = request.answer.fulfil(.success(Self.rows(request.wanted, in: index))) }
    }

    /// The background read stopped with `error` (cancelled, or failed): every request throws it.
    func stop(with error: any Error) {
        for request in finish(.stopped(error)) { _ = request.answer.fulfil(.failure(error)) }
    }

    /// Moves to `final`, returning the requests left unanswered.
    private func finish(_ final: State) -> [Request] {
        state.withLock { state -> [Request] in
            guard case .reading(let requests) = state else { return [] }
            state = final
            return requests
        }
    }

    private static func rows(_ wanted: Wanted, in index: ResultIndex) -> Rows {
        Rows(rowIDs: index.rowIDs(inSection: wanted.section, rows: wanted.rows), models: nil)
    }
}
