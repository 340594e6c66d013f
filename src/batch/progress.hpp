#pragma once
// Batch progress on stderr: on a terminal one line rewritten in place (done / total, maps per second, ETA,
// failures), otherwise one plain line per finished map so logs (Slurm, CI) stay readable.
#include <cstddef>
#include <string>

namespace luxel::batch {

class Progress {
public:
    Progress(size_t total, bool quiet, bool verbose);
    // Called in work-list order from one thread at a time.
    void mapFinished(const std::string& name, const std::string& status, double ms, const std::string& error);
    void warning(const std::string& mapName, const std::string& text);
    void finish();

private:
    size_t total_, done_ = 0, failed_ = 0;
    bool quiet_, verbose_, tty_;
    double start_;
};

}  // namespace luxel::batch
