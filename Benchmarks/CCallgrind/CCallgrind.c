#include "CCallgrind.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CCALLGRIND_AVAILABLE 1
#endif
#endif

int ccallgrind_running(void) {
#ifdef CCALLGRIND_AVAILABLE
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}

void ccallgrind_start_instrumentation(void) {
#ifdef CCALLGRIND_AVAILABLE
    CALLGRIND_START_INSTRUMENTATION;
#endif
}

void ccallgrind_toggle_collect(void) {
#ifdef CCALLGRIND_AVAILABLE
    CALLGRIND_TOGGLE_COLLECT;
#endif
}

void ccallgrind_dump_stats_at(const char *label) {
#ifdef CCALLGRIND_AVAILABLE
    CALLGRIND_DUMP_STATS_AT(label);
#else
    (void)label;
#endif
}
