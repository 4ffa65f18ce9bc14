// Debian's liblz4-dev (apt-get install -y liblz4-dev): LZ4's block API, for
// the mozLz4 files of Firefox's session store.
#include <lz4.h>
