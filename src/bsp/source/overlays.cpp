// Source overlays (lump 45, doverlay_t, 352 bytes): id, texinfo, face count (low 14 bits) and render order
// (top 2 bits), 64 face slots, U and V ranges, four UV points, origin, basis normal. vbsp stores the basis
// U vector in the z components of UV points 0..2 and sets UV point 3's z to 1 when V is to be flipped
// (Overlay_EmitOverlayFace); the engine rebuilds V = normal x U (normalised at load, COverlayMgr::LoadOverlays,
// negated when flipped in CreateFragments / Overlay_BuildBasis).
#include <cmath>

#include "format.hpp"

namespace luxel::vbsp {
namespace {

constexpr int kOverlayFaceSlots = 64;      // OVERLAY_BSP_FACE_COUNT
constexpr uint16_t kFaceCountMask = 0x3fff;  // OVERLAY_RENDER_ORDER_NUM_BITS = 2 at the top

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

void decodeOverlays(Context& c, World& w) {
    ByteReader& r = c.lump(kOverlays);
    const size_t count = r.recordCount(kOverlayBytes);
    w.overlays.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        const size_t at = r.position();
        const std::string which = "overlay " + std::to_string(i);
        r.skip(4);  // id
        const int16_t texinfo = r.i16();
        checkIndex(r, at + 4, texinfo, c.numTexinfo, "texinfo");
        const uint16_t packed = r.u16();
        const int faces = packed & kFaceCountMask;
        if (faces > kOverlayFaceSlots)
            r.fail(at + 6, which + " lists " + std::to_string(faces) + " faces (at most " + std::to_string(kOverlayFaceSlots) + ")");
        Overlay o;
        o.material = texinfo;
        o.renderOrder = packed >> 14;
        for (int k = 0; k < kOverlayFaceSlots; ++k) {
            const int32_t face = r.i32();
            if (k >= faces) continue;
            checkIndex(r, at + 8 + 4 * size_t(k), face, c.numFaces, "face");
            o.surfaces.push_back(uint32_t(face));
        }
        o.u = {r.f32(), r.f32()};
        o.v = {r.f32(), r.f32()};
        Vec3 uv[4];
        for (Vec3& p : uv) p = readVec3(r);
        o.origin = readVec3(r);
        o.normal = readVec3(r);
        o.basisU = {uv[0].z, uv[1].z, uv[2].z};
        for (int k = 0; k < 4; ++k) o.points[size_t(k)] = {uv[k].x, uv[k].y};
        bool ok = std::isfinite(o.u.x) && std::isfinite(o.u.y) && std::isfinite(o.v.x) && std::isfinite(o.v.y) &&
                  finite(o.origin) && finite(o.normal);
        for (const Vec3& p : uv) ok = ok && finite(p);
        if (!ok) r.fail(at + 264, which + " holds a value that is not a finite number");
        const Vec3 v = cross(o.normal, o.basisU);
        if (length(v) == 0.0f) {  // the engine's "Bad overlay basis": nothing sensible to draw
            w.problems.push_back(which + ": its basis (U " + std::to_string(o.basisU.x) + " " + std::to_string(o.basisU.y) + " " +
                                 std::to_string(o.basisU.z) + ", normal) spans no plane; not drawn");
            continue;
        }
        o.basisV = normalize(v) * (uv[3].z == 1.0f ? -1.0f : 1.0f);
        w.overlays.push_back(std::move(o));
    }
}

}  // namespace luxel::vbsp
