#pragma once
// What the Quake 2, Quake 3 and Source decoders share: index and range checks whose errors name the field's
// file, lump and absolute offset, little-endian vector fields, the IBSP header and lump directory, the
// entity lump, plane records and index lumps.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::bsp {

// Throws unless 0 <= first, 0 <= count and first + count <= total (in 64-bit, no overflow).
inline void checkRange(const ByteReader& r, size_t fieldAt, int64_t first, int64_t count, size_t total,
                       const char* what) {
    if (first < 0 || count < 0 || uint64_t(first) + uint64_t(count) > total)
        r.fail(fieldAt, std::string(what) + " range [" + std::to_string(first) + ", +" + std::to_string(count) +
                            ") outside 0.." + std::to_string(total));
}
// Throws unless 0 <= index < total (or index == -1 when allowNone).
inline void checkIndex(const ByteReader& r, size_t fieldAt, int64_t index, size_t total, const char* what,
                       bool allowNone = false) {
    if (allowNone && index == -1) return;
    if (index < 0 || uint64_t(index) >= total)
        r.fail(fieldAt, std::string(what) + " index " + std::to_string(index) + " outside 0.." +
                            std::to_string(total == 0 ? 0 : total - 1) + (total == 0 ? " (none exist)" : ""));
}

// Three float, int16 or int32 fields as a vector (braced initialisers evaluate left to right).
inline Vec3 readVec3(ByteReader& r) { return {r.f32(), r.f32(), r.f32()}; }
inline Vec3 readShortVec3(ByteReader& r) { return {float(r.i16()), float(r.i16()), float(r.i16())}; }
inline Vec3 readIntVec3(ByteReader& r) { return {float(r.i32()), float(r.i32()), float(r.i32())}; }

struct Range {
    uint32_t first = 0, count = 0;
};
// An int32 (first, count) pair at the reader's position, checked to lie inside 0..total.
inline Range readRange(ByteReader& r, size_t total, const char* what) {
    const size_t at = r.position();
    const int32_t first = r.i32(), count = r.i32();
    checkRange(r, at, first, count, total, what);
    return {uint32_t(first), uint32_t(count)};
}

// Checks an IBSP file's magic and version (errors in lump "header") and returns its reader positioned at
// the lump directory; sets World::version.
ByteReader readIbspHeader(const MapSource& source, int32_t version, World& w);

// One step of a format's decode: the lumps it reads and what it does with them. A format's decode is its header
// (which yields the Context) and then its stages in order, each needing only what the earlier ones left in the
// Context and World. The list is also what the lump fuzz targets run: one stage on a copy of that state, with
// one of its lumps replaced (tests/fuzz/fuzz_lumps.cpp).
template <class Context>
struct DecodeStage {
    const char* name;
    std::vector<int> lumps;
    void (*run)(Context&, World&);
};

// Where a lump directory entry that leaves the file is reported. Quake 3's entries are signed and checked
// whole, at the entry; Quake 2's are unsigned and left to the lump window, reported at the lump's offset.
enum class DirectoryCheck { AtEntry, AtLumpOffset };

// One (offset, length) entry per name from the reader's position: a window per lump into `lumps` and a
// World::lumps entry each.
void readLumpDirectory(ByteReader& file, std::span<const char* const> names, DirectoryCheck check,
                       std::vector<ByteReader>& lumps, World& w);

// The entity lump's text (up to its first NUL) into World::entityText, parsed into World::entities, and the
// viewpoints they give (World::viewpoints; needs World::format and eyeHeight set).
void readEntities(const ByteReader& lump, World& w);

// Plane records: normal and distance, then (Quake 2, Source) an axial type recomputable from the normal.
// Returns the plane count.
size_t readPlanes(ByteReader& r, size_t recordBytes, World& w);

// A lump of indices (uint16 when indexBytes is 2, int32 when 4), each checked to be below `total`, stored in
// `out` (resized to the count) when given. Returns the record count.
size_t readIndexLump(ByteReader& r, size_t indexBytes, size_t total, const char* what, std::vector<uint32_t>* out);

// Appends a light-blocking brush to World::brushes / brushSides. Throws at `fieldAt` when it has more than
// kMaxBrushSides sides, when the blocking brushes together list more sides than the lump holds (a real
// file's brushes do not share sides) or when their sides squared, summed in `sideSquares` (0 before the
// first brush), pass kMaxBrushSideSquares.
void addBrush(World& w, const ByteReader& r, size_t fieldAt, const std::vector<BrushSide>& sides, size_t lumpSides,
              uint64_t& sideSquares);

}  // namespace luxel::bsp
