// SingleFlight: one maker per key among concurrent callers, failures never kept, successes kept or not as asked.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "luxel/util/single_flight.hpp"

using luxel::SingleFlight;

namespace {

// Eight threads asking for `key` at once while the maker holds them up for 50 ms.
std::vector<int> askTogether(SingleFlight<int>& flights, std::atomic<int>& made, const std::string& key) {
    std::vector<int> got(8, -1);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < got.size(); ++i)
        threads.emplace_back([&, i] {
            got[i] = flights.get(key, [&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                return ++made;
            });
        });
    for (std::thread& t : threads) t.join();
    return got;
}

}  // namespace

TEST_CASE("single flight: concurrent callers of one key share one making", "[util]") {
    SingleFlight<int> flights(SingleFlight<int>::Keep::Successes);
    std::atomic<int> made{0};
    // The first caller makes for 50 ms; the others arrive within that time and wait for its value. (A caller that
    // came later still finds the kept success, so the count is 1 however the threads are scheduled.)
    CHECK(askTogether(flights, made, "a") == std::vector<int>(8, 1));
    CHECK(made == 1);
    CHECK(flights.get("a", [] { return 99; }) == 1);  // kept
    CHECK(flights.get("b", [] { return 7; }) == 7);    // another key makes its own
    flights.forget("a");
    CHECK(flights.get("a", [] { return 5; }) == 5);
    flights.forgetIf([](const std::string& key) { return key == "b"; });
    CHECK(flights.get("b", [] { return 6; }) == 6);
}

TEST_CASE("single flight: a failure reaches every waiter and is not kept", "[util]") {
    SingleFlight<int> flights(SingleFlight<int>::Keep::Successes);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
        threads.emplace_back([&] {
            try {
                (void)flights.get("k", []() -> int {
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
                    throw std::runtime_error("no");
                });
            } catch (const std::runtime_error&) {
                ++failures;
            }
        });
    for (std::thread& t : threads) t.join();
    CHECK(failures == 4);
    CHECK(flights.get("k", [] { return 3; }) == 3);  // tried again
}

TEST_CASE("single flight: Keep::Nothing makes again once a making is done", "[util]") {
    SingleFlight<int> flights(SingleFlight<int>::Keep::Nothing);
    std::atomic<int> made{0};
    CHECK(flights.get("k", [&] { return ++made; }) == 1);
    CHECK(flights.get("k", [&] { return ++made; }) == 2);
    // A waiter's bound: `wait` sees the maker's future and may give up (here by throwing).
    std::atomic<bool> making{false}, release{false};
    std::thread maker([&] {
        (void)flights.get("slow", [&] {
            making = true;
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 1;
        });
    });
    while (!making) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    bool gaveUp = false;
    try {
        (void)flights.get("slow", [] { return 2; }, [](const std::shared_future<int>& other) {
            if (other.wait_for(std::chrono::milliseconds(10)) != std::future_status::ready) throw std::runtime_error("late");
        });
    } catch (const std::runtime_error&) {
        gaveUp = true;
    }
    release = true;
    maker.join();
    CHECK(gaveUp);
}
