#ifndef ALMANAC_BUILD_INFO_H
#define ALMANAC_BUILD_INFO_H

/// The git commit the binary was built from, as the build was told (the ALMANAC_COMMIT
/// environment variable, read by Package.swift; `make` sets it from `git rev-parse`), or
/// "unknown" for a build that was not told (a tarball without .git, a bare `swift build`).
const char *almanac_build_commit(void);

#endif
