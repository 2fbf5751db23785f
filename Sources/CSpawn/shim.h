// posix_spawn's "close every descriptor from N up" file action (glibc 2.34+) for the tests'
// ChildProcess: Glibc's Swift module is built without _GNU_SOURCE, so it does not declare it.
// Linux only (the target is a dependency only there).
#ifndef ALMANAC_CSPAWN_SHIM_H
#define ALMANAC_CSPAWN_SHIM_H
#ifdef __linux__
#include <spawn.h>
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#endif
#endif
