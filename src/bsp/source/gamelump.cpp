// Source game lumps: the directory in lump 35 points (file-absolute) at per-game data; each may be LZMA
// compressed on its own. Static props ('sprp', versions 4-13): a model name dictionary (128-byte names),
// a leaf list (u16 leaf indices), then the prop records whose layout depends on the version (and, for
// versions 7, 10 and 11, on the game: several layouts shipped under one number). Also counts the lumps
// luxel does not use.
#include <algorithm>
#include <cmath>

#include "format.hpp"
#include "lzma.hpp"

namespace luxel::vbsp {

namespace {

// One record layout of the sprp lump: its size and where the fields past the common 56-byte head lie
// (-1: absent). The head: origin, angles, model u16, first leaf u16, leaf count u16, solid u8, flags u8,
// skin i32, fade min/max f32, lighting origin; then per version (gamebspfile.h of each SDK, checked against
// BSPSource's and Lumper's readers): v5 + forced fade scale; v6 + min/max DX level (u16 x2); v7 (L4D) +
// diffuse modulation; "v7*" = TF2 / Source 2013 v10: v6 + u32 flags + lightmap resolution (u16 x2);
// v8: v5 + CPU/GPU levels (u8 x4) + diffuse; v9: v8 + DisableX360 (4 bytes); v10 (CS:GO): v9 + FlagsEx;
// v11 (CS:GO) and v12: v10 + uniform scale; v11 Black Mesa: v10 Source 2013 + diffuse (+ FlagsEx);
// v13 (Strata): v10 CS:GO + scale per axis.
struct PropLayout {
    size_t size = 0;
    int diffuseAt = -1;
    int scaleAt = -1;
    int scaleCount = 0;  // 1 uniform, 3 per axis
};

std::vector<PropLayout> propLayouts(int version) {
    switch (version) {
    case 4: return {{56}};
    case 5: return {{60}};
    case 6: return {{64}};
    case 7: return {{68, 64}, {72}};
    case 8: return {{68, 64}};
    case 9: return {{72, 64}};
    case 10: return {{76, 64}, {72}};
    // Two 80-byte layouts: CS:GO (scale at 76) and Black Mesa (FlagsEx at 76); pickLayout tells them apart.
    case 11: return {{80, 64, 76, 1}, {80, 72}, {76, 72}};
    case 12: return {{80, 64, 76, 1}};
    case 13: return {{88, 64, 76, 3}};
    default: return {};
    }
}

constexpr uint8_t kPropUseLightingOrigin = 0x02;  // STATIC_PROP_USE_LIGHTING_ORIGIN
constexpr uint8_t kPropNoVertexLighting = 0x40;   // STATIC_PROP_NO_PER_VERTEX_LIGHTING

// The layout whose size fits the records exactly; of two with the same size, one with a scale field only
// when every record holds a plausible scale there (Black Mesa's FlagsEx, usually 0, reads as no scale).
PropLayout pickLayout(const ByteReader& r, int version, int32_t numProps) {
    const auto layouts = propLayouts(version);
    for (const PropLayout& l : layouts) {
        if (uint64_t(l.size) * uint64_t(numProps) != r.remaining()) continue;
        bool plausible = true;
        for (int32_t i = 0; plausible && l.scaleAt >= 0 && i < numProps; ++i) {
            ByteReader f = r.sub(r.position() + size_t(i) * l.size + size_t(l.scaleAt), 4, r.lump());
            const float scale = f.f32();
            plausible = std::isfinite(scale) && scale >= 1e-3f && scale <= 1e3f;
        }
        if (plausible) return l;
    }
    r.fail(r.position(), std::to_string(numProps) + " version " + std::to_string(version) + " static props (" +
                             std::to_string(layouts[0].size) + " bytes each) do not match the " +
                             std::to_string(r.remaining()) + " bytes left");
}

size_t countOf(Context& c, World& w, int lump, size_t recordBytes) {
    const size_t size = c.lump(lump).size();
    if (size % recordBytes != 0)
        w.problems.push_back(std::string("lump ") + kLumpNames[size_t(lump)] + " size " + std::to_string(size) +
                             " is not a multiple of " + std::to_string(recordBytes));
    return size / recordBytes;
}

}  // namespace

void decodeStaticProps(ByteReader r, int version, World& w) {
    if (propLayouts(version).empty()) {  // a game luxel does not know: the map still renders
        w.problems.push_back("static prop game lump version " + std::to_string(version) +
                             " is not supported (4-13); props skipped");
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
    std::vector<uint32_t> leaves(static_cast<size_t>(numLeaves));
    for (uint32_t& leaf : leaves) {
        leaf = r.u16();
        checkIndex(r, r.position() - 2, leaf, w.leaves.size(), "static prop leaf");
    }
    const size_t propsAt = r.position();
    const int32_t numProps = r.i32();
    if (numProps < 0) r.fail(propsAt, "negative static prop count " + std::to_string(numProps));
    if (numProps == 0) return;
    const PropLayout layout = pickLayout(r, version, numProps);
    w.staticProps.resize(size_t(numProps));
    for (auto& p : w.staticProps) {
        const size_t at = r.position();
        p.origin = readVec3(r);
        p.angles = readVec3(r);  // pitch yaw roll
        const uint16_t type = r.u16();
        checkIndex(r, at + 24, type, names.size(), "static prop model name");
        p.model = names[type];
        const uint16_t firstLeaf = r.u16(), leafCount = r.u16();
        checkRange(r, at + 26, firstLeaf, leafCount, leaves.size(), "static prop leaf");
        p.firstLeaf = firstLeaf;
        p.numLeaves = leafCount;
        r.u8();  // solid: collision only
        const uint8_t flags = r.u8();
        p.skin = r.i32();
        r.skip(8);  // fade distances: a still shows props unfaded
        const Vec3 lightingOrigin = readVec3(r);
        if (flags & kPropUseLightingOrigin) p.lightingOrigin = lightingOrigin;
        p.vertexLit = !(flags & kPropNoVertexLighting);
        if (layout.diffuseAt >= 0) {
            r.seek(at + size_t(layout.diffuseAt));
            for (uint8_t& c : p.tint) c = r.u8();
        }
        if (layout.scaleAt >= 0) {
            r.seek(at + size_t(layout.scaleAt));
            p.scale.x = r.f32();
            p.scale.y = layout.scaleCount == 3 ? r.f32() : p.scale.x;
            p.scale.z = layout.scaleCount == 3 ? r.f32() : p.scale.x;
            if (!isFinite(p.scale)) r.fail(at + size_t(layout.scaleAt), "static prop scale is not finite");
        }
        r.seek(at + layout.size);
    }
    w.staticPropLeaves = std::move(leaves);
}

void decodeGameLumps(Context& c, World& w) {
    ByteReader& dir = c.lump(kGameLump);
    if (dir.size() == 0) return;
    const int32_t count = dir.i32();
    if (count < 0 || uint64_t(count) * 16 > dir.remaining())
        dir.fail(0, std::to_string(count) + " game lumps do not fit the directory");
    const ByteReader file(c.source->bytes, c.source->displayName, "game_lump", 0);
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
            data = ByteReader(storage, c.source->displayName, "game_lump sprp (decompressed)", offset);
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
        {"water overlays", countOf(c, w, kWaterOverlays, kWaterOverlayBytes)},
        {"areas", countOf(c, w, kAreas, kAreaBytes)},
        {"area portals", countOf(c, w, kAreaPortals, kAreaPortalBytes)},
        {"pakfile bytes", c.lump(kPakfile).size()},
    };
}

}  // namespace luxel::vbsp
