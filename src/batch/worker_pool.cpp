#include "worker_pool.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>

#include "luxel/util/clock.hpp"

namespace luxel::batch {
namespace {

// Sends all of `text`; false when the other end is gone (no SIGPIPE: the caller sees the worker's end).
bool sendAll(int fd, const std::string& text) {
    size_t sent = 0;
    while (sent < text.size()) {
        const ssize_t n = ::send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        sent += size_t(n);
    }
    return true;
}

pid_t reap(pid_t pid, int& status) {
    for (;;) {
        const pid_t got = ::waitpid(pid, &status, 0);
        if (got >= 0 || errno != EINTR) return got;
    }
}

}  // namespace

WorkerPool::WorkerPool(std::vector<std::string> command, std::vector<std::string> environment)
    : command_(std::move(command)), environment_(std::move(environment)) {}

WorkerPool::~WorkerPool() {
    for (Worker& w : idle_) {
        ::close(w.fd);  // its end of the list: it exits
        int status = 0;
        reap(w.pid, status);
    }
}

WorkerPool::Worker WorkerPool::take() {
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            Worker w = std::move(idle_.back());
            idle_.pop_back();
            return w;
        }
    }
    Worker w;
    int pair[2];
    // Close-on-exec, so a worker started later by another thread does not hold this one's socket open (its
    // end would then never read as closed when this worker dies).
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return w;
    std::vector<std::string> argv = command_, env = environment_;
    std::vector<char*> rawArgv, rawEnv;
    for (std::string& a : argv) rawArgv.push_back(a.data());
    rawArgv.push_back(nullptr);
    for (std::string& e : env) rawEnv.push_back(e.data());
    rawEnv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pair[1], kWorkerFd);  // dup2 clears close-on-exec on the copy
    pid_t pid = -1;
    const int failed = posix_spawn(&pid, rawArgv[0], &actions, nullptr, rawArgv.data(), rawEnv.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(pair[1]);
    if (failed) {
        ::close(pair[0]);
        return w;
    }
    w.pid = pid;
    w.fd = pair[0];
    return w;
}

void WorkerPool::give(Worker worker) {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(worker));
}

WorkerReply WorkerPool::run(const std::string& source, double limitMs) {
    WorkerReply out;
    Worker w = take();
    if (w.pid < 0) {
        out.started = false;
        return out;
    }
    const double t0 = nowMs();
    bool alive = sendAll(w.fd, Json(source).dump() + "\n");
    bool haveLine = false;
    size_t attachment = 0;  // the bytes the line says follow it
    while (alive) {
        if (!haveLine) {
            const size_t newline = w.pending.find('\n');
            if (newline != std::string::npos) {
                out.reply = Json::parse(w.pending.substr(0, newline), nullptr, false);
                w.pending.erase(0, newline + 1);
                haveLine = true;
                if (out.reply.is_object() && out.reply.contains("attachment_bytes")) {
                    const Json& n = out.reply["attachment_bytes"];
                    if (!n.is_number_unsigned() || n.get<uint64_t>() > kMaxAttachmentBytes) {
                        out.reply = Json(Json::value_t::discarded);  // not to be trusted with another map
                        break;
                    }
                    attachment = size_t(n.get<uint64_t>());
                }
            }
        }
        if (haveLine && w.pending.size() >= attachment) {
            out.attachment.assign(w.pending.begin(), w.pending.begin() + ptrdiff_t(attachment));
            w.pending.erase(0, attachment);
            break;
        }
        int timeout = -1;
        if (limitMs > 0) {
            const double left = limitMs - (nowMs() - t0);
            if (left <= 0) {
                ::kill(w.pid, SIGKILL);
                out.hung = true;
                alive = false;
                break;
            }
            timeout = int(std::ceil(left));
        }
        pollfd p{w.fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, timeout);
        if (ready < 0 && errno != EINTR) alive = false;
        if (ready <= 0) continue;
        char buffer[65536];
        const ssize_t n = ::read(w.fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) alive = false;  // the worker is gone
        else w.pending.append(buffer, size_t(n));
    }
    if (!alive) out.reply = Json(), out.attachment.clear();  // a line without all its bytes is no reply
    if (alive && haveLine) {
        if (!out.reply.is_discarded()) {
            give(std::move(w));
            return out;
        }
        out.reply = Json();
        ::kill(w.pid, SIGKILL);  // it said something other than a reply: not to be trusted with another map
    }
    ::close(w.fd);
    reap(w.pid, out.waitStatus);
    return out;
}

void serveWorker(const std::function<WorkerAnswer(const std::string& source)>& render) {
    std::string pending;
    for (;;) {
        const size_t newline = pending.find('\n');
        if (newline == std::string::npos) {
            char buffer[4096];
            const ssize_t n = ::read(kWorkerFd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;  // the batch closed the list
            pending.append(buffer, size_t(n));
            continue;
        }
        const Json request = Json::parse(pending.substr(0, newline), nullptr, false);
        pending.erase(0, newline + 1);
        const std::string source = request.is_string() ? request.get<std::string>() : std::string();
        WorkerAnswer answer = render(source);
        if (!answer.attachment.empty()) answer.reply["attachment_bytes"] = answer.attachment.size();
        std::string message = answer.reply.dump() + "\n";
        message.append(answer.attachment.begin(), answer.attachment.end());
        if (!sendAll(kWorkerFd, message)) return;
    }
}

}  // namespace luxel::batch
