// epoll(7) for the HTTP server's socket poller: Glibc's Swift module does not include
// <sys/epoll.h>. Linux only (the target is a dependency only there).
#ifndef ALMANAC_CEPOLL_SHIM_H
#define ALMANAC_CEPOLL_SHIM_H
#ifdef __linux__
#include <sys/epoll.h>
#endif
#endif
