// The one definition of the loop-shard thread-local (see include/loop_shard.h).
#include "loop_shard.h"

__thread long almanac_loop_shard __attribute__((tls_model("initial-exec"))) = 0;
