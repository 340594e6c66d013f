#pragma once
// Reading helpers the studio model parsers share (internal to src/model).
#include <cstdint>
#include <string>

#include "luxel/io/reader.hpp"

namespace luxel::studio {

// Throws unless `count` records of `recordBytes` starting at `offset` lie inside the reader's window.
inline void checkTable(const ByteReader& r, size_t fieldAt, int64_t offset, int64_t count, size_t recordBytes,
                       const char* what) {
    if (count < 0 || offset < 0 || uint64_t(offset) > r.size() ||
        uint64_t(count) * recordBytes > r.size() - uint64_t(offset))
        r.fail(fieldAt, std::to_string(count) + " " + what + " at offset " + std::to_string(offset) +
                            " do not fit the file (" + std::to_string(r.size()) + " bytes)");
}

// Records visited at one level of a table tree (body parts -> models -> meshes ...). Real files give every
// record its own bytes, so a level's records together fit the file; a hostile file pointing many parents at
// one child table would otherwise multiply the records read (and the memory they fill) level by level.
class TableBudget {
public:
    // Adds `count` records of `recordBytes` and throws at `fieldAt` once the level's records together need more
    // bytes than the file has.
    void add(const ByteReader& r, size_t fieldAt, int64_t count, size_t recordBytes, const char* what) {
        bytes_ += uint64_t(count) * recordBytes;
        if (bytes_ > r.size())
            r.fail(fieldAt, std::string(what) + ": their tables together need " + std::to_string(bytes_) +
                                " bytes, more than the file's " + std::to_string(r.size()) + " (tables shared by parents)");
    }

private:
    uint64_t bytes_ = 0;
};

// checkTable, then the table counted against its level's budget.
inline void checkTable(const ByteReader& r, size_t fieldAt, int64_t offset, int64_t count, size_t recordBytes,
                       const char* what, TableBudget& level) {
    checkTable(r, fieldAt, offset, count, recordBytes, what);
    level.add(r, fieldAt, count, recordBytes, what);
}

// A NUL-terminated string at `offset`, at most `maxLength` bytes, ending inside the window.
inline std::string cString(const ByteReader& r, int64_t offset, size_t maxLength, const char* what) {
    if (offset < 0 || uint64_t(offset) >= r.size()) r.fail(0, std::string(what) + " name offset " + std::to_string(offset) + " outside the file");
    const auto data = r.data().subspan(size_t(offset));
    for (size_t i = 0; i < data.size() && i <= maxLength; ++i)
        if (data[i] == 0) return std::string(reinterpret_cast<const char*>(data.data()), i);
    r.fail(size_t(offset), std::string(what) + " name has no end within " + std::to_string(maxLength) + " bytes");
}

// '\\' -> '/', ASCII lower case: how the engine's file system compares names.
inline std::string gamePathForm(std::string s) {
    for (char& c : s) c = c == '\\' ? '/' : (c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c);
    return s;
}

}  // namespace luxel::studio
