#pragma once
// Splitting a batch's work list over several processes: shard K of N (1-based, as jest / playwright count
// shards) takes every N-th map starting at the K-th, so shards get similar mixes of small and large maps and
// the union of shards 1..N is the whole list, with no map twice, for any N.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace luxel {

struct Shard {
    int index = 1;  // 1..count
    int count = 1;
    bool all() const { return count == 1; }
};

// "K/N" with 1 <= K <= N <= 100000; throws UsageError.
Shard parseShard(const std::string& text);

// Whether work-list position `i` (0-based) belongs to the shard.
inline bool inShard(size_t i, const Shard& s) { return i % size_t(s.count) == size_t(s.index - 1); }

// The shard a cluster job array gives this process, read through `env` (getenv in production):
// * Slurm job arrays: SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, or with SLURM_ARRAY_TASK_MIN / MAX
//   (task ids need not start at 0 or 1: the shard is the id's place in MIN..MAX; a step other than 1 needs
//   SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_STEP).
// * Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX (0-based) with the count from `shardsOption` (--shards N)
//   or LUXEL_SHARDS.
// nullopt when neither is set. Throws UsageError when the variables are inconsistent (an index past the
// count, an index without a count).
using EnvLookup = std::function<const char*(const char*)>;
std::optional<Shard> shardFromEnvironment(const EnvLookup& env, int shardsOption = 0);

}  // namespace luxel
