// A fault-injecting SQLite VFS for power-loss tests, after the crash VFS of
// SQLite's own test harness: it wraps the default VFS, passes every call
// through, and remembers, for each tracked file (by device and inode), the
// content the disk is known to hold (what the last xSync covered) and every
// write and truncation since. At each sync point it can write the disk as a
// power cut there would leave it, for three kinds of cut, to a new directory.
//
// What it models and what it does not:
// - Content: a file's bytes are durable once an xSync of that file returns.
//   Writes after that are lost, kept at random, or torn at 512-byte sectors.
// - Names: the image takes the names the directory holds at the sync point.
//   Renames, links and unlinks done outside SQLite are not seen here; the
//   directory fsyncs that make them durable are checked with strace instead.
// - `-shm` files are never written to an image: SQLite writes them through
//   mmap, which no VFS sees, and after a reboot they hold nothing meaningful.

#include "CrashVFS.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

typedef struct {
    sqlite3_int64 offset;
    /// The bytes written; NULL for a truncation to `offset`.
    unsigned char *data;
    int amount;
} PendingOp;

typedef struct Inode {
    dev_t device;
    ino_t inode;
    char *path;
    unsigned char *synced;
    sqlite3_int64 syncedSize;
    sqlite3_int64 capacity;
    PendingOp *pending;
    int pendingCount;
    int pendingCapacity;
    int opened;
    struct Inode *next;
} Inode;

typedef struct {
    sqlite3_file base;
    Inode *inode;
    sqlite3_file *real;
} CrashFile;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sqlite3_vfs crashVFS;
static sqlite3_vfs *realVFS;
static sqlite3_io_methods crashMethods;
static Inode *inodes;
static char *trackedDirectory;
static size_t trackedLength;
static char *imageRoot;
static int kindsMask;
static uint64_t baseSeed;
static int64_t currentMark;
static int64_t syncPoints;
static double startTime;

static double now(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec / 1e6;
}

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int isTracked(const char *path) {
    return trackedDirectory && path && strncmp(path, trackedDirectory, trackedLength) == 0
        && path[trackedLength] == '/';
}

// MARK: - Buffers

static void ensureCapacity(unsigned char **buffer, sqlite3_int64 *capacity, sqlite3_int64 size) {
    if (size <= *capacity) return;
    sqlite3_int64 next = *capacity ? *capacity : 4096;
    while (next < size) next *= 2;
    *buffer = realloc(*buffer, (size_t)next);
    *capacity = next;
}

/// Applies one write or truncation to a buffer of `*size` bytes.
static void applyOp(unsigned char **buffer, sqlite3_int64 *size, sqlite3_int64 *capacity, const PendingOp *op,
                    const unsigned char *sectorMask) {
    if (!op->data) {
        if (op->offset < *size) *size = op->offset;
        else {
            ensureCapacity(buffer, capacity, op->offset);
            memset(*buffer + *size, 0, (size_t)(op->offset - *size));
            *size = op->offset;
        }
        return;
    }
    sqlite3_int64 end = op->offset + op->amount;
    if (end > *size) {
        ensureCapacity(buffer, capacity, end);
        memset(*buffer + *size, 0, (size_t)(end - *size));
    }
    if (!sectorMask) {
        memcpy(*buffer + op->offset, op->data, (size_t)op->amount);
    } else {
        // A torn write: only the sectors the mask keeps reach the disk.
        for (sqlite3_int64 at = op->offset; at < end;) {
            sqlite3_int64 sectorEnd = (at / 512 + 1) * 512;
            if (sectorEnd > end) sectorEnd = end;
            if (sectorMask[(at - op->offset + (op->offset % 512)) / 512]) {
                memcpy(*buffer + at, op->data + (at - op->offset), (size_t)(sectorEnd - at));
            }
            at = sectorEnd;
        }
    }
    if (end > *size) *size = end;
}

static void clearPending(Inode *inode) {
    for (int i = 0; i < inode->pendingCount; i++) free(inode->pending[i].data);
    inode->pendingCount = 0;
}

static void addPending(Inode *inode, sqlite3_int64 offset, const void *data, int amount) {
    if (inode->pendingCount == inode->pendingCapacity) {
        inode->pendingCapacity = inode->pendingCapacity ? inode->pendingCapacity * 2 : 16;
        inode->pending = realloc(inode->pending, sizeof(PendingOp) * (size_t)inode->pendingCapacity);
    }
    PendingOp *op = &inode->pending[inode->pendingCount++];
    op->offset = offset;
    op->amount = amount;
    op->data = NULL;
    if (data) {
        op->data = malloc((size_t)amount);
        memcpy(op->data, data, (size_t)amount);
    }
}

static void freeInode(Inode *inode) {
    clearPending(inode);
    free(inode->pending);
    free(inode->synced);
    free(inode->path);
    free(inode);
}

static Inode *findInode(dev_t device, ino_t number) {
    for (Inode *inode = inodes; inode; inode = inode->next) {
        if (inode->device == device && inode->inode == number) return inode;
    }
    return NULL;
}

static void removeInode(Inode *target) {
    for (Inode **link = &inodes; *link; link = &(*link)->next) {
        if (*link == target) {
            *link = target->next;
            freeInode(target);
            return;
        }
    }
}

// MARK: - Images

static int writeWhole(const char *path, const unsigned char *bytes, sqlite3_int64 size) {
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    sqlite3_int64 done = 0;
    while (done < size) {
        ssize_t written = write(fd, bytes + done, (size_t)(size - done));
        if (written <= 0) {
            close(fd);
            return -1;
        }
        done += written;
    }
    close(fd);
    return 0;
}

/// Copies a file SQLite never opened (so no lock of SQLite's is on it) as it is.
static int copyUntracked(const char *from, const char *to) {
    int in = open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0) return errno == ENOENT ? 0 : -1;
    int out = open(to, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
    if (out < 0) {
        close(in);
        return -1;
    }
    char buffer[65536];
    ssize_t count;
    int result = 0;
    while ((count = read(in, buffer, sizeof buffer)) > 0) {
        if (write(out, buffer, (size_t)count) != count) {
            result = -1;
            break;
        }
    }
    close(in);
    close(out);
    return result;
}

/// The disk content of `inode` after a cut of `kind`.
static int writeImageOfInode(Inode *inode, const char *destination, int kind, uint64_t *random) {
    sqlite3_int64 size = inode->syncedSize, capacity = 0;
    unsigned char *buffer = NULL;
    ensureCapacity(&buffer, &capacity, size > 0 ? size : 1);
    if (size > 0) memcpy(buffer, inode->synced, (size_t)size);
    int tornAt = kind == CRASH_KIND_TEAR ? (int)(splitmix(random) % (uint64_t)(inode->pendingCount + 1)) : -1;
    for (int i = 0; i < inode->pendingCount; i++) {
        const PendingOp *op = &inode->pending[i];
        if (kind == CRASH_KIND_DROP) break;
        if (kind == CRASH_KIND_SUBSET) {
            if (splitmix(random) & 1) applyOp(&buffer, &size, &capacity, op, NULL);
            continue;
        }
        if (i < tornAt) {
            applyOp(&buffer, &size, &capacity, op, NULL);
        } else {
            if (op->data) {
                int sectors = (int)((op->offset % 512 + op->amount + 511) / 512);
                unsigned char *mask = malloc((size_t)sectors);
                for (int s = 0; s < sectors; s++) mask[s] = (unsigned char)(splitmix(random) & 1);
                applyOp(&buffer, &size, &capacity, op, mask);
                free(mask);
            }
            break;
        }
    }
    int result = writeWhole(destination, buffer, size);
    free(buffer);
    return result;
}

static int endsWith(const char *text, const char *suffix) {
    size_t a = strlen(text), b = strlen(suffix);
    return a >= b && strcmp(text + a - b, suffix) == 0;
}

static int writeImageOfDirectory(const char *from, const char *to, int kind, uint64_t *random) {
    if (mkdir(to, 0700) != 0 && errno != EEXIST) return -1;
    DIR *directory = opendir(from);
    if (!directory) return errno == ENOENT ? 0 : -1;
    int result = 0;
    struct dirent *entry;
    while ((entry = readdir(directory))) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        if (endsWith(entry->d_name, "-shm")) continue;
        char source[4096], destination[4096];
        snprintf(source, sizeof source, "%s/%s", from, entry->d_name);
        snprintf(destination, sizeof destination, "%s/%s", to, entry->d_name);
        struct stat info;
        if (lstat(source, &info) != 0) continue;
        if (S_ISDIR(info.st_mode)) {
            result |= writeImageOfDirectory(source, destination, kind, random);
        } else if (S_ISREG(info.st_mode)) {
            Inode *inode = findInode(info.st_dev, info.st_ino);
            result |= inode ? writeImageOfInode(inode, destination, kind, random) : copyUntracked(source, destination);
        }
    }
    closedir(directory);
    return result;
}

/// Writes the simulated disk for `kind` at sync point `label`; the lock is held.
static int writeImage(int64_t label, int kind, const char *file) {
    char directory[4096];
    snprintf(directory, sizeof directory, "%s/%lld-%d", imageRoot, (long long)label, kind);
    uint64_t random = baseSeed ^ ((uint64_t)label * 0x2545F4914F6CDD1DULL) ^ ((uint64_t)kind << 56);
    int result = writeImageOfDirectory(trackedDirectory, directory, kind, &random);
    char manifest[4096];
    snprintf(manifest, sizeof manifest, "%s/manifest.tsv", imageRoot);
    FILE *out = fopen(manifest, "a");
    if (!out) return -1;
    const char *name = file && strlen(file) > trackedLength ? file + trackedLength + 1 : "-";
    fprintf(out, "%lld\t%d\t%lld\t%s\t%.6f\n", (long long)label, kind, (long long)currentMark, name, now() - startTime);
    fclose(out);
    return result;
}

// MARK: - File methods

static int crashClose(sqlite3_file *file) {
    CrashFile *crash = (CrashFile *)file;
    int rc = crash->real->pMethods->xClose(crash->real);
    pthread_mutex_lock(&lock);
    if (crash->inode) crash->inode->opened--;
    pthread_mutex_unlock(&lock);
    return rc;
}

static int crashRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xRead(crash->real, buffer, amount, offset);
}

static int crashWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    CrashFile *crash = (CrashFile *)file;
    int rc = crash->real->pMethods->xWrite(crash->real, buffer, amount, offset);
    if (rc == SQLITE_OK && crash->inode) {
        pthread_mutex_lock(&lock);
        addPending(crash->inode, offset, buffer, amount);
        pthread_mutex_unlock(&lock);
    }
    return rc;
}

static int crashTruncate(sqlite3_file *file, sqlite3_int64 size) {
    CrashFile *crash = (CrashFile *)file;
    int rc = crash->real->pMethods->xTruncate(crash->real, size);
    if (rc == SQLITE_OK && crash->inode) {
        pthread_mutex_lock(&lock);
        addPending(crash->inode, size, NULL, 0);
        pthread_mutex_unlock(&lock);
    }
    return rc;
}

static int crashSync(sqlite3_file *file, int flags) {
    CrashFile *crash = (CrashFile *)file;
    if (!crash->inode) return crash->real->pMethods->xSync(crash->real, flags);
    pthread_mutex_lock(&lock);
    int64_t point = ++syncPoints;
    if (imageRoot) {
        for (int kind = 0; kind < 3; kind++) {
            if (kindsMask & (1 << kind)) writeImage(point, kind, crash->inode->path);
        }
    }
    int rc = crash->real->pMethods->xSync(crash->real, flags);
    if (rc == SQLITE_OK) {
        Inode *inode = crash->inode;
        for (int i = 0; i < inode->pendingCount; i++) {
            applyOp(&inode->synced, &inode->syncedSize, &inode->capacity, &inode->pending[i], NULL);
        }
        clearPending(inode);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int crashFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xFileSize(crash->real, size);
}

static int crashLock(sqlite3_file *file, int level) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xLock(crash->real, level);
}

static int crashUnlock(sqlite3_file *file, int level) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xUnlock(crash->real, level);
}

static int crashCheckReservedLock(sqlite3_file *file, int *result) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xCheckReservedLock(crash->real, result);
}

static int crashFileControl(sqlite3_file *file, int op, void *argument) {
    CrashFile *crash = (CrashFile *)file;
    if (op == SQLITE_FCNTL_VFSNAME) {
        *(char **)argument = sqlite3_mprintf("crash");
        return SQLITE_OK;
    }
    return crash->real->pMethods->xFileControl(crash->real, op, argument);
}

static int crashSectorSize(sqlite3_file *file) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xSectorSize(crash->real);
}

static int crashDeviceCharacteristics(sqlite3_file *file) {
    CrashFile *crash = (CrashFile *)file;
    int characteristics = crash->real->pMethods->xDeviceCharacteristics(crash->real);
    // The cuts reorder and tear writes: promise nothing of the kind to SQLite.
    return characteristics
        & ~(SQLITE_IOCAP_SEQUENTIAL | SQLITE_IOCAP_SAFE_APPEND | SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_ATOMIC512
            | SQLITE_IOCAP_ATOMIC1K | SQLITE_IOCAP_ATOMIC2K | SQLITE_IOCAP_ATOMIC4K | SQLITE_IOCAP_ATOMIC8K
            | SQLITE_IOCAP_ATOMIC16K | SQLITE_IOCAP_ATOMIC32K | SQLITE_IOCAP_ATOMIC64K | SQLITE_IOCAP_BATCH_ATOMIC);
}

static int crashShmMap(sqlite3_file *file, int region, int size, int extend, void volatile **pointer) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xShmMap(crash->real, region, size, extend, pointer);
}

static int crashShmLock(sqlite3_file *file, int offset, int count, int flags) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xShmLock(crash->real, offset, count, flags);
}

static void crashShmBarrier(sqlite3_file *file) {
    CrashFile *crash = (CrashFile *)file;
    crash->real->pMethods->xShmBarrier(crash->real);
}

static int crashShmUnmap(sqlite3_file *file, int deleteFlag) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xShmUnmap(crash->real, deleteFlag);
}

static int crashFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xFetch(crash->real, offset, amount, pointer);
}

static int crashUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    CrashFile *crash = (CrashFile *)file;
    return crash->real->pMethods->xUnfetch(crash->real, offset, pointer);
}

// MARK: - VFS methods

static int crashOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    CrashFile *crash = (CrashFile *)file;
    crash->real = (sqlite3_file *)(crash + 1);
    crash->inode = NULL;
    int rc = realVFS->xOpen(realVFS, name, crash->real, flags, outFlags);
    if (rc != SQLITE_OK || !crash->real->pMethods) {
        file->pMethods = NULL;
        return rc;
    }
    file->pMethods = &crashMethods;
    pthread_mutex_lock(&lock);
    struct stat info;
    if (isTracked(name) && stat(name, &info) == 0) {
        Inode *inode = findInode(info.st_dev, info.st_ino);
        if (inode && inode->opened == 0 && strcmp(inode->path, name) != 0) {
            // Renamed since, or a new file on a reused inode number: start again from what it holds.
            removeInode(inode);
            inode = NULL;
        }
        if (!inode) {
            inode = calloc(1, sizeof(Inode));
            inode->device = info.st_dev;
            inode->inode = info.st_ino;
            inode->path = strdup(name);
            sqlite3_int64 size = 0;
            crash->real->pMethods->xFileSize(crash->real, &size);
            ensureCapacity(&inode->synced, &inode->capacity, size > 0 ? size : 1);
            if (size > 0 && crash->real->pMethods->xRead(crash->real, inode->synced, (int)size, 0) != SQLITE_OK) {
                size = 0;
            }
            inode->syncedSize = size;
            inode->next = inodes;
            inodes = inode;
        }
        inode->opened++;
        crash->inode = inode;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int crashDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    (void)vfs;
    pthread_mutex_lock(&lock);
    struct stat info;
    if (isTracked(name) && stat(name, &info) == 0) {
        Inode *inode = findInode(info.st_dev, info.st_ino);
        if (inode && inode->opened == 0) removeInode(inode);
    }
    pthread_mutex_unlock(&lock);
    return realVFS->xDelete(realVFS, name, syncDirectory);
}

static int crashAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return realVFS->xAccess(realVFS, name, flags, result);
}

static int crashFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return realVFS->xFullPathname(realVFS, name, size, out);
}

static void *crashDlOpen(sqlite3_vfs *vfs, const char *name) { (void)vfs; return realVFS->xDlOpen(realVFS, name); }
static void crashDlError(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; realVFS->xDlError(realVFS, size, out); }
static void (*crashDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return realVFS->xDlSym(realVFS, handle, symbol);
}
static void crashDlClose(sqlite3_vfs *vfs, void *handle) { (void)vfs; realVFS->xDlClose(realVFS, handle); }
static int crashRandomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return realVFS->xRandomness(realVFS, size, out);
}
static int crashSleep(sqlite3_vfs *vfs, int microseconds) { (void)vfs; return realVFS->xSleep(realVFS, microseconds); }
static int crashCurrentTime(sqlite3_vfs *vfs, double *out) { (void)vfs; return realVFS->xCurrentTime(realVFS, out); }
static int crashGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return realVFS->xGetLastError(realVFS, size, out);
}
static int crashCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return realVFS->xCurrentTimeInt64(realVFS, out);
}

// MARK: - Public functions

int crash_vfs_register(int make_default) {
    pthread_mutex_lock(&lock);
    if (!realVFS) {
        realVFS = sqlite3_vfs_find("unix");
        if (!realVFS) {
            pthread_mutex_unlock(&lock);
            return SQLITE_ERROR;
        }
        crashMethods = (sqlite3_io_methods){
            .iVersion = 3,
            .xClose = crashClose, .xRead = crashRead, .xWrite = crashWrite, .xTruncate = crashTruncate,
            .xSync = crashSync, .xFileSize = crashFileSize, .xLock = crashLock, .xUnlock = crashUnlock,
            .xCheckReservedLock = crashCheckReservedLock, .xFileControl = crashFileControl,
            .xSectorSize = crashSectorSize, .xDeviceCharacteristics = crashDeviceCharacteristics,
            .xShmMap = crashShmMap, .xShmLock = crashShmLock, .xShmBarrier = crashShmBarrier,
            .xShmUnmap = crashShmUnmap, .xFetch = crashFetch, .xUnfetch = crashUnfetch,
        };
        crashVFS = (sqlite3_vfs){
            .iVersion = 2,
            .szOsFile = (int)sizeof(CrashFile) + realVFS->szOsFile,
            .mxPathname = realVFS->mxPathname,
            .zName = "crash",
            .xOpen = crashOpen, .xDelete = crashDelete, .xAccess = crashAccess, .xFullPathname = crashFullPathname,
            .xDlOpen = crashDlOpen, .xDlError = crashDlError, .xDlSym = crashDlSym, .xDlClose = crashDlClose,
            .xRandomness = crashRandomness, .xSleep = crashSleep, .xCurrentTime = crashCurrentTime,
            .xGetLastError = crashGetLastError, .xCurrentTimeInt64 = crashCurrentTimeInt64,
        };
        startTime = now();
    }
    pthread_mutex_unlock(&lock);
    return sqlite3_vfs_register(&crashVFS, make_default);
}

void crash_vfs_configure(const char *directory, const char *image_root, int kinds_mask, uint64_t seed) {
    pthread_mutex_lock(&lock);
    free(trackedDirectory);
    free(imageRoot);
    trackedDirectory = directory ? strdup(directory) : NULL;
    trackedLength = directory ? strlen(directory) : 0;
    while (trackedLength > 1 && trackedDirectory[trackedLength - 1] == '/') trackedDirectory[--trackedLength] = 0;
    imageRoot = image_root ? strdup(image_root) : NULL;
    kindsMask = kinds_mask;
    baseSeed = seed;
    syncPoints = 0;
    pthread_mutex_unlock(&lock);
}

void crash_vfs_set_mark(int64_t mark) {
    pthread_mutex_lock(&lock);
    currentMark = mark;
    pthread_mutex_unlock(&lock);
}

int64_t crash_vfs_sync_points(void) {
    pthread_mutex_lock(&lock);
    int64_t count = syncPoints;
    pthread_mutex_unlock(&lock);
    return count;
}

double crash_vfs_elapsed(void) {
    return now() - startTime;
}

int crash_vfs_write_image(int64_t label, int kind) {
    pthread_mutex_lock(&lock);
    int result = imageRoot && trackedDirectory ? writeImage(label, kind, NULL) : -1;
    pthread_mutex_unlock(&lock);
    return result;
}
