// The Quake 3 decoder on real maps: every shared map and every OpenArena map satisfies invariants checked
// from the file's own lump directory, and known facts of the shared maps hold.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_listing.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

// A decode without light samples (luxel info's) keeps the full decode's pages, direction pages and grid
// dimensions, and only the samples go.
void checkCountsOnlyDecode(const MapSource& src, const World& full) {
    DecodeOptions countsOnly;
    countsOnly.lightSamples = false;
    const World w = decodeMap(src, countsOnly);
    REQUIRE(w.lightmaps.size() == full.lightmaps.size());
    REQUIRE(w.deluxemaps.size() == full.deluxemaps.size());
    bool sizes = true, empty = true;
    for (size_t p = 0; p < w.lightmaps.size(); ++p) {
        sizes &= w.lightmaps[p].width == full.lightmaps[p].width && w.lightmaps[p].height == full.lightmaps[p].height;
        empty &= w.lightmaps[p].rgb.empty();
    }
    for (size_t p = 0; p < w.deluxemaps.size(); ++p) sizes &= w.deluxemaps[p].width == full.deluxemaps[p].width;
    CHECK(sizes);
    CHECK(empty);
    REQUIRE(w.grid.has_value() == full.grid.has_value());
    if (full.grid) {
        CHECK(w.grid->dims == full.grid->dims);
        CHECK(w.grid->origin == full.grid->origin);
        CHECK(w.grid->samples.empty());
        CHECK(size_t(full.grid->dims[0]) * size_t(full.grid->dims[1]) * size_t(full.grid->dims[2]) ==
              full.grid->samples.size());
    }
    CHECK(w.surfaces.size() == full.surfaces.size());
    CHECK(w.vertices.size() == full.vertices.size());
}

// Invariants every decoded real map must satisfy, checked from the file's own lump directory.
void checkRealMap(const MapSource& src, const World& w) {
    const auto& f = src.bytes;
    auto lumpLen = [&](int l) { return q3LumpRange(f, l).second; };
    CHECK(w.lumps.size() == 17);
    CHECK(w.materials.size() == lumpLen(kQ3Textures) / 72);
    CHECK(w.planes.size() == lumpLen(kQ3Planes) / 16);
    CHECK(w.nodes.size() == lumpLen(kQ3Nodes) / 36);
    CHECK(w.leaves.size() == lumpLen(kQ3Leafs) / 48);
    CHECK(w.leafSurfaces.size() == lumpLen(kQ3LeafFaces) / 4);
    CHECK(w.models.size() == lumpLen(kQ3Models) / 40);
    CHECK(w.vertices.size() == lumpLen(kQ3Vertexes) / 44);
    CHECK(w.surfaces.size() == lumpLen(kQ3Faces) / 104);
    if (lumpLen(kQ3Lightmaps) > 0) CHECK(w.lightmaps.size() == lumpLen(kQ3Lightmaps) / (128 * 128 * 3));
    bool allValid = true;
    for (const Surface& s : w.surfaces) {
        allValid &= s.firstVertex + s.numVertices <= w.vertices.size();
        allValid &= s.firstIndex + s.numIndices <= w.indices.size();
        for (uint32_t k = 0; k < s.numIndices; ++k) allValid &= w.indices[s.firstIndex + k] < s.numVertices;
        allValid &= s.material >= 0 && size_t(s.material) < w.materials.size();
        if (s.lightmapPage >= 0) {
            allValid &= size_t(s.lightmapPage) < w.lightmaps.size() && w.lightmaps[size_t(s.lightmapPage)].width > 0;
        }
        if (s.kind == SurfaceKind::Patch) allValid &= uint32_t(s.patchWidth * s.patchHeight) == s.numVertices;
    }
    CHECK(allValid);
    for (uint32_t ls : w.leafSurfaces) allValid &= ls < w.surfaces.size();
    for (const Leaf& l : w.leaves) {
        allValid &= l.firstLeafSurface + l.numLeafSurfaces <= w.leafSurfaces.size();
        allValid &= w.pvs.empty() || l.cluster < w.pvs.numClusters;
    }
    CHECK(allValid);
    // Quake 3 planes come in flipped pairs (q3map2 recomputes the flip, so allow float noise).
    bool pairs = w.planes.size() % 2 == 0;
    for (size_t i = 0; pairs && i + 1 < w.planes.size(); i += 2)
        pairs = length(w.planes[i].normal + w.planes[i + 1].normal) < 1e-5f &&
                std::abs(w.planes[i].dist + w.planes[i + 1].dist) < 1e-3f;
    CHECK(pairs);
    // Overbright colour: vertex rgb never exceeds 4, alpha never exceeds 1.
    bool colours = true;
    for (const Vertex& v : w.vertices) colours &= v.color.x <= 4.0f && v.color.w <= 1.0f && v.color.x >= 0.0f;
    CHECK(colours);
    REQUIRE_FALSE(w.entities.empty());
    CHECK(*w.entities[0].get("classname") == "worldspawn");
    // Grid present exactly when the lump is, and then the sizes agree (the engine's float32 rule).
    if (lumpLen(kQ3LightVols) > 0) {
        REQUIRE(w.grid);
        CHECK(w.grid->samples.size() * 8 == lumpLen(kQ3LightVols));
        CHECK(size_t(w.grid->dims[0]) * size_t(w.grid->dims[1]) * size_t(w.grid->dims[2]) == w.grid->samples.size());
    } else {
        CHECK_FALSE(w.grid);
    }
    // Only tolerated oddities: faces naming fogs that do not exist (OpenArena aggressor has them).
    for (const auto& p : w.problems) CHECK_THAT(p, Catch::Contains("effects that do not exist"));
}

}  // namespace

TEST_CASE("every shared Quake 3 map decodes and satisfies the invariants", "[q3decode][maps]") {
    fs::path dir = fs::path(LUXEL_SHARED_MAPS) / "q3";
    if (!fs::exists(dir)) {
        WARN("SKIPPED: " << dir << " not found");
        return;
    }
    int n = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".bsp") continue;
        INFO(entry.path());
        MapSource src = openMapPath(entry.path().string());
        World w = decodeMap(src);
        checkRealMap(src, w);
        checkCountsOnlyDecode(src, w);
        ++n;
    }
    CHECK(n >= 6);
}

TEST_CASE("known facts of the shared Quake 3 maps", "[q3decode][maps]") {
    fs::path dir = fs::path(LUXEL_SHARED_MAPS) / "q3";
    if (!fs::exists(dir)) {
        WARN("SKIPPED: " << dir << " not found");
        return;
    }
    auto load = [&](const char* name) { return decodeMap(openMapPath((dir / name).string())); };
    auto countKind = [](const World& w, SurfaceKind k) {
        return std::count_if(w.surfaces.begin(), w.surfaces.end(), [k](const Surface& s) { return s.kind == k; });
    };
    SECTION("bsptool_q3_mp_lobby: 6 polygons, 2 lightmaps, light grid, 8 clusters") {
        World w = load("bsptool_q3_mp_lobby.bsp");
        CHECK(countKind(w, SurfaceKind::Polygon) == 6);
        CHECK(w.lightmaps.size() == 2);
        CHECK(w.grid.has_value());
        CHECK(w.pvs.numClusters == 8);
    }
    SECTION("oa081_oa_ctf2: no lightmaps, no grid, no vis, 42 patches") {
        World w = load("oa081_oa_ctf2.bsp");
        CHECK(w.lightmaps.empty());
        CHECK_FALSE(w.grid.has_value());
        CHECK(w.pvs.empty());
        CHECK(countKind(w, SurfaceKind::Patch) == 42);
    }
    SECTION("oa088_am_thornish: 520 patches, 226 meshes, 135 flares, 8 lightmaps") {
        World w = load("oa088_am_thornish.bsp");
        CHECK(countKind(w, SurfaceKind::Patch) == 520);
        CHECK(countKind(w, SurfaceKind::Mesh) == 226);
        CHECK(countKind(w, SurfaceKind::Billboard) == 135);
        CHECK(w.lightmaps.size() == 8);
    }
    SECTION("oa088_aggressor: 66 flares, 402 clusters, 3 lightmaps") {
        World w = load("oa088_aggressor.bsp");
        CHECK(countKind(w, SurfaceKind::Billboard) == 66);
        CHECK(w.pvs.numClusters == 402);
        CHECK(w.lightmaps.size() == 3);
    }
    SECTION("oa085_ctf_compromise: 4628 faces, 102 lightmaps, 3364 clusters") {
        World w = load("oa085_ctf_compromise.bsp");
        CHECK(w.surfaces.size() == 4628);
        CHECK(w.lightmaps.size() == 102);
        CHECK(w.pvs.numClusters == 3364);
    }
    SECTION("nexuiz_eggandbacon: external 512x512 lightmaps, even indices only") {
        World w = load("nexuiz_eggandbacon.bsp");
        CHECK(q3LumpRange(openMapPath((dir / "nexuiz_eggandbacon.bsp").string()).bytes, kQ3Lightmaps).second == 0);
        bool anyLit = false, evenOnly = true;
        for (const Surface& s : w.surfaces)
            if (s.lightmapPage >= 0) {
                anyLit = true;
                evenOnly &= s.lightmapPage % 2 == 0;
            }
        CHECK(anyLit);
        CHECK(evenOnly);
        for (size_t i = 0; i < w.lightmaps.size(); ++i) {
            INFO("page " << i);
            if (i % 2 == 0) {
                CHECK(w.lightmaps[i].width == 512);
                CHECK(w.lightmaps[i].height == 512);
                CHECK(w.lightmaps[i].rgb.size() == 512u * 512u * 3u);
            } else {
                CHECK(w.lightmaps[i].width == 0);  // deluxe direction maps are not loaded
            }
        }
        MapSource noFiles = openMapPath((dir / "nexuiz_eggandbacon.bsp").string());
        noFiles.openRelated = [](const std::string&) { return std::optional<Bytes>(); };
        CHECK_THROWS_WITH(decodeMap(noFiles), Catch::Contains("nexuiz_eggandbacon/lm_0000.tga"));
    }
}

TEST_CASE("OpenArena pk3 maps decode and satisfy the invariants", "[q3decode][maps]") {
    const fs::path base = "/usr/share/games/openarena/baseoa";
    if (!fs::exists(base)) {
        WARN("SKIPPED: " << base << " not found (tools/setup.sh installs openarena-data)");
        return;
    }
    int n = 0;
    for (const char* pk3 : {"pak1-maps.pk3", "pak6-patch085.pk3", "pak6-patch088.pk3"}) {
        if (!fs::exists(base / pk3)) continue;
        for (const MapLocation& map : mapsInArchive((base / pk3).string())) {
            INFO(map.spec);
            MapSource src = openMapPath(map.spec);
            World w = decodeMap(src);
            checkRealMap(src, w);
            ++n;
        }
    }
    CHECK(n >= 20);
}
