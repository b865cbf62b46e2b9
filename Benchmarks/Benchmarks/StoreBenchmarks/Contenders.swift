import BenchmarkKit
import GRDBContender
import RawSQLiteContender
import StoreContender

/// The contenders of each workload family. A library joins a family by implementing the
/// family's protocol and adding its type here.
enum Contenders {
    /// `insert` and `notifyOverhead`.
    static var inserters: [any InsertContender.Type] {
        [StoreInserter<Item>.self, StoreInserter<MacroItem>.self, RawCInserter.self, GRDBInserter.self]
    }

    /// `fetchAll` and `fetchPage`.
    static var fetchers: [any FetchContender.Type] {
        [StoreFetcher<Item>.self, StoreFetcher<MacroItem>.self, RawCFetcher.self, GRDBFetcher.self]
    }

    /// `observeUpdate`, `observeInsert`, `observeDelete` and `observeBulk`.
    static var liveQueries: [any LiveQueryContender.Type] {
        [StoreLiveQuery.self, StoreLiveValues.self, RawCLiveQuery.self, GRDBLiveQuery.self]
    }

    /// `observeRelated`.
    static var relatedLiveQueries: [any RelatedLiveQueryContender.Type] {
        [StoreRelatedLiveQuery.self, RawCRelatedLiveQuery.self, GRDBRelatedLiveQuery.self]
    }

    /// `firstScreen`, `firstScreenSectioned` and `completeResults`.
    static var firstScreens: [any FirstScreenContender.Type] {
        [StoreFirstScreen<Item>.self, StoreFirstScreen<MacroItem>.self, RawCFirstScreen.self, GRDBFirstScreen.self]
    }

    /// `frcMemory`.
    static var resultsHolders: [any ResultsMemoryContender.Type] {
        [StoreResultsHolder.self, RawCFetcher.self, GRDBFetcher.self]
    }
}
