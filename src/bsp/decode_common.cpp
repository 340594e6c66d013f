#include "decode_common.hpp"

#include <cstring>

#include "luxel/bsp/entities.hpp"
#include "luxel/bsp/viewpoints.hpp"

namespace luxel::bsp {

ByteReader readIbspHeader(const MapSource& source, int32_t version, World& w) {
    ByteReader file(source.bytes, source.displayName, "header", 0);
    if (file.fixedString(4) != "IBSP") file.fail(0, "not an IBSP file");
    w.version = file.i32();
    if (w.version != version)
        file.fail(4, "unsupported IBSP version " + std::to_string(w.version) + " (supported: " +
                         std::to_string(version) + ")");
    return file;
}

void readLumpDirectory(ByteReader& file, std::span<const char* const> names, DirectoryCheck check,
                       std::vector<ByteReader>& lumps, World& w) {
    lumps.reserve(names.size());
    w.lumps.reserve(names.size());
    for (const char* name : names) {
        const size_t at = file.position();
        const uint32_t offset = file.u32(), length = file.u32();
        if (check == DirectoryCheck::AtEntry &&
            (int32_t(offset) < 0 || int32_t(length) < 0 || uint64_t(offset) + uint64_t(length) > file.size()))
            throw DecodeError(file.file(), name, at,
                              "lump directory entry (offset " + std::to_string(int32_t(offset)) + ", length " +
                                  std::to_string(int32_t(length)) + ") lies outside the " +
                                  std::to_string(file.size()) + "-byte file");
        // sub() throws naming the lump at its own offset when the window leaves the file.
        lumps.push_back(file.sub(offset, length, name));
        w.lumps.push_back({name, offset, length, 0, false});
    }
}

void readEntities(const ByteReader& lump, World& w) {
    const auto text = lump.data();
    const char* p = reinterpret_cast<const char*>(text.data());
    const size_t len = text.empty() ? 0 : strnlen(p, text.size());
    w.entityText.assign(p, len);
    w.entities = parseEntities(w.entityText, lump.file(), lump.absolute(0));
    w.viewpoints = findViewpoints(w);
}

size_t readPlanes(ByteReader& r, size_t recordBytes, World& w) {
    const size_t count = r.recordCount(recordBytes);
    w.planes.resize(count);
    for (auto& p : w.planes) {
        p.normal = readVec3(r);
        p.dist = r.f32();
        r.skip(recordBytes - 16);
    }
    return count;
}

size_t readIndexLump(ByteReader& r, size_t indexBytes, size_t total, const char* what, std::vector<uint32_t>* out) {
    const size_t count = r.recordCount(indexBytes);
    if (out) out->resize(count);
    auto read = [&](auto field) {
        for (size_t i = 0; i < count; ++i) {
            const size_t at = r.position();
            const int64_t v = field();
            checkIndex(r, at, v, total, what);
            if (out) (*out)[i] = uint32_t(v);
        }
    };
    if (indexBytes == 2)
        read([&] { return int64_t(r.u16()); });
    else
        read([&] { return int64_t(r.i32()); });
    return count;
}

void addBrush(World& w, const ByteReader& r, size_t fieldAt, const std::vector<BrushSide>& sides, size_t lumpSides,
              uint64_t& sideSquares) {
    if (sides.size() > kMaxBrushSides)
        r.fail(fieldAt, "brush with " + std::to_string(sides.size()) + " sides (at most " +
                            std::to_string(kMaxBrushSides) + ")");
    if (w.brushSides.size() + sides.size() > lumpSides)
        r.fail(fieldAt, "brushes list " + std::to_string(w.brushSides.size() + sides.size()) +
                            " sides, more than the " + std::to_string(lumpSides) + " brush sides stored");
    sideSquares += uint64_t(sides.size()) * sides.size();
    if (sideSquares > kMaxBrushSideSquares)
        r.fail(fieldAt, "brushes too complex: their sides squared sum to over " + std::to_string(kMaxBrushSideSquares));
    w.brushes.push_back({uint32_t(w.brushSides.size()), uint32_t(sides.size())});
    w.brushSides.insert(w.brushSides.end(), sides.begin(), sides.end());
}

}  // namespace luxel::bsp
