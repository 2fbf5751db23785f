// The calling thread's event-loop shard (Transport's `LoopShard`), as a C thread-local: read a
// few times on every cached hit, where `pthread_getspecific` behind a lazily made key cost ~34
// instructions a read and this costs one load. One variable for the whole program, defined in
// loop_shard.c, so code of any module may read it (cross-module inlining included). 0 off any
// loop. `initial-exec`: the program is one executable, so the variable's offset is fixed at
// load time and no `__tls_get_addr` call is needed.
#ifndef ALMANAC_LOOP_SHARD_H
#define ALMANAC_LOOP_SHARD_H

extern __thread long almanac_loop_shard __attribute__((tls_model("initial-exec")));

static inline long almanac_loop_shard_get(void) { return almanac_loop_shard; }
static inline void almanac_loop_shard_set(long shard) { almanac_loop_shard = shard; }

#endif
