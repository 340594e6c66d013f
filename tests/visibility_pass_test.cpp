// The visibility pass (renderSurfaceSamples: which surface each pixel shows, no shading) against the samples of
// the full frame drawn at the same camera: two code paths, value for value, on real maps with cut-outs (the
// alpha test decides visibility), blended surfaces (never in the visibility buffer) and sky.
#include <catch2/catch.hpp>
#include <tbb/global_control.h>

#include <cmath>
#include <optional>
#include <set>

#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/map_view.hpp"
#include "luxel/render/render_surfaces.hpp"
#include "luxel/vis/visibility.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

void checkSamples(const LoadedMap& map, const MaterialSet& materials, const Camera& camera) {
    const View view = makeView(camera);
    const std::vector<uint32_t> surfaces = visibleSurfaces(map.world, map.geometry, view, camera.position, {});
    RenderOptions options;
    options.mode = RenderMode::Lit;
    options.materials = &materials;
    FrameStats frameStats, passStats;
    FrameSamples frame, pass;
    ByteImage display;
    renderSurfaces(map.world, map.geometry, camera, view, options, surfaces, frameStats, display, &frame);
    renderSurfaceSamples(map.world, map.geometry, camera, view, options, surfaces, passStats, pass);
    REQUIRE(pass.width == camera.width);
    REQUIRE(pass.height == camera.height);
    CHECK(pass.surface == frame.surface);
    CHECK(pass.depth == frame.depth);
    CHECK(pass.sky == frame.sky);
    CHECK(passStats.pixelsCovered == frameStats.pixelsCovered);
    CHECK(passStats.trianglesDrawn == frameStats.trianglesDrawn);
    // Not an empty or one-surface view: the comparison means something.
    const std::set<int32_t> shown(pass.surface.begin(), pass.surface.end());
    CHECK(shown.size() > 5);
}

Camera cameraAt(Vec3 pos, Vec3 angles) {
    Camera c;
    c.position = pos;
    c.angles = angles;
    c.width = 200;
    c.height = 113;
    c.fovX = 90;
    return c;
}

size_t cutoutPixels(const LoadedMap& map, const MaterialSet& materials, const Camera& camera) {
    const View view = makeView(camera);
    RenderOptions options;
    options.mode = RenderMode::Lit;
    options.materials = &materials;
    FrameStats stats;
    FrameSamples samples;
    renderSurfaceSamples(map.world, map.geometry, camera, view, options,
                         visibleSurfaces(map.world, map.geometry, view, camera.position, {}), stats, samples);
    size_t n = 0;
    for (int32_t s : samples.surface)
        if (s >= 0) {
            const int32_t m = map.world.surfaces[size_t(s)].material;
            n += m >= 0 && size_t(m) < materials.looks.size() && materials.looks[size_t(m)].blend == BlendMode::AlphaTest;
        }
    return n;
}

// A camera 96 units in front of a surface drawn with an alpha-tested material, looking at it: the first such
// surface (in surface order) whose view shows at least 1,000 alpha-tested pixels (some stand against walls).
std::optional<Camera> facingCutout(const LoadedMap& map, const MaterialSet& materials) {
    for (size_t s = 0; s < map.geometry.surfaces.size(); ++s) {
        const DrawSurface& d = map.geometry.surfaces[s];
        if (d.material < 0 || size_t(d.material) >= materials.looks.size() || d.numIndices == 0 ||
            materials.looks[size_t(d.material)].blend != BlendMode::AlphaTest)
            continue;
        const Vec3 centre = (d.bounds.mins + d.bounds.maxs) * 0.5f;
        const Vec3 normal = map.geometry.vertices[map.geometry.indices[d.firstIndex]].normal;
        for (float side : {1.0f, -1.0f}) {
            const Vec3 eye = centre + normal * (96.0f * side);
            const Vec3 to = centre - eye;
            const float yaw = std::atan2(to.y, to.x) * 57.29578f;
            const float pitch = -std::asin(to.z / length(to)) * 57.29578f;  // Quake's pitch: positive looks down
            const Camera camera = cameraAt(eye, {pitch, yaw, 0});
            if (cutoutPixels(map, materials, camera) >= 1000) return camera;
        }
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("the visibility pass gives the full frame's samples (OpenArena: cut-outs, blends, sky)", "[render][maps]") {
    LUXEL_REQUIRE_OPENARENA();
    tbb::global_control allow(tbb::global_control::max_allowed_parallelism, 2);
    const std::string pak = (kOpenArenaDir / "pak1-maps.pk3:maps/").string();
    // oa_dm4's intermission: lava, blended trims and stage programs; kaos and oa_bases3: alpha-tested grates
    // (cut-outs in the visibility buffer; an alpha-tested stage program is drawn over it instead).
    for (const char* name : {"oa_dm4", "kaos", "oa_bases3"}) {
        INFO(name);
        const LoadedMap map = loadMap(openMapPath(pak + name + ".bsp"), {}, {{kOpenArenaDir.string()}, "", 0});
        const MaterialSet materials = loadMaterials(map.world, map.source, map.materialOptions);
        if (std::string(name) == "oa_dm4") {
            checkSamples(map, materials, cameraAt({464, -112, 48}, {43.090f, -155.433f, 0}));
        } else {
            const std::optional<Camera> cutout = facingCutout(map, materials);
            REQUIRE(cutout);
            checkSamples(map, materials, *cutout);
        }
        checkSamples(map, materials, resolveCamera(map.world, map.geometry, "best", 200, 113, 90).camera);
    }
}
