/// The version of the JSON that devices and the sync server exchange, and the server's paths.
///
/// Every request and response names its format; a server answers a request in another format
/// with `400 Bad Request` and stores nothing, so that a change is never read under rules it was
/// not written for.
public enum SyncWireFormat {
    /// The format this build reads and writes.
    public static let version = 1

    /// `POST`: store a ``SyncPushRequest``; answers a ``SyncPushResponse``.
    public static let pushPath = "/v1/push"
    /// `GET`: changes after a cursor, as a ``SyncPullResponse``. Query items: ``Query``.
    public static let pullPath = "/v1/changes"
    /// `GET`: one page of the account's current state for a device without a cursor, as a
    /// ``SyncSnapshotPage``. Query items: ``Query``.
    public static let snapshotPath = "/v1/snapshot"
    /// `POST`: share a root row, change a member's role or revoke it (``SyncShareRequest``);
    /// `GET` with ``Query/table`` and ``Query/key``: the members of one of the account's roots.
    /// Both answer ``SyncShareMembers``.
    public static let sharesPath = "/v1/shares"
    /// `GET`: the shares the account is a member of, as ``SyncMemberships``.
    public static let membershipsPath = "/v1/memberships"
    /// `GET` with ``Query/share``: one page of a share's current rows, as a ``SyncSharedPage``.
    /// Query items: ``Query/limit``, ``Query/afterTable`` and ``Query/afterKey``.
    public static let sharedPath = "/v1/shared"
    /// `GET` with ``Query/subscription``: one page of the rows a subscription covers, as a
    /// ``SyncSharedPage``. Query items: ``Query/share`` (only that share's rows),
    /// ``Query/limit``, ``Query/afterTable`` and ``Query/afterKey``.
    public static let subscribedPath = "/v1/subscribed"

    /// The query items of a pull.
    public enum Query {
        /// The format the device reads (``SyncWireFormat/version``).
        public static let format = "format"
        /// The cursor of the last response applied (0: from the beginning).
        public static let since = "since"
        /// The most changes (in a snapshot: rows) to return.
        public static let limit = "limit"
        /// The pulling device's id: its own changes are left out.
        public static let device = "device"
        /// Seconds to wait for a change when there is none yet (a long poll); 0 answers at once.
        public static let wait = "wait"
        /// The device's schema version, in a pull and a snapshot: the server answers with what
        /// that version syncs, or refuses a version that cannot sync with its own.
        public static let schema = "schema"
        /// The snapshot's cursor (``SyncSnapshotPage/cursor``) on every page after the first.
        public static let upTo = "up_to"
        /// Where the previous page ended (``SyncSnapshotPosition/table``); absent on the first page.
        public static let afterTable = "after_table"
        /// Where the previous page ended (``SyncSnapshotPosition/key``); absent on the first page.
        public static let afterKey = "after_key"
        /// A share's name (``SyncMembership/share``).
        public static let share = "share"
        /// A root row's table.
        public static let table = "table"
        /// A root row's key, as the JSON of its ``SyncWireValue``.
        public static let key = "key"
        /// A pull's subscriptions, as the JSON of an array of ``SyncSubscription``: the server
        /// answers with the rows they cover, each as a ``SyncRowState``. Absent: the account's
        /// whole data.
        public static let subscriptions = "subscriptions"
        /// One subscription, as the JSON of a ``SyncSubscription``.
        public static let subscription = "subscription"
    }
}
