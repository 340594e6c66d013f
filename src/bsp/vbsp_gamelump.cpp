// Source game lumps: the directory in lump 35 points (file-absolute) at per-game data; each may be LZMA
// compressed on its own. Static props ('sprp', versions 4-11): a model name dictionary (128-byte names),
// a leaf list, then the prop records whose size depends on the version (and, for versions 7 and 10, on
// the game: Valve shipped two layouts under each number). Also counts the lumps luxel does not use.
#include <algorithm>

#include "vbsp_format.hpp"
#include "vbsp_lzma.hpp"

namespace luxel::vbsp {

namespace {

// Record sizes each static prop version has shipped with (gamebspfile.h; v7*/v10 TF2 = 72, v10 CS:GO = 76).
std::vector<size_t> propRecordSizes(int version) {
    switch (version) {
    case 4: return {56};
    case 5: return {60};
    case 6: return {64};
    case 7: return {68, 72};
    case 8: return {68};
    case 9: return {72};
    case 10: return {76, 72};
    case 11: return {80, 76};
    default: return {};
    }
}

void decodeStaticProps(ByteReader r, int version, World& w) {
    const auto sizes = propRecordSizes(version);
    if (sizes.empty()) {
        w.problems.push_back("static prop game lump version " + std::to_string(version) +
                             " is not supported (4-11); props skipped");
        return;
    }
    const int32_t numNames = r.i32();
    if (numNames < 0 || uint64_t(numNames) * 128 > r.remaining())
        r.fail(0, std::to_string(numNames) + " static prop model names do not fit the lump");
    std::vector<std::string> names(static_cast<size_t>(numNames));
    for (auto& n : names) n = r.fixedString(128);
    const size_t leafAt = r.position();
    const int32_t numLeaves = r.i32();
    if (numLeaves < 0 || uint64_t(numLeaves) * 2 > r.remaining())
        r.fail(leafAt, std::to_string(numLeaves) + " static prop leaves do not fit the lump");
    r.skip(size_t(numLeaves) * 2);
    const size_t propsAt = r.position();
    const int32_t numProps = r.i32();
    if (numProps < 0) r.fail(propsAt, "negative static prop count " + std::to_string(numProps));
    if (numProps == 0) return;
    size_t recordBytes = 0;
    for (size_t s : sizes)
        if (uint64_t(s) * uint64_t(numProps) == r.remaining()) recordBytes = s;
    if (recordBytes == 0)
        r.fail(propsAt, std::to_string(numProps) + " version " + std::to_string(version) + " static props (" +
                            std::to_string(sizes[0]) + " bytes each) do not match the " +
                            std::to_string(r.remaining()) + " bytes left");
    w.staticProps.resize(size_t(numProps));
    for (auto& p : w.staticProps) {
        const size_t at = r.position();
        p.origin = readVec3(r);
        p.angles = readVec3(r);  // pitch yaw roll
        const uint16_t type = r.u16();
        checkIndex(r, at + 24, type, names.size(), "static prop model name");
        p.model = names[type];
        r.seek(at + recordBytes);
    }
}

size_t countOf(Context& c, World& w, int lump, size_t recordBytes) {
    const size_t size = c.lump(lump).size();
    if (size % recordBytes != 0)
        w.problems.push_back(std::string("lump ") + kLumpNames[size_t(lump)] + " size " + std::to_string(size) +
                             " is not a multiple of " + std::to_string(recordBytes));
    return size / recordBytes;
}

}  // namespace

void decodeGameLumps(Context& c, World& w) {
    ByteReader& dir = c.lump(kGameLump);
    if (dir.size() == 0) return;
    const int32_t count = dir.i32();
    if (count < 0 || uint64_t(count) * 16 > dir.remaining())
        dir.fail(0, std::to_string(count) + " game lumps do not fit the directory");
    const ByteReader file(c.source.bytes, c.source.displayName, "game_lump", 0);
    for (int32_t i = 0; i < count; ++i) {
        const size_t at = dir.position();
        const uint32_t id = dir.u32();
        const uint16_t flags = dir.u16(), version = dir.u16();
        const uint32_t offset = dir.u32(), length = dir.u32();
        if (id != kStaticPropLumpId || length == 0) continue;
        // Offsets are from the start of the file, not of lump 35.
        if (uint64_t(offset) > file.size()) dir.fail(at + 8, "game lump offset " + std::to_string(offset) + " outside the file");
        ByteReader data = file.sub(offset, std::min<uint64_t>(file.size() - offset, length), "game_lump sprp");
        Bytes storage;
        if ((flags & 1) || isLzmaFramed(data)) {
            // Compressed: `length` is the uncompressed size; the LZMA header bounds the compressed bytes.
            data = file.sub(offset, file.size() - offset, "game_lump sprp");
            storage = decompressLzma(data, kMaxLumpBytes);
            data = ByteReader(storage, c.source.displayName, "game_lump sprp (decompressed)", offset);
        } else if (data.size() != length) {
            data.fail(0, "static prop game lump (" + std::to_string(length) + " bytes) passes the end of the file");
        }
        decodeStaticProps(data, version, w);
    }
}

void countOtherLumps(Context& c, World& w) {
    w.otherCounts = {
        {"world lights", c.numWorldLights},  // records in the lump decodeWorldLights read
        {"original faces", countOf(c, w, kOriginalFaces, kFaceBytes)},
        {"brushes", countOf(c, w, kBrushes, kBrushBytes)},
        {"brush sides", countOf(c, w, kBrushSides, kBrushSideBytes)},
        {"leaf brushes", countOf(c, w, kLeafBrushes, kLeafBrushBytes)},
        {"edges", c.numEdges},
        {"surfedges", c.numSurfEdges},
        {"displacements", c.numDispInfos},
        {"displacement vertices", c.numDispVerts},
        {"displacement triangles", c.numDispTris},
        {"cubemaps", countOf(c, w, kCubemaps, kCubemapBytes)},
        {"overlays", countOf(c, w, kOverlays, kOverlayBytes)},
        {"areas", countOf(c, w, kAreas, kAreaBytes)},
        {"area portals", countOf(c, w, kAreaPortals, kAreaPortalBytes)},
        {"pakfile bytes", c.lump(kPakfile).size()},
    };
}

}  // namespace luxel::vbsp
