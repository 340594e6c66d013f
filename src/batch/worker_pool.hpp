#pragma once
// Internal to the batch stage: the long-lived child processes that render maps for --isolate (and for maps an
// earlier run started and never finished). Each worker is this binary run as `batch ... --worker`: it mounts
// the game, keeps its texture cache and heap warm, and takes one map after another over a socket on its fd 3:
//   parent -> worker   one line per map: the map's source as a JSON string
//   worker -> parent   one line per map: {"entry": ..., "up_to_date": ..., "warnings": [...]}, and when the line
//                      holds "attachment_bytes": N, N raw bytes after it (the sheet thumbnail's pixels)
// A crash or a hang costs the map in flight only: the worker is gone (or killed), and the next map starts a new
// one. A started worker is reused for as long as it lives.
#include <sys/types.h>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "batch_parts.hpp"

namespace luxel::batch {

// The fd a worker reads its maps from and writes its replies to.
constexpr int kWorkerFd = 3;

// What a worker answers for one map: its reply line and the raw bytes that follow it.
struct WorkerAnswer {
    Json reply;
    std::vector<uint8_t> attachment;
};

// A worker's raw bytes after a reply line are at most this many (a sheet thumbnail holds ~110 KB).
constexpr size_t kMaxAttachmentBytes = size_t(64) << 20;

struct WorkerReply {
    Json reply;            // the worker's line; null when it gave none:
    std::vector<uint8_t> attachment;  // the bytes after it
    bool started = true;   // no worker could be started,
    bool hung = false;     // or it passed the time limit and was killed,
    int waitStatus = 0;    // or it ended with this waitpid() status (a crash: WIFSIGNALED)
};

class WorkerPool {
public:
    // `command`: the worker's argv (the binary first), without --worker. `environment`: its environment.
    WorkerPool(std::vector<std::string> command, std::vector<std::string> environment);
    ~WorkerPool();  // ends every worker: its socket closed, it exits at the end of its map list
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Renders `source` in an idle worker (started when there is none) and waits for its reply, at most
    // `limitMs` (0: no limit) before killing it.
    WorkerReply run(const std::string& source, double limitMs);

private:
    struct Worker {
        pid_t pid = -1;
        int fd = -1;
        std::string pending;  // bytes read past the last reply line
    };
    Worker take();              // an idle worker, or a new one
    void give(Worker worker);   // back to the idle list
    std::vector<std::string> command_, environment_;
    std::vector<Worker> idle_;
    std::mutex mutex_;
};

// The worker's side: reads map sources from kWorkerFd until it closes, calling `render` for each and writing
// its reply line back. Returns when the parent closes the socket.
void serveWorker(const std::function<WorkerAnswer(const std::string& source)>& render);

}  // namespace luxel::batch
