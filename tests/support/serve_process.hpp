#pragma once
// A real `luxel serve` process for tests: started with posix_spawn (no shell) on an ephemeral port of
// 127.0.0.1, its stderr kept in a file, stopped with SIGTERM (SIGKILL if it does not stop in time).
#include <httplib.h>

#include <memory>
#include <string>
#include <vector>

namespace luxel::test {

class ServeProcess {
public:
    // `args` follow "serve"; --listen, --port-file and the log file are added. REQUIREs that it listens.
    explicit ServeProcess(const std::vector<std::string>& args);
    ~ServeProcess();
    ServeProcess(const ServeProcess&) = delete;
    ServeProcess& operator=(const ServeProcess&) = delete;

    int port() const { return port_; }
    pid_t pid() const { return pid_; }
    // A client of this server (paths sent as given: no percent-encoding added).
    std::unique_ptr<httplib::Client> client(int timeoutSeconds = 120) const;
    // Sends SIGTERM and waits for the exit: its status code (-1 when it had to be killed or died of a signal).
    int terminate(double waitSeconds = 60);
    std::string log() const;  // what it printed on stderr so far

private:
    std::string dir_;
    pid_t pid_ = -1;
    int port_ = 0;
};

}  // namespace luxel::test
