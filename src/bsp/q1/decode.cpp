// Quake 1 BSP29 / BSP2 / 2PSB and Half-Life BSP30: header, lump directory and BSPX directory, then every part
// in dependency order (the parts live beside this file).
#include "luxel/bsp/brush_entities.hpp"
#include "luxel/bsp/decode.hpp"
#include "format.hpp"

namespace luxel {
namespace q1 {

Layout layoutOf(Variant v) {
    switch (v) {
        case Variant::Bsp29:
        case Variant::HalfLife: return {24, 28, 20, 2, 2, 8, false, false};
        case Variant::Bsp2Rmq: return {32, 32, 28, 4, 4, 12, true, false};
        case Variant::Bsp2: return {44, 44, 28, 4, 4, 12, true, true};
    }
    return layoutOf(Variant::Bsp29);
}

namespace {

constexpr size_t kBspxEntryBytes = 32;
constexpr uint32_t kMaxBspxLumps = 1024;

}  // namespace

void readBspxDirectory(const ByteReader& file, Context& c, World& w) {
    // ericw-tools writes the directory 4-byte aligned after the furthest standard lump.
    uint64_t end = 0;
    for (const LumpInfo& l : w.lumps) end = std::max(end, l.offset + l.length);
    end = (end + 3) & ~uint64_t(3);
    if (end + 8 > file.size()) return;
    ByteReader dir = file.sub(end, file.size() - end, "bspx");
    if (dir.fixedString(4) != "BSPX") return;
    const uint32_t count = dir.u32();
    if (count > kMaxBspxLumps || uint64_t(count) * kBspxEntryBytes > dir.remaining())
        dir.fail(4, "BSPX directory of " + std::to_string(count) + " lumps does not fit in the " +
                        std::to_string(dir.remaining()) + " bytes after it");
    for (uint32_t i = 0; i < count; ++i) {
        const size_t at = dir.position();
        std::string name = dir.fixedString(24);
        const uint32_t offset = dir.u32(), length = dir.u32();
        if (uint64_t(offset) + length > file.size())
            dir.fail(at + 24, "BSPX lump " + name + " (offset " + std::to_string(offset) + ", length " +
                                  std::to_string(length) + ") lies outside the " + std::to_string(file.size()) +
                                  "-byte file");
        for (const auto& [other, r] : c.bspx)
            if (other == name) dir.fail(at, "BSPX lump " + name + " listed twice");
        c.bspx.emplace_back(name, file.sub(offset, length, name));
        w.lumps.push_back({name, offset, length, 0, false});
    }
}

Context openQuake1(const MapSource& source, World& w) {
    ByteReader file(source.bytes, source.displayName, "header", 0);
    Context c(source);
    const std::string magic = file.fixedString(4);
    file.seek(0);
    const int32_t version = file.i32();
    if (magic == "BSP2") {
        c.variant = Variant::Bsp2;
        w.formatName = "Quake 1 BSP2";
    } else if (magic == "2PSB") {
        c.variant = Variant::Bsp2Rmq;
        w.formatName = "Quake 1 2PSB";
    } else if (version == 29) {
        c.variant = Variant::Bsp29;
        w.formatName = "Quake 1 BSP29";
    } else if (version == 30) {
        c.variant = Variant::HalfLife;
        w.formatName = "Half-Life BSP30";
    } else {
        file.fail(0, "not a Quake 1 or Half-Life map (version " + std::to_string(version) + ")");
    }
    c.layout = layoutOf(c.variant);
    w.format = c.variant == Variant::HalfLife ? MapFormat::HalfLife : MapFormat::Quake1;
    w.version = c.variant == Variant::HalfLife ? 30 : 29;
    w.layoutName = magic == "BSP2" || magic == "2PSB" ? magic : std::string();
    w.file = source.displayName;
    w.look.lightmapModeUnlitWhite = true;  // QuakeSpasm's r_lightmap 1
    if (c.variant == Variant::HalfLife) {
        // GoldSrc's lightmap texels saturate channel by channel at 255 (q1/lighting.cpp).
        w.look.hueClampAt = 1.0f;
        w.look.clampPerChannel = true;
    }
    // The player's eye: Quake's view_ofs 22 above the origin, Half-Life's VEC_VIEW 28.
    w.eyeHeight = c.variant == Variant::HalfLife ? 28.0f : 22.0f;
    bsp::readLumpDirectory(file, kLumpNames, bsp::DirectoryCheck::AtLumpOffset, c.lumps, w);
    readBspxDirectory(file, c, w);
    return c;
}

const std::vector<bsp::DecodeStage<Context>>& decodeStages() {
    static const std::vector<bsp::DecodeStage<Context>> stages = {
        {"entities", {kEntities}, [](Context& c, World& w) { bsp::readEntities(c.lump(kEntities), w); }},
        {"planes", {kPlanes}, [](Context& c, World& w) { c.numPlanes = bsp::readPlanes(c.lump(kPlanes), kPlaneBytes, w); }},
        {"materials", {kTextures, kTexinfo}, decodeMaterials},
        {"faces", {kVertexes, kEdges, kSurfEdges, kFaces, kLighting}, decodeFaces},
        {"tree", {kVisibility, kMarkSurfaces, kLeafs, kNodes, kClipnodes, kModels}, [](Context& c, World& w) {
             decodeTree(c, w);
             placeBrushModels(w);
             // Not for the baker's relaid-out maps: its texinfo.json rules index materials by texinfo.
             if (!c.relayout) applyRenderModes(w, c.variant == Variant::HalfLife);
         }},
        {"counts", {}, [](Context& c, World& w) {
             w.otherCounts = {{"edges", c.numEdges},
                              {"surfedges", c.numSurfEdges},
                              {"clipnodes", c.numClipnodes},
                              {"miptex", c.numMiptex},
                              {"bspx lumps", c.bspx.size()}};
         }},
    };
    return stages;
}

}  // namespace q1

World decodeQuake1(const MapSource& source, const DecodeOptions& options) {
    World w;
    q1::Context c = q1::openQuake1(source, w);
    c.relayout = options.relayoutLightmaps;
    const std::optional<int> shift = options.relayoutLuxelShift;
    if (shift && (*shift < 0 || *shift > 10))
        throw UsageError("luxel shift " + std::to_string(*shift) + " is out of range (0..10)");
    const std::optional<float> units = options.relayoutWorldUnitsPerLuxel;
    if (units && !(*units > 0 && *units <= 1024))
        throw UsageError("world units per luxel " + std::to_string(*units) + " is out of range (0..1024]");
    if (shift && units) throw UsageError("a luxel shift and world units per luxel are two layouts: give one");
    c.relayoutShift = c.relayout ? shift : std::nullopt;
    c.relayoutUnitsPerLuxel = c.relayout ? units : std::nullopt;
    if (c.relayoutUnitsPerLuxel)
        for (const auto& [texinfo, own] : options.relayoutTexinfoUnitsPerLuxel)
            if (own > 0 && own <= 1024) c.relayoutTexinfoUnits[texinfo] = own;
    for (const auto& stage : q1::decodeStages()) stage.run(c, w);
    return w;
}

}  // namespace luxel
