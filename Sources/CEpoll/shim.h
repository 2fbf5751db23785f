// epoll(7) and eventfd(2) for the server's socket poller and event loops: Glibc's Swift module
// includes neither <sys/epoll.h> nor <sys/eventfd.h>. Linux only (the target is a dependency
// only there).
#ifndef ALMANAC_CEPOLL_SHIM_H
#define ALMANAC_CEPOLL_SHIM_H
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>

// The calling thread's event-loop shard (Transport's `LoopShard`), as a C thread-local: read a
// few times on every cached hit, where `pthread_getspecific` behind a lazily made key cost ~34
// instructions a read and this costs one load. Only Transport's LoopShard reads and writes it
// (a `static` in a header is one variable per module that uses it). 0 off any loop.
static __thread long almanac_loop_shard = 0;
static inline long almanac_loop_shard_get(void) { return almanac_loop_shard; }
static inline void almanac_loop_shard_set(long shard) { almanac_loop_shard = shard; }
#endif
#endif
