#include "build_info.h"

/* Package.swift defines ALMANAC_COMMIT for this file only, so a new commit recompiles this
   one file and relinks; nothing else is rebuilt. */
#ifndef ALMANAC_COMMIT
#define ALMANAC_COMMIT "unknown"
#endif

const char *almanac_build_commit(void) { return ALMANAC_COMMIT; }
