import ArgumentParser
import Foundation

/// The options of the `sharing` part (issue 57, "Measured").
struct SharingOptions: ParsableArguments {
    @Option(help: "sharing: the items of the shared list.") var sharedItems = 10_000
    @Option(help: "sharing: one item in this many has a tag.") var tagEvery = 10
    @Option(help: "sharing: shares and revocations measured, one after the other.") var shareRounds = 3
    @Option(help: "sharing: writes measured of each kind (the member's, the owner's second device's), in turn.") var writes = 200
    @Option(help: "sharing: devices pushing at once in the authorization runs, each with accounts of its own.") var pushers = 16
    @Option(help: "sharing: seconds of each authorization run.") var pushSeconds = 10
    @Option(help: "sharing: changes a push in the authorization runs (even: a new item is two).") var pushChanges = 100
    @Option(help: "sharing: rounds of the authorization runs (each case and kind of push once a round).") var pushRounds = 2
    @Option(help: "sharing: the items of the list whose subscription is ended in the eviction runs.") var subscribedItems = 100_000
    @Option(help: "sharing: eviction runs (each reads the list again, then ends its subscription).") var evictionRounds = 3
    @Option(
        help: ArgumentHelp(
            "sharing: what to measure (all by default): latencies (share, writes, revocation), authorization (pushes a second), "
                + "eviction (ending a large subscription).",
            valueName: "latencies,authorization,eviction"),
        transform: measurements)
    var sharingRuns: [SharingMeasurement] = SharingMeasurement.allCases

    func validate() throws {
        let positives = [
            ("--shared-items", sharedItems), ("--tag-every", tagEvery), ("--share-rounds", shareRounds), ("--writes", writes),
            ("--pushers", pushers), ("--push-seconds", pushSeconds), ("--push-changes", pushChanges), ("--push-rounds", pushRounds),
            ("--subscribed-items", subscribedItems), ("--eviction-rounds", evictionRounds),
        ]
        for (option, value) in positives where value <= 0 { throw ValidationError("\(option) takes a positive integer") }
        guard sharedItems >= 100 else { throw ValidationError("--shared-items takes at least 100 (two pools of 50 are edited)") }
        guard pushChanges.isMultiple(of: 2), pushChanges <= 2_000 else {
            throw ValidationError("--push-changes takes an even number up to 2,000")
        }
    }

    /// Runs the measurements asked for and prints their table.
    @MainActor
    func run() async throws {
        if sharingRuns.contains(.latencies) {
            let latencies = SharingLatencies(items: sharedItems, tagEvery: tagEvery, rounds: shareRounds, writes: writes)
            print(SharingReport.describe(try await latencies.run()))
        }
        if sharingRuns.contains(.authorization) {
            let cost = AuthorizationCost(clients: pushers, duration: .seconds(pushSeconds), changesPerPush: pushChanges, rounds: pushRounds)
            print(SharingReport.describe(try await cost.run()))
        }
        if sharingRuns.contains(.eviction) {
            print(SharingReport.describe(try await SubscriptionEviction(items: subscribedItems, rounds: evictionRounds).run()))
        }
    }
}

/// A measurement of the `sharing` part.
enum SharingMeasurement: String, CaseIterable {
    /// ``SharingLatencies``.
    case latencies
    /// ``AuthorizationCost``.
    case authorization
    /// ``SubscriptionEviction``.
    case eviction
}

/// A comma-separated list of ``SharingMeasurement`` names.
private func measurements(_ value: String) throws -> [SharingMeasurement] {
    try value.split(separator: ",").map { name in
        guard let measurement = SharingMeasurement(rawValue: String(name)) else {
            throw ValidationError("\(name) is not one of latencies, authorization, eviction")
        }
        return measurement
    }
}

/// The tables the `sharing` part prints, against the issue's targets.
enum SharingReport {
    /// The latencies' table, then each share and revocation.
    static func describe(_ result: SharingLatencies.Result) -> String {
        let shares = result.shares
        let revocations = result.revocations
        var lines = [
            "sharing: a list of \(result.items) items and \(result.tags) tags (\(result.sharedRows) rows) shared by its owner with a "
                + "member's connected device; 2 server processes on one PostgreSQL, loopback",
            "    the owner's first push of the list: \(result.pushedChanges) changes in \(seconds(result.push))",
            "",
            "| measurement | measured | target | |",
            "|---|---|---|---|",
            row(
                "share → the member's store holds all \(result.sharedRows) rows", shares.map(\.held), target: "≤ 2 s",
                limit: .seconds(2)),
            row("share → the member's live list shows every item", shares.map(\.shown), target: "", limit: nil),
            "| the member's write → change set in the owner's live list | \(result.memberWrites) | p50 ≤ 20 ms, p99 ≤ 100 ms | "
                + verdict(result.memberWrites) + " |",
            "| the owner's second device's write → the same (within one account) | \(result.ownWrites) | as above | "
                + verdict(result.ownWrites) + " |",
            row(
                "revoke → change set removing the rows from the member's live list", revocations.map(\.shown), target: "≤ 1 s",
                limit: .seconds(1)),
            "",
        ]
        for (index, round) in shares.enumerated() {
            var line =
                "    share \(index + 1): the call \(milliseconds(round.call)), first rows committed \(seconds(round.firstRows)), "
                + "all \(seconds(round.held)), shown \(seconds(round.shown)); "
                + "the share's pages alone (read, decoded, none applied) \(seconds(round.pagesAlone))"
            if let postgres = round.cpu.postgres, let servers = round.cpu.servers, let devices = round.cpu.clients {
                line += "; CPU: PostgreSQL \(seconds(postgres)), servers \(seconds(servers)), devices \(seconds(devices))"
            }
            lines.append(line)
            let commits = round.commits.map { "\(seconds($0.time)): \($0.rows) rows" }.joined(separator: ", ")
            lines.append("        the member's commits meanwhile: \(commits)")
        }
        for (index, round) in revocations.enumerated() {
            lines.append(
                "    revoke \(index + 1): the call \(milliseconds(round.call)), removal committed \(milliseconds(round.removed)), "
                    + "shown \(milliseconds(round.shown))")
        }
        return lines.joined(separator: "\n")
    }

    /// The eviction's table, then each round.
    static func describe(_ result: SubscriptionEviction.Result) -> String {
        var lines = [
            "eviction: a device subscribed to a list of \(result.items) items and to a list of 10 ends the first subscription, "
                + "with a live list of every item open; 1 server process, loopback",
            "    the owner's first push of the lists (setup): \(seconds(result.push))",
            "",
            "| measurement | measured | target | |",
            "|---|---|---|---|",
            row(
                "unsubscribe → the rows have left the store (the commit that deletes them)", result.rounds.map(\.evicted),
                target: "≤ 1 s", limit: .seconds(1)),
            row("unsubscribe → the call returns (the sync state forgets them next)", result.rounds.map(\.call), target: "", limit: nil),
            row("unsubscribe → change set in the live list", result.rounds.map(\.shown), target: "", limit: nil),
            "| requests to the server | 0: `unsubscribe` is a call on the store | none | met |",
            "",
        ]
        for (index, round) in result.rounds.enumerated() {
            lines.append(
                "    round \(index + 1): subscribe and read the list \(seconds(round.read)), evicted \(milliseconds(round.evicted)), "
                    + "returned \(milliseconds(round.call)), shown \(milliseconds(round.shown))")
        }
        return lines.joined(separator: "\n")
    }

    /// The pushes' table, then each run's changes a second.
    static func describe(_ result: AuthorizationCost.Result) -> String {
        let c = result.configuration
        var lines = [
            "authorization: \(c.clients) devices, each of its own account, push \(c.changesPerPush) changes a push to one server "
                + "process; \(c.rounds) rounds of \(String(format: "%.0f", c.duration.seconds)) s a case, medians of the rounds",
            "",
            "| pushes of | by, into | changes/s | × sharing off | push p50 | CPU a change: PostgreSQL | server |",
            "|---|---|---|---|---|---|---|",
        ]
        for shape in AuthorizationCost.Shape.allCases {
            for scenario in AuthorizationCost.Case.allCases {
                let runs = result.runs[shape]?[scenario] ?? []
                let perSecond = result.perSecond(shape, scenario)
                let cells = [
                    shape.label, scenario.label, String(format: "%.0f", perSecond),
                    String(format: "%.2f×", perSecond / result.perSecond(shape, .off)),
                    Percentiles.format(median(runs.map { Percentiles($0.pushTimes).at(0.5) })),
                    String(format: "%.1f µs", median(runs.compactMap { $0.microseconds($0.cpu.postgres) })),
                    String(format: "%.1f µs", median(runs.compactMap { $0.microseconds($0.cpu.servers) })),
                ]
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        lines.append("")
        lines.append("    each run: changes/s (rows the sharing server had placed before it)")
        for shape in AuthorizationCost.Shape.allCases {
            for scenario in AuthorizationCost.Case.allCases {
                let each = (result.runs[shape]?[scenario] ?? []).map { run in
                    String(format: "%.0f", run.perSecond) + (scenario == .off ? "" : " (\(run.placedBefore))")
                }
                lines.append("    \(shape.label), \(scenario.label): \(each.joined(separator: ", "))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A table row of one duration a round, their median, and whether every round met `limit`.
    private static func row(_ name: String, _ durations: [Duration], target: String, limit: Duration?) -> String {
        let values = durations.map { seconds($0) }.joined(separator: ", ")
        let middle = median(durations.map(\.seconds))
        var text = "| \(name) | \(values) (median \(String(format: "%.3f s", middle))) | \(target) | "
        if let limit {
            let over = durations.filter { $0 > limit }.count
            text += over == 0 ? "met" : "**not met** (\(over) of \(durations.count) over)"
        }
        return text + " |"
    }

    private static func verdict(_ percentiles: Percentiles) -> String {
        percentiles.at(0.5) <= 20 && percentiles.at(0.99) <= 100 ? "met" : "**not met**"
    }

    private static func seconds(_ duration: Duration) -> String { String(format: "%.3f s", duration.seconds) }
    private static func milliseconds(_ duration: Duration) -> String { String(format: "%.1f ms", duration.milliseconds) }
}
