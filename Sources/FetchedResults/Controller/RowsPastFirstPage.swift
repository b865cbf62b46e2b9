import SQLiteStoreCore

/// The rows past a first page, asked for by the consumer while the rest of the index is read
/// in the background, in the page's snapshot: the background read answers between its steps,
/// from the rows it has read or with a keyset query in its own read transaction (never
/// reading the results again); once it has read everything, the complete index answers.
final class RowsPastFirstPage<M: StoreModel>: Sendable {
    /// Rowids at consecutive positions, with their objects when read in the page's snapshot.
    struct Rows: Sendable {
        var rowIDs: [Int64]
        var models: [Int64: M]?
    }

    private struct Request {
        /// The positions asked for; `nil` asks for the complete index.
        let positions: Range<Int>?
        let answer: HandOff<Answer>
    }

    private enum Answer {
        case rows(Rows)
        case complete(ResultIndex)
    }

    private enum State {
        case reading([Request])
        case complete(ResultIndex)
        case stopped(any Error)
    }

    private let state = Locked(State.reading([]))

    // MARK: The consumer's side (blocks until answered)

    /// The rowids at `positions` of the complete results (fewer at their end).
    func rows(at positions: Range<Int>) throws -> Rows {
        switch try ask(positions) {
        case .rows(let rows): rows
        case .complete(let index): Rows(rowIDs: index.rowIDs(in: positions), models: nil)
        }
    }

    /// The complete index, once read.
    func completeIndex() throws -> ResultIndex {
        switch try ask(nil) {
        case .rows: preconditionFailure("a request for the complete index is answered with it")
        case .complete(let index): index
        }
    }

    private func ask(_ positions: Range<Int>?) throws -> Answer {
        let answer = HandOff<Answer>()
        let immediate: Result<Answer, any Error>? = state.withLock { state in
            switch state {
            case .reading(let requests):
                state = .reading(requests + [Request(positions: positions, answer: answer)])
                return nil
            case .complete(let index): return .success(.complete(index))
            case .stopped(let error): return .failure(error)
            }
        }
        if let immediate { return try immediate.get() }
        return try answer.wait()
    }

    // MARK: The background read's side

    /// Answers the requests for positions with `read` (given the positions, it returns their
    /// rows in the page's snapshot); requests for the complete index wait for `complete(with:)`.
    func serve(_ read: (Range<Int>) throws -> Rows) throws {
        let requests = state.withLock { state -> [Request] in
            guard case .reading(let requests) = state, requests.contains(where: { $0.positions != nil }) else { return [] }
            state = .reading(requests.filter { $0.positions == nil })
            return requests.filter { $0.positions != nil }
        }
        for request in requests {
            guard let positions = request.positions else { continue }
            do {
                _ = request.answer.fulfil(.success(.rows(try read(positions))))
            } catch {
                _ = request.answer.fulfil(.failure(error))
                throw error
            }
        }
    }

    /// The complete index is read: it answers every request from now on.
    func complete(with index: ResultIndex) {
        finish(.complete(index), answering: .success(.complete(index)))
    }

    /// The background read stopped with `error` (cancelled, or failed): every request throws it.
    func stop(with error: any Error) {
        finish(.stopped(error), answering: .failure(error))
    }

    private func finish(_ final: State, answering result: Result<Answer, any Error>) {
        let pending = state.withLock { state -> [Request] in
            guard case .reading(let requests) = state else { return [] }
            state = final
            return requests
        }
        for request in pending { _ = request.answer.fulfil(result) }
    }
}
