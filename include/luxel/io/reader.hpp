#pragma once
// The one bounds-checked little-endian reader every decoder goes through. Each read past the end of
// its window throws a DecodeError naming the file, the lump and the absolute byte offset.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "luxel/util/error.hpp"

namespace luxel {

class ByteReader {
public:
    // `base` is the absolute file offset of data[0], so errors report positions in the file.
    ByteReader(std::span<const uint8_t> data, std::string file, std::string lump = {}, uint64_t base = 0)
        : data_(data), file_(std::move(file)), lump_(std::move(lump)), base_(base) {}

    size_t size() const { return data_.size(); }
    size_t position() const { return pos_; }
    size_t remaining() const { return data_.size() - pos_; }
    uint64_t absolute(size_t local) const { return base_ + local; }
    const std::string& file() const { return file_; }
    const std::string& lump() const { return lump_; }
    std::span<const uint8_t> data() const { return data_; }

    void seek(size_t pos) {
        if (pos > data_.size()) fail(pos, "seek past end (size " + std::to_string(data_.size()) + ")");
        pos_ = pos;
    }
    void skip(size_t n) { need(n); pos_ += n; }

    uint8_t u8() { need(1); return data_[pos_++]; }
    int8_t i8() { return static_cast<int8_t>(u8()); }
    uint16_t u16() { need(2); uint16_t v = uint16_t(data_[pos_] | (data_[pos_ + 1] << 8)); pos_ += 2; return v; }
    int16_t i16() { return static_cast<int16_t>(u16()); }
    uint32_t u32() {
        need(4);
        uint32_t v = uint32_t(data_[pos_]) | (uint32_t(data_[pos_ + 1]) << 8) | (uint32_t(data_[pos_ + 2]) << 16) |
                     (uint32_t(data_[pos_ + 3]) << 24);
        pos_ += 4;
        return v;
    }
    int32_t i32() { return static_cast<int32_t>(u32()); }
    uint64_t u64() { uint64_t lo = u32(); uint64_t hi = u32(); return lo | (hi << 32); }
    float f32() { uint32_t bits = u32(); float f; std::memcpy(&f, &bits, 4); return f; }

    // A fixed-size, NUL-padded string field.
    std::string fixedString(size_t n) {
        need(n);
        const char* p = reinterpret_cast<const char*>(data_.data() + pos_);
        size_t len = strnlen(p, n);
        pos_ += n;
        return std::string(p, len);
    }
    std::span<const uint8_t> bytes(size_t n) { need(n); auto s = data_.subspan(pos_, n); pos_ += n; return s; }

    // A window [offset, offset+length) of this reader, named as a lump.
    ByteReader sub(uint64_t offset, uint64_t length, std::string lump) const {
        if (offset > data_.size() || length > data_.size() - offset)
            throw DecodeError(file_, lump, base_ + offset,
                              "extends past end of data (" + std::to_string(length) + " bytes at offset " +
                                  std::to_string(offset) + ", data is " + std::to_string(data_.size()) + " bytes)");
        return ByteReader(data_.subspan(size_t(offset), size_t(length)), file_, std::move(lump), base_ + offset);
    }

    // Number of whole records of `recordSize` bytes in this window; throws if the size is not a multiple.
    size_t recordCount(size_t recordSize) const {
        if (data_.size() % recordSize != 0)
            fail(0, "size " + std::to_string(data_.size()) + " is not a multiple of the record size " +
                        std::to_string(recordSize));
        return data_.size() / recordSize;
    }

    [[noreturn]] void fail(size_t local, const std::string& what) const {
        throw DecodeError(file_, lump_, base_ + local, what);
    }
    // A size the file claims that is past a limit (LimitError), not damage.
    [[noreturn]] void failLimit(size_t local, const std::string& what) const {
        throw LimitError(file_, lump_, base_ + local, what);
    }

private:
    void need(size_t n) const {
        if (n > data_.size() - pos_)
            fail(pos_, "unexpected end of data (need " + std::to_string(n) + " bytes, " +
                           std::to_string(data_.size() - pos_) + " left)");
    }

    std::span<const uint8_t> data_;
    std::string file_, lump_;
    uint64_t base_ = 0;
    size_t pos_ = 0;
};

}  // namespace luxel
