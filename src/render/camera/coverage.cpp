// How much of a frame the map's geometry covers, for the overview search: the frame's own triangles (culling,
// back faces, clipping, snapping and fill rule), counted without the frame around them.
#include <tbb/parallel_for.h>

#include "parts.hpp"
#include "luxel/render/raster.hpp"
#include "luxel/render/render.hpp"
#include "luxel/vis/visibility.hpp"

namespace luxel::camera {

namespace {

// The pixels of `camera`'s frame drawn in lightmap mode without sky, flares or materials that show geometry.
// The frame counts a pixel when the visibility buffer holds a triangle there at a depth (1/w) above 0, and
// a buffer only ever takes larger depths: so a pixel counts when any triangle the frame draws covers its
// centre at a positive depth. No depth buffer, binning or shading set-up is needed for that.
size_t coveredPixels(const World& world, const Geometry& geometry, const Camera& camera) {
    const int W = camera.width, H = camera.height;
    const View view = makeView(camera);
    const std::vector<uint32_t> surfaces = visibleSurfaces(world, geometry, view, camera.position, CullOptions{});
    raster::ScreenSetup setup;
    setup.width = W;
    setup.height = H;
    setup.nearW = camera.nearPlane;
    std::vector<uint8_t> covered(size_t(W) * size_t(H), 0);
    std::vector<raster::RasterTri> tris;
    std::vector<raster::ShadeTri> shade;
    const size_t numVerts = geometry.vertices.size();
    for (uint32_t s : surfaces) {
        if (s >= geometry.surfaces.size()) continue;
        const DrawSurface& ds = geometry.surfaces[s];
        // frameCandidates without materials: hidden surfaces and (sky not drawn) sky ones are left out.
        if (ds.shading == SurfaceShading::Hidden || ds.shading == SurfaceShading::Sky) continue;
        if (size_t(ds.firstIndex) + ds.numIndices > geometry.indices.size()) continue;
        const uint32_t* idx = geometry.indices.data() + ds.firstIndex;
        for (uint32_t i = 0; i + 3 <= ds.numIndices; i += 3) {
            if (idx[i] >= numVerts || idx[i + 1] >= numVerts || idx[i + 2] >= numVerts) continue;
            const Vec3 p[3] = {geometry.vertices[idx[i]].position, geometry.vertices[idx[i + 1]].position,
                               geometry.vertices[idx[i + 2]].position};
            if (!ds.twoSided && !raster::facesEye(p[0], p[1], p[2], camera.position)) continue;
            tris.clear();
            shade.clear();
            raster::setupWorldTriangle(p, view.viewProjection, 0, setup, tris, shade);
            for (const raster::RasterTri& t : tris)
                raster::forEachCoveredPixel(t, 0, 0, W - 1, H - 1, [&](int px, int py, float z) {
                    if (z > 0) covered[size_t(py) * size_t(W) + size_t(px)] = 1;
                });
        }
    }
    size_t n = 0;
    for (uint8_t c : covered) n += c;
    return n;
}

}  // namespace

std::vector<double> coverage(const World& world, const Geometry& geometry, const std::vector<Camera>& cameras) {
    std::vector<double> share(cameras.size(), 0);
    tbb::parallel_for(size_t(0), cameras.size(), [&](size_t i) {
        const Camera c = scoringCamera(cameras[i]);
        const size_t pixels = size_t(c.width) * size_t(c.height);
        share[i] = pixels == 0 ? 0.0 : double(coveredPixels(world, geometry, c)) / double(pixels);
    });
    return share;
}

}  // namespace luxel::camera
