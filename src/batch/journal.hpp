#pragma once
// Internal to the batch stage: the journal a batch keeps in its output folder (journal.jsonl), so a run killed at
// any moment (kill -9, the OOM killer, a preempted Slurm job) loses nothing it finished. One JSON line per
// event, appended with one write() each:
//   {"run": PID}                     a run started
//   {"start": SOURCE}                a map started (with "isolated": true when in a child process)
//   {"done": ENTRY}                  a map finished: its manifest entry (ok or failed)
// Each line is synced (fdatasync) as it is written. A line torn by a kill is ignored when read. The manifest written at the end of a run makes the journal redundant: it
// is removed then.
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "batch_parts.hpp"

namespace luxel::batch {

struct JournalState {
    std::vector<Json> finished;  // "done" entries in the order written (a later one of a source wins)
    // Per source: in how many runs, up to the last, it was started in the batch's own process and never finished.
    // The next run tries such a map in a child process, where a crash is seen and recorded as the second; a run
    // killed while the child ran adds nothing (the map could not have taken that process down). Two means it
    // crashed the process twice: the batch then skips it as poison.
    std::map<std::string, int> unfinishedRuns;
};

// Reads outDir/journal.jsonl (empty state when there is none).
JournalState readJournal(const std::string& outDir);

class Journal {
public:
    // Opens outDir/journal.jsonl for appending (a torn last line is ended first) and records a new run.
    explicit Journal(const std::string& outDir);
    ~Journal();
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;

    void started(const std::string& source, bool isolated = false);
    void finished(const Json& entry);  // synced before it returns
    // The manifest is written: the journal is no longer needed.
    void remove();

private:
    void append(const std::string& line, bool sync);
    std::string path_;
    int fd_ = -1;
    std::mutex mutex_;
};

// The maps a journal says are poison: started and never finished in two runs in a row.
constexpr int kPoisonRuns = 2;

}  // namespace luxel::batch
