#ifndef CRASH_VFS_H
#define CRASH_VFS_H

#include <stdint.h>

/// How a simulated power cut treats the writes a file had not synced.
typedef enum {
    /// Every unsynced write is lost.
    CRASH_KIND_DROP = 0,
    /// Each unsynced write survives or not, at random, independently.
    CRASH_KIND_SUBSET = 1,
    /// The unsynced writes survive in order up to one, which is torn: a random
    /// subset of its 512-byte sectors reaches the disk, the rest and all later
    /// writes are lost.
    CRASH_KIND_TEAR = 2,
} CrashKind;

/// Registers the fault-injecting VFS under the name "crash", wrapping the
/// default VFS ("unix"). With `make_default` 0 it is chosen only by a
/// `file:PATH?vfs=crash` URI, so other connections of the process are untouched.
/// Returns SQLite's result code.
int crash_vfs_register(int make_default);

/// Tracks the files under `directory` (a path prefix); files elsewhere pass through untouched.
/// With `image_root` non-NULL, at every sync point of a tracked file the simulated
/// disk of `directory` is written, for each kind in `kinds_mask` (bit 1 << CrashKind),
/// to `image_root/SYNCPOINT-KIND/`, and a line is appended to `image_root/manifest.tsv`:
/// `SYNCPOINT KIND MARK FILE SECONDS`, MARK being the last value given to crash_vfs_set_mark.
void crash_vfs_configure(const char *directory, const char *image_root, int kinds_mask, uint64_t seed);

/// Sets the mark recorded with the next sync points (the workload's acknowledged step).
void crash_vfs_set_mark(int64_t mark);

/// Sync points seen so far (xSync calls on tracked files).
int64_t crash_vfs_sync_points(void);

/// Seconds since the VFS was registered (the clock of the manifest's SECONDS).
double crash_vfs_elapsed(void);

/// Writes the simulated disk now, as at a sync point numbered `label` (for a final image). Returns 0 on success.
int crash_vfs_write_image(int64_t label, int kind);

#endif
