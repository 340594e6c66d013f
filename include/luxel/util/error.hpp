#pragma once
// Errors that reach the user as one line. A DecodeError names the file, the part of it (lump) and the
// byte offset, so a user can find the bad bytes with a hex editor.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace luxel {

class DecodeError : public std::runtime_error {
public:
    DecodeError(std::string file, std::string lump, uint64_t offset, const std::string& what);
    const std::string& file() const { return file_; }
    const std::string& lump() const { return lump_; }
    uint64_t offset() const { return offset_; }
    const std::string& detail() const { return detail_; }

private:
    std::string file_, lump_, detail_;
    uint64_t offset_;
};

// A file that claims more than a limit allows (a 60000x60000 texture) or a load past its memory budget: a
// DecodeError that a service can tell apart from damage, to refuse the request instead of drawing without it.
class LimitError : public DecodeError {
public:
    using DecodeError::DecodeError;
};

// Bad command-line use or a request that cannot be met (missing file, unknown camera): exit code 2 as well.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace luxel
