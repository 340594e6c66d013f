// Shards (src/batch/shard.cpp): K/N parsing, the partition of a work list, and the shard a Slurm job array or a
// Kubernetes Indexed Job gives a process (environment read through a lookup function, never setenv).
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "luxel/batch/batch.hpp"
#include "luxel/batch/shard.hpp"
#include "luxel/util/error.hpp"

using namespace luxel;

namespace {

using Env = std::map<std::string, std::string>;

EnvLookup lookup(const Env& env) {
    return [env](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    };
}

std::string usageErrorOf(const Env& env, int shardsOption = 0) {
    try {
        shardFromEnvironment(lookup(env), shardsOption);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("parseShard accepts K/N with 1 <= K <= N", "[shard]") {
    Shard s = parseShard("1/1");
    CHECK(s.index == 1);
    CHECK(s.count == 1);
    CHECK(s.all());
    s = parseShard("2/4");
    CHECK(s.index == 2);
    CHECK(s.count == 4);
    CHECK_FALSE(s.all());
    s = parseShard("100000/100000");
    CHECK(s.index == 100000);
    CHECK(s.count == 100000);
    CHECK(parseShard("7/12").index == 7);
    CHECK(Shard{}.all());
}

TEST_CASE("parseShard rejects everything else with a UsageError", "[shard]") {
    for (const char* bad : {"", "/", "1", "1/", "/2", "0/3", "4/3", "-1/3", "1/0", "1/-2", "a/b", "1/2/3", " 1/2",
                            "1/2 ", "1.0/2", "1//2", "2/100001", "1/99999999999999999999", "+1/2"}) {
        INFO("'" << bad << "'");
        CHECK_THROWS_AS(parseShard(bad), UsageError);
    }
    try {
        parseShard("5/3");
        FAIL("no error");
    } catch (const UsageError& e) {
        CHECK(std::string(e.what()).find("5/3") != std::string::npos);
    }
}

TEST_CASE("shards 1..N of any list are a partition: every position exactly once", "[shard]") {
    for (int n = 1; n <= 12; ++n)
        for (size_t size = 0; size <= 40; ++size) {
            std::vector<int> owners(size, 0);
            std::vector<size_t> perShard(size_t(n) + 1, 0);
            for (int k = 1; k <= n; ++k) {
                const Shard s = parseShard(std::to_string(k) + "/" + std::to_string(n));
                for (size_t i = 0; i < size; ++i)
                    if (inShard(i, s)) {
                        ++owners[i];
                        ++perShard[size_t(k)];
                    }
            }
            INFO("N=" << n << " size=" << size);
            for (size_t i = 0; i < size; ++i) REQUIRE(owners[i] == 1);
            // Balanced: shard sizes differ by at most one, and the earlier shards take the remainder.
            for (int k = 1; k <= n; ++k) {
                const size_t expected = size / size_t(n) + (size_t(k) <= size % size_t(n) ? 1 : 0);
                REQUIRE(perShard[size_t(k)] == expected);
            }
        }
    // Round-robin, hand-checked: shard 2/3 of 8 is positions 1, 4, 7.
    std::vector<size_t> mine;
    for (size_t i = 0; i < 8; ++i)
        if (inShard(i, {2, 3})) mine.push_back(i);
    CHECK(mine == std::vector<size_t>{1, 4, 7});
}

TEST_CASE("shardFromEnvironment: nothing set is no shard", "[shard]") {
    CHECK_FALSE(shardFromEnvironment(lookup({})));
    CHECK_FALSE(shardFromEnvironment(lookup({}), 4));
    // Empty values count as unset; unrelated variables are ignored.
    CHECK_FALSE(shardFromEnvironment(lookup({{"SLURM_ARRAY_TASK_ID", ""}, {"SLURM_JOB_ID", "77"}})));
    CHECK_FALSE(shardFromEnvironment(lookup({{"LUXEL_SHARDS", "4"}})));
}

TEST_CASE("shardFromEnvironment: Slurm job arrays", "[shard]") {
    // --array=0-3: ids 0..3 with a count.
    for (int id = 0; id < 4; ++id) {
        auto s = shardFromEnvironment(lookup({{"SLURM_ARRAY_TASK_ID", std::to_string(id)}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
        REQUIRE(s);
        CHECK(s->index == id + 1);
        CHECK(s->count == 4);
    }
    // --array=5-8: ids 5..8, the shard is the id's place in MIN..MAX (with or without COUNT).
    for (int id = 5; id <= 8; ++id) {
        Env env = {{"SLURM_ARRAY_TASK_ID", std::to_string(id)}, {"SLURM_ARRAY_TASK_MIN", "5"}, {"SLURM_ARRAY_TASK_MAX", "8"}};
        auto s = shardFromEnvironment(lookup(env));
        REQUIRE(s);
        CHECK(s->index == id - 4);
        CHECK(s->count == 4);
        env["SLURM_ARRAY_TASK_COUNT"] = "4";
        s = shardFromEnvironment(lookup(env));
        REQUIRE(s);
        CHECK(s->index == id - 4);
        CHECK(s->count == 4);
    }
    // --array=1-11:2: ids 1, 3, 5, 7, 9, 11 -> shards 1..6 of 6.
    for (int id = 1; id <= 11; id += 2) {
        Env env = {{"SLURM_ARRAY_TASK_ID", std::to_string(id)}, {"SLURM_ARRAY_TASK_MIN", "1"},
                   {"SLURM_ARRAY_TASK_MAX", "11"}, {"SLURM_ARRAY_TASK_STEP", "2"}, {"SLURM_ARRAY_TASK_COUNT", "6"}};
        auto s = shardFromEnvironment(lookup(env));
        REQUIRE(s);
        CHECK(s->index == (id - 1) / 2 + 1);
        CHECK(s->count == 6);
        env.erase("SLURM_ARRAY_TASK_COUNT");  // the count follows from MIN, MAX and STEP
        s = shardFromEnvironment(lookup(env));
        REQUIRE(s);
        CHECK(s->index == (id - 1) / 2 + 1);
        CHECK(s->count == 6);
    }
    // Every task of an array gets a different shard and together they cover 1..N.
    std::vector<int> seen(7, 0);
    for (int id = 10; id <= 16; ++id)
        seen[size_t(shardFromEnvironment(lookup({{"SLURM_ARRAY_TASK_ID", std::to_string(id)},
                                                 {"SLURM_ARRAY_TASK_MIN", "10"},
                                                 {"SLURM_ARRAY_TASK_MAX", "16"},
                                                 {"SLURM_ARRAY_TASK_COUNT", "7"}}))
                        ->index -
                    1)]++;
    CHECK(seen == std::vector<int>(7, 1));
}

TEST_CASE("shardFromEnvironment: inconsistent Slurm variables are UsageErrors", "[shard]") {
    // An id without a count.
    CHECK_FALSE(usageErrorOf({{"SLURM_ARRAY_TASK_ID", "2"}}).empty());
    // An id past the count / outside MIN..MAX.
    CHECK_FALSE(usageErrorOf({{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}).empty());
    CHECK_FALSE(usageErrorOf({{"SLURM_ARRAY_TASK_ID", "9"}, {"SLURM_ARRAY_TASK_MIN", "5"}, {"SLURM_ARRAY_TASK_MAX", "8"}}).empty());
    CHECK_FALSE(usageErrorOf({{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_MIN", "5"}, {"SLURM_ARRAY_TASK_MAX", "8"}}).empty());
    // An id off the step.
    CHECK_FALSE(usageErrorOf({{"SLURM_ARRAY_TASK_ID", "2"},
                              {"SLURM_ARRAY_TASK_MIN", "1"},
                              {"SLURM_ARRAY_TASK_MAX", "11"},
                              {"SLURM_ARRAY_TASK_STEP", "2"}})
                     .empty());
    CHECK_FALSE(usageErrorOf({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "2"}, {"SLURM_ARRAY_TASK_STEP", "0"}}).empty());
    // Not numbers: the message names the variable.
    const std::string e = usageErrorOf({{"SLURM_ARRAY_TASK_ID", "two"}, {"SLURM_ARRAY_TASK_COUNT", "4"}});
    CHECK(e.find("SLURM_ARRAY_TASK_ID") != std::string::npos);
    CHECK_FALSE(usageErrorOf({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "4x"}}).empty());
}

TEST_CASE("shardFromEnvironment: Kubernetes Indexed Jobs", "[shard]") {
    // The count from --shards.
    for (int index = 0; index < 5; ++index) {
        auto s = shardFromEnvironment(lookup({{"JOB_COMPLETION_INDEX", std::to_string(index)}}), 5);
        REQUIRE(s);
        CHECK(s->index == index + 1);
        CHECK(s->count == 5);
    }
    // The count from LUXEL_SHARDS.
    for (int index = 0; index < 3; ++index) {
        auto s = shardFromEnvironment(lookup({{"JOB_COMPLETION_INDEX", std::to_string(index)}, {"LUXEL_SHARDS", "3"}}));
        REQUIRE(s);
        CHECK(s->index == index + 1);
        CHECK(s->count == 3);
    }
    // --shards wins over LUXEL_SHARDS.
    auto s = shardFromEnvironment(lookup({{"JOB_COMPLETION_INDEX", "3"}, {"LUXEL_SHARDS", "3"}}), 4);
    REQUIRE(s);
    CHECK(s->index == 4);
    CHECK(s->count == 4);

    // A missing count, an index past the count, a negative index: UsageErrors.
    std::string e = usageErrorOf({{"JOB_COMPLETION_INDEX", "0"}});
    CHECK(e.find("--shards") != std::string::npos);
    CHECK(e.find("LUXEL_SHARDS") != std::string::npos);
    CHECK_FALSE(usageErrorOf({{"JOB_COMPLETION_INDEX", "3"}}, 3).empty());
    CHECK_FALSE(usageErrorOf({{"JOB_COMPLETION_INDEX", "3"}, {"LUXEL_SHARDS", "3"}}).empty());
    CHECK_FALSE(usageErrorOf({{"JOB_COMPLETION_INDEX", "-1"}, {"LUXEL_SHARDS", "3"}}).empty());
    CHECK_FALSE(usageErrorOf({{"JOB_COMPLETION_INDEX", "x"}, {"LUXEL_SHARDS", "3"}}).empty());
    CHECK_FALSE(usageErrorOf({{"JOB_COMPLETION_INDEX", "0"}, {"LUXEL_SHARDS", "0"}}).empty());
    CHECK_FALSE(usageErrorOf({{"JOB_COMPLETION_INDEX", "0"}, {"LUXEL_SHARDS", "zero"}}).empty());
}

TEST_CASE("batchJobs: one map more than the threads, fewer when memory is short, never zero", "[shard]") {
    const size_t gig = size_t(1) << 30;
    CHECK(batchJobs(4, 64 * gig) == 5);
    CHECK(batchJobs(2, 64 * gig) == 3);
    CHECK(batchJobs(1, 64 * gig) == 1);  // one thread: a second map would only take turns with the first
    CHECK(batchJobs(0, 64 * gig) == 1);
    // 5/8 of the memory for maps at kMapMemoryEstimate (384 MiB) each: 1.5 GiB -> 960 MiB -> 2 maps.
    CHECK(batchJobs(8, 3 * gig / 2) == 2);
    CHECK(batchJobs(2, 3 * gig / 2) == 2);
    CHECK(batchJobs(8, 4 * gig) == 6);  // 2560 MiB / 384 MiB = 6.67
    CHECK(batchJobs(8, 0) == 9);        // no cap: one more than the threads
    CHECK(batchJobs(0, 0) == 1);
    CHECK(batchJobs(8, 100) == 1);
}
