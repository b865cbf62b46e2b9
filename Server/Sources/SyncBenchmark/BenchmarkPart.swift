import ArgumentParser

/// A part of the benchmark, named on its command line.
enum BenchmarkPart: String, CaseIterable, ExpressibleByArgument {
    /// ``WriteToChangeSet``.
    case latency
    /// ``InitialSync``.
    case initial
    /// ``SustainedPushes``.
    case load
    /// ``WireDecoding``.
    case wire
    /// ``ConnectedDevices``.
    case connections
    /// ``LogCompaction``.
    case compaction
    /// ``SharingLatencies`` and ``AuthorizationCost``.
    case sharing
}
