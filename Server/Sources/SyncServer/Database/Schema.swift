/// One schema change, applied once and recorded in `schema_migrations`.
struct Migration: Sendable {
    /// Position in the sequence; applied in ascending order.
    var version: Int
    /// A short name, stored beside the version.
    var name: String
    /// The statements, run one by one in a single transaction.
    var statements: [String]
}

/// The server's schema, in order.
///
/// Designed for a distributed engine: every primary key leads with
/// `account_id` (the natural distribution column), no serial columns,
/// sequences or identity columns, and foreign keys only between rows of the
/// same account.
enum Schema {
    /// Bookkeeping table of applied migrations (the one table not keyed by account).
    static let migrationsTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version integer PRIMARY KEY,
            name text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """

    static let createAccounts = """
        CREATE TABLE accounts (
            account_id text NOT NULL,
            public_key bytea NOT NULL,
            counter bigint NOT NULL DEFAULT 0,
            created_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (account_id)
        )
        """

    static let createDevices = """
        CREATE TABLE devices (
            account_id text NOT NULL REFERENCES accounts (account_id),
            device_id text NOT NULL,
            public_key bytea NOT NULL,
            registered_at timestamptz NOT NULL DEFAULT now(),
            last_seen_at timestamptz NOT NULL DEFAULT now(),
            revoked_at timestamptz NULL,
            PRIMARY KEY (account_id, device_id)
        )
        """

    static let createRecords = """
        CREATE TABLE records (
            account_id text NOT NULL,
            record_id text NOT NULL,
            device_id text NOT NULL,
            seq bigint NOT NULL,
            version bigint NOT NULL,
            tombstone boolean NOT NULL,
            sealed bytea NULL,
            size integer NOT NULL,
            modified_at timestamptz NOT NULL,
            expires_at timestamptz NULL,
            PRIMARY KEY (account_id, record_id),
            FOREIGN KEY (account_id, device_id) REFERENCES devices (account_id, device_id)
        )
        """

    static let createRecordsSeqIndex =
        "CREATE UNIQUE INDEX records_account_seq ON records (account_id, seq)"

    static let createIdempotency = """
        CREATE TABLE idempotency (
            account_id text NOT NULL,
            device_id text NOT NULL,
            key text NOT NULL,
            response text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (account_id, device_id, key)
        )
        """

    /// Usage kept beside the counter, for the quotas, and how far tombstones were pruned.
    static let addAccountUsage = """
        ALTER TABLE accounts
            ADD COLUMN live_records bigint NOT NULL DEFAULT 0,
            ADD COLUMN live_bytes bigint NOT NULL DEFAULT 0,
            ADD COLUMN pruned_seq bigint NOT NULL DEFAULT 0
        """

    static let fillAccountUsage = """
        UPDATE accounts a SET live_records = u.n, live_bytes = u.bytes
        FROM (SELECT account_id, count(*) AS n, coalesce(sum(size), 0) AS bytes
              FROM records WHERE NOT tombstone GROUP BY account_id) u
        WHERE a.account_id = u.account_id
        """

    /// Commands: a queue per target device. `sealed` is cleared when the target
    /// acknowledges; the row stays until it expires, so a replay stays out.
    static let createCommands = """
        CREATE TABLE commands (
            account_id text NOT NULL,
            target_device_id text NOT NULL,
            command_id text NOT NULL,
            sender_device_id text NOT NULL,
            seq bigint NOT NULL,
            sealed bytea NULL,
            size integer NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            expires_at timestamptz NOT NULL,
            acked_at timestamptz NULL,
            PRIMARY KEY (account_id, target_device_id, command_id),
            FOREIGN KEY (account_id, target_device_id) REFERENCES devices (account_id, device_id)
        )
        """

    static let createCommandsPendingIndex = """
        CREATE INDEX commands_pending ON commands (account_id, target_device_id, seq) WHERE acked_at IS NULL
        """

    /// For the sweeper: tombstones and expired rows by age.
    static let createRecordsModifiedIndex =
        "CREATE INDEX records_tombstones ON records (modified_at) WHERE tombstone"
    static let createDevicesSeenIndex =
        "CREATE INDEX devices_last_seen ON devices (last_seen_at) WHERE revoked_at IS NULL"
    static let createIdempotencyAgeIndex =
        "CREATE INDEX idempotency_created ON idempotency (created_at)"

    /// What identifies this server's database to devices: one row per key. `server_id` is random, made
    /// once, and travels with the database (a second process of the same database, or the same database
    /// behind another URL, is the same server to a device).
    static let createServerMeta = """
        CREATE TABLE server_meta (
            key text NOT NULL,
            value text NOT NULL,
            PRIMARY KEY (key)
        )
        """

    static let insertServerID =
        "INSERT INTO server_meta (key, value) VALUES ('server_id', gen_random_uuid()::text)"

    /// An account's generation: random, made with the account. An account deleted and made again has
    /// another, so a device that joined the old one learns that it is gone (every existing row gets its own).
    static let addAccountGeneration =
        "ALTER TABLE accounts ADD COLUMN generation text NOT NULL DEFAULT gen_random_uuid()::text"

    /// The account's signed statement that revoked a device (docs/sync-protocol.md,
    /// "DELETE /v1/devices/{device_id}"): readers check it before they apply the
    /// unsealed tombstones the server made of the device's records. Both NULL for a
    /// device revoked without one (a version 1 client).
    static let addRevocationStatement = """
        ALTER TABLE devices
            ADD COLUMN revocation_at bigint NULL,
            ADD COLUMN revocation_signature bytea NULL
        """

    /// Account-wide records (protocol version 3: saved groups, docs/sync-protocol.md): any device of
    /// the account writes them, none owns them, so they are kept apart from `records` (whose rows a
    /// device's revocation or sweep deletes). They take their sequence numbers from the account's
    /// counter, as records do, and are never tombstoned: a delete is a write of their content.
    static let createAccountRecords = """
        CREATE TABLE account_records (
            account_id text NOT NULL REFERENCES accounts (account_id),
            record_id text NOT NULL,
            seq bigint NOT NULL,
            version bigint NOT NULL,
            sealed bytea NOT NULL,
            size integer NOT NULL,
            writer_device_id text NOT NULL,
            modified_at timestamptz NOT NULL,
            PRIMARY KEY (account_id, record_id)
        )
        """

    static let createAccountRecordsSeqIndex =
        "CREATE UNIQUE INDEX account_records_account_seq ON account_records (account_id, seq)"

    /// Every migration, in order.
    static let migrations: [Migration] = [
        Migration(version: 1, name: "initial", statements: [
            createAccounts, createDevices, createRecords, createRecordsSeqIndex, createIdempotency,
        ]),
        Migration(version: 2, name: "commands_quotas_sweeping", statements: [
            addAccountUsage, fillAccountUsage, createCommands, createCommandsPendingIndex,
            createRecordsModifiedIndex, createDevicesSeenIndex, createIdempotencyAgeIndex,
        ]),
        Migration(version: 3, name: "revocation_statements", statements: [addRevocationStatement]),
        Migration(version: 4, name: "server_identity_account_generation", statements: [
            createServerMeta, insertServerID, addAccountGeneration,
        ]),
        Migration(version: 5, name: "account_records", statements: [
            createAccountRecords, createAccountRecordsSeqIndex,
        ]),
    ]
}
