#include "journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "luxel/util/error.hpp"
#include "test_hooks.hpp"

namespace luxel::batch {
namespace fs = std::filesystem;

namespace {

std::string journalPath(const std::string& outDir) { return (fs::path(outDir) / "journal.jsonl").string(); }

}  // namespace

JournalState readJournal(const std::string& outDir) {
    JournalState state;
    std::ifstream in(journalPath(outDir), std::ios::binary);
    if (!in) return state;
    std::set<std::string> startedThisRun, finishedThisRun;
    bool anyRun = false;
    auto endRun = [&] {  // a run ended (killed or not): its unfinished maps get one more strike
        for (const std::string& s : startedThisRun)
            if (!finishedThisRun.count(s)) ++state.unfinishedRuns[s];
        startedThisRun.clear();
        finishedThisRun.clear();
    };
    std::string line;
    while (std::getline(in, line)) {
        if (in.eof()) break;  // no newline: a line torn by a kill
        const Json j = Json::parse(line, nullptr, false);
        if (!j.is_object()) continue;
        if (j.contains("run")) {
            if (anyRun) endRun();
            anyRun = true;
        } else if (j.contains("start") && j["start"].is_string()) {
            // A map in a child process cannot have killed this run: its crash would have been seen and recorded.
            if (!j.value("isolated", false)) startedThisRun.insert(j["start"].get<std::string>());
        } else if (j.contains("done") && j["done"].is_object()) {
            const Json& e = j["done"];
            const std::string source = e.value("source", "");
            // A map marked as poison stays poison: its verdict is not a finish.
            if (!e.value("poison", false)) {
                finishedThisRun.insert(source);
                state.unfinishedRuns.erase(source);
            }
            state.finished.push_back(e);
        }
    }
    if (anyRun) endRun();
    for (auto it = state.unfinishedRuns.begin(); it != state.unfinishedRuns.end();)
        it = it->second > 0 ? std::next(it) : state.unfinishedRuns.erase(it);
    return state;
}

Journal::Journal(const std::string& outDir) : path_(journalPath(outDir)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw UsageError(path_ + ": cannot open the batch journal: " + std::strerror(errno));
    // A kill in the middle of a line leaves it without its newline: end it, so the next line starts clean.
    std::error_code ec;
    const auto size = fs::file_size(path_, ec);
    if (!ec && size > 0) {
        std::ifstream in(path_, std::ios::binary);
        in.seekg(std::streamoff(size - 1));
        if (in.get() != '\n') append("", false);
    }
    append(Json{{"run", ::getpid()}}.dump(), true);
}

Journal::~Journal() {
    if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const std::string& line, bool sync) {
    const std::string text = line + "\n";
    std::lock_guard lock(mutex_);
    if (fd_ < 0) return;
    const size_t tornAt = testKillPoint("journal-write") ? text.size() / 2 : text.size();
    size_t done = 0;
    while (done < tornAt) {
        const ssize_t n = ::write(fd_, text.data() + done, tornAt - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw UsageError(path_ + ": cannot write the batch journal: " + std::strerror(errno));
        done += size_t(n);
    }
    if (tornAt < text.size()) testKillNow();
    // Every line reaches the disk before the batch goes on (a map takes far longer than a sync): a machine that
    // loses power keeps what a kill would.
    (void)sync;
    ::fdatasync(fd_);
}

void Journal::started(const std::string& source, bool isolated) {
    Json line{{"start", source}};
    if (isolated) line["isolated"] = true;
    append(line.dump(), false);
}

void Journal::finished(const Json& entry) { append(Json{{"done", entry}}.dump(), true); }

void Journal::remove() {
    std::lock_guard lock(mutex_);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    std::error_code ec;
    fs::remove(path_, ec);
}

}  // namespace luxel::batch
