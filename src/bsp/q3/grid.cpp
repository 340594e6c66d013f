// Quake 3 light grid (lightvols), laid out as ioquake3's R_LoadLightGrid computes it.
#include <array>
#include <cmath>
#include <numbers>

#include "luxel/bsp/entities.hpp"
#include "format.hpp"

namespace luxel::q3 {

namespace {
std::string fmt3(Vec3 v) {
    return std::to_string(v.x) + " " + std::to_string(v.y) + " " + std::to_string(v.z);
}
}  // namespace

void decodeLightGrid(Context& c, World& w) {
    ByteReader& r = c.lump(kLightVols);
    if (r.size() == 0) return;
    if (w.models.empty()) {
        w.problems.push_back("light grid present but no models: grid dropped");
        return;
    }
    Vec3 size{64, 64, 128};
    for (const Entity& e : w.entities) {
        const std::string* cls = e.get("classname");
        if (!cls || *cls != "worldspawn") continue;
        if (const std::string* gs = e.get("gridsize")) {
            Vec3 v;
            if (!parseVec3(*gs, v) || !(v.x > 0 && v.y > 0 && v.z > 0) || !isFinite(v)) {
                w.problems.push_back("worldspawn gridsize \"" + *gs + "\" is unusable: light grid dropped");
                return;
            }
            size = v;
        }
        break;
    }
    // Float32 like the engine (vec3_t), with ceil/floor in double as C's ceil() of a float does:
    // one real map only matches its lump size computed exactly this way.
    const Model& world = w.models[0];
    LightGrid g;
    g.cellSize = size;
    uint64_t points = 1;
    for (int i = 0; i < 3; ++i) {
        float origin = float(double(size[i]) * std::ceil(double(world.mins[i] / size[i])));
        float maxs = float(double(size[i]) * std::floor(double(world.maxs[i] / size[i])));
        float count = (maxs - origin) / size[i] + 1.0f;
        if (!std::isfinite(origin) || !(count >= 1.0f && count <= float(1 << 20))) {
            w.problems.push_back("light grid bounds from models[0] (" + fmt3(world.mins) + " to " + fmt3(world.maxs) +
                                 ") give no usable grid: grid dropped");
            return;
        }
        g.origin[i] = origin;
        g.dims[size_t(i)] = int32_t(count);
        points *= uint64_t(g.dims[size_t(i)]);
    }
    if (points * kGridPointBytes != r.size()) {
        w.problems.push_back("light grid lump has " + std::to_string(r.size()) + " bytes but " +
                             std::to_string(g.dims[0]) + "x" + std::to_string(g.dims[1]) + "x" +
                             std::to_string(g.dims[2]) + " points need " + std::to_string(points * kGridPointBytes) +
                             ": grid dropped");
        return;
    }
    if (!c.lightSamples) {
        w.grid = std::move(g);
        w.probeLump = kLumpNames[kLightVols];
        return;
    }
    g.samples.resize(size_t(points));
    // Each byte's light and angle's sine and cosine once (a large grid has hundreds of thousands of points).
    const float angle = 2.0f * std::numbers::pi_v<float> / 256.0f;
    std::array<float, 256> light, cosine, sine;
    for (int i = 0; i < 256; ++i) {
        light[size_t(i)] = overbright(uint8_t(i));
        cosine[size_t(i)] = std::cos(float(i) * angle);
        sine[size_t(i)] = std::sin(float(i) * angle);
    }
    for (auto& s : g.samples) {
        auto b = r.bytes(kGridPointBytes);
        s.ambient = {light[b[0]], light[b[1]], light[b[2]]};
        s.directed = {light[b[3]], light[b[4]], light[b[5]]};
        const uint8_t polar = b[6], azimuth = b[7];
        s.direction = {cosine[azimuth] * sine[polar], sine[azimuth] * sine[polar], cosine[polar]};
    }
    w.grid = std::move(g);
    w.probeLump = kLumpNames[kLightVols];
}

}  // namespace luxel::q3
