-- 0007_sync_record_floors.sql
-- compatibility: additive (a new table only: a binary that knows only 0001 to
-- 0006 reads and writes the store and syncs as before, without the checks
-- this table keeps)
--
-- What this device has seen of the other devices' records, so that a server
-- cannot take it back (docs/sync-protocol.md, "What a device detects").
--
-- * `sync_record_floors` keeps, for each record of another device, the highest
--   version applied here and the SHA-256 of its sealed bytes (lowercase hex;
--   empty for an unsealed tombstone). A record below that version, or at it
--   with other bytes, is a replay: reported and ignored. The row outlives the
--   record (a deletion keeps it) and a fetch from 0 (`sync_remote_*` are
--   forgotten then; this table is not), so an older version stays out after
--   either. `received_at` is this device's clock when that version arrived: the
--   newest one of a device is when this device last heard from it, which decides
--   whether the server's sweep of a silent device is believed.
--   Emptied when sync is turned off or the store joins another account.

CREATE TABLE sync_record_floors (
    record_id TEXT PRIMARY KEY NOT NULL CHECK (length(record_id) = 32),
    device_id TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    digest TEXT NOT NULL,
    received_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sync_record_floors_by_device ON sync_record_floors(device_id, received_at);
