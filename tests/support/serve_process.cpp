#include "support/serve_process.hpp"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "support/test_paths.hpp"

extern char** environ;

namespace luxel::test {
namespace fs = std::filesystem;

ServeProcess::ServeProcess(const std::vector<std::string>& args) {
    static int counter = 0;
    dir_ = tempDir("serve-process-" + std::to_string(counter++));
    std::vector<std::string> argv = {LUXEL_BINARY, "serve"};
    argv.insert(argv.end(), args.begin(), args.end());
    for (const char* a : {"--listen", "127.0.0.1:0", "--port-file"}) argv.push_back(a);
    argv.push_back(dir_ + "/port");
    std::vector<char*> raw;
    for (std::string& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string logPath = dir_ + "/stderr.log";
    posix_spawn_file_actions_addopen(&actions, 2, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    const int spawned = posix_spawn(&pid_, raw[0], &actions, nullptr, raw.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(spawned == 0);
    // The sanitizer build starts slowly and lists the roots at -O0: allow a minute.
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < limit) {
        const std::string text = readFileText(dir_ + "/port");
        if (!text.empty()) {
            port_ = std::stoi(text);
            break;
        }
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            FAIL("luxel serve exited before listening: " << log());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE(port_ > 0);
}

ServeProcess::~ServeProcess() {
    if (pid_ > 0) terminate(30);
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

std::unique_ptr<httplib::Client> ServeProcess::client(int timeoutSeconds) const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
    c->set_url_encode(false);
    c->set_read_timeout(timeoutSeconds, 0);
    c->set_write_timeout(timeoutSeconds, 0);
    c->set_keep_alive(true);
    return c;
}

int ServeProcess::terminate(double waitSeconds) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, SIGTERM);
    const auto limit = std::chrono::steady_clock::now() + std::chrono::duration<double>(waitSeconds);
    int status = 0;
    while (std::chrono::steady_clock::now() < limit) {
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return -1;
}

std::string ServeProcess::log() const { return readFileText(dir_ + "/stderr.log"); }

}  // namespace luxel::test
