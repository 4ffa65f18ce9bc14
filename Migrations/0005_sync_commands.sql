-- 0005_sync_commands.sql
-- compatibility: additive (a new table only: a binary that knows only 0001 to
-- 0004 reads and writes the store, and leaves the commands waiting)
--
-- Commands this device sends to its other devices (docs/sync-protocol.md,
-- "Commands"): "open this tab", "close that tab".
--
-- * `sync_outgoing_commands` holds each command from the moment it is made
--   until the server acknowledges it, so that one survives a crash or a quit.
--   The payload is the command's JSON; it is sealed only as it leaves.
--   `send_after` is the end of its undo window: until then, undoing deletes
--   the row and nothing ever leaves. `expires_at` is when the target stops
--   applying it (48 hours for a close, 10 days for a sent tab).
-- * The ids of commands received and applied are kept in
--   `sync_applied_commands` (0004), so that none applies twice.

CREATE TABLE sync_outgoing_commands (
    command_id TEXT PRIMARY KEY NOT NULL CHECK (length(command_id) = 36 AND command_id = lower(command_id)),
    target_device_id TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL,
    send_after TEXT NOT NULL,
    expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sync_outgoing_commands_by_time ON sync_outgoing_commands(send_after);
