// epoll(7) and eventfd(2) for the server's socket poller and event loops: Glibc's Swift module
// includes neither <sys/epoll.h> nor <sys/eventfd.h>. Linux only (the target is a dependency
// only there).
#ifndef ALMANAC_CEPOLL_SHIM_H
#define ALMANAC_CEPOLL_SHIM_H
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
#endif
