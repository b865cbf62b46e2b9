// The seeded generator the tests and benchmarks that start the harness replay their random
// operations with: the root package's `SplitMix64`, one copy for every package of the
// repository, re-exported so that `import SyncServerHarness` keeps giving it.
@_exported import SQLiteStoreSeededRandom
