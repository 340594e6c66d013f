#include "luxel/batch/shard.hpp"

#include <charconv>
#include <string_view>

#include <fmt/format.h>

#include "luxel/util/error.hpp"

namespace luxel {
namespace {

constexpr long kMaxShards = 100000;

std::optional<long> parseLong(std::string_view s) {
    long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<long> envLong(const EnvLookup& env, const char* name) {
    const char* v = env(name);
    if (!v || !*v) return std::nullopt;
    auto n = parseLong(v);
    if (!n) throw UsageError(fmt::format("environment variable {}='{}' is not a whole number", name, v));
    return n;
}

Shard checked(long index, long count, const std::string& from) {
    if (count < 1 || count > kMaxShards)
        throw UsageError(fmt::format("{}: {} shards (must be 1 to {})", from, count, kMaxShards));
    if (index < 1 || index > count)
        throw UsageError(fmt::format("{}: shard {} of {} does not exist (shards are 1 to {})", from, index, count, count));
    return {int(index), int(count)};
}

}  // namespace

Shard parseShard(const std::string& text) {
    const size_t slash = text.find('/');
    const auto k = parseLong(std::string_view(text).substr(0, slash == std::string::npos ? text.size() : slash));
    const auto n = slash == std::string::npos ? std::nullopt : parseLong(std::string_view(text).substr(slash + 1));
    if (!k || !n) throw UsageError("--shard wants K/N (shard K of N, counted from 1), got '" + text + "'");
    return checked(*k, *n, "--shard " + text);
}

std::optional<Shard> shardFromEnvironment(const EnvLookup& env, int shardsOption) {
    if (const auto id = envLong(env, "SLURM_ARRAY_TASK_ID")) {
        const auto count = envLong(env, "SLURM_ARRAY_TASK_COUNT");
        const auto min = envLong(env, "SLURM_ARRAY_TASK_MIN");
        const auto max = envLong(env, "SLURM_ARRAY_TASK_MAX");
        const long step = envLong(env, "SLURM_ARRAY_TASK_STEP").value_or(1);
        if (step < 1) throw UsageError(fmt::format("SLURM_ARRAY_TASK_STEP={} must be at least 1", step));
        const long first = min.value_or(0);
        if ((*id - first) % step != 0)
            throw UsageError(fmt::format("SLURM_ARRAY_TASK_ID={} is not on the array's step {} from {}", *id, step, first));
        long n = 0;
        if (count)
            n = *count;
        else if (min && max)
            n = (*max - *min) / step + 1;
        else
            throw UsageError("SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN/MAX");
        return checked((*id - first) / step + 1, n, "Slurm job array");
    }
    if (const auto index = envLong(env, "JOB_COMPLETION_INDEX")) {
        long n = shardsOption;
        if (n == 0) n = envLong(env, "LUXEL_SHARDS").value_or(0);
        if (n == 0)
            throw UsageError("JOB_COMPLETION_INDEX is set (Kubernetes Indexed Job) but not the shard count: give "
                             "--shards N or set LUXEL_SHARDS");
        return checked(*index + 1, n, "Kubernetes Indexed Job");
    }
    return std::nullopt;
}

}  // namespace luxel
