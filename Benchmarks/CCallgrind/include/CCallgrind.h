// Callgrind's client requests as functions, for the benchmark (Swift cannot call the macros).
// Each is a no-op when the process does not run under valgrind, or when
// <valgrind/callgrind.h> was missing at build time.
#ifndef CCALLGRIND_H
#define CCALLGRIND_H

/// Non-zero when the process runs under valgrind (and the header was there at build time).
int ccallgrind_running(void);

/// Starts instrumenting (CALLGRIND_START_INSTRUMENTATION): with `--instr-atstart=no`, what runs
/// before it runs at near native speed.
void ccallgrind_start_instrumentation(void);

/// Turns the collection of costs on or off (CALLGRIND_TOGGLE_COLLECT).
void ccallgrind_toggle_collect(void);

/// Writes the costs collected since the last dump to a new file, with `label` as its trigger
/// (CALLGRIND_DUMP_STATS_AT), and zeroes them.
void ccallgrind_dump_stats_at(const char *label);

#endif
