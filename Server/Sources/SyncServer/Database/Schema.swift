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

    /// Every migration, in order.
    static let migrations: [Migration] = [
        Migration(version: 1, name: "initial", statements: [
            createAccounts, createDevices, createRecords, createRecordsSeqIndex, createIdempotency,
        ]),
    ]
}
