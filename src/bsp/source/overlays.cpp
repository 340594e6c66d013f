// Source overlays (lump 45, doverlay_t, 352 bytes): id, texinfo, face count (low 14 bits) and render order
// (top 2 bits), 64 face slots, U and V ranges, four UV points, origin, basis normal. vbsp stores the basis
// U vector in the z components of UV points 0..2 and sets UV point 3's z to 1 when V is to be flipped
// (Overlay_EmitOverlayFace); the engine rebuilds V = normal x U (normalised at load, COverlayMgr::LoadOverlays,
// negated when flipped in CreateFragments / Overlay_BuildBasis). Water overlays (lump 50, dwateroverlay_t, 1120
// bytes: vbsp's info_overlay_transition pieces on water faces) are the same record with 256 face slots; the
// engine cuts them into fragments on their faces as it does overlays, so they join World::overlays.
#include <cmath>

#include "format.hpp"

namespace luxel::vbsp {
namespace {

constexpr int kOverlayFaceSlots = 64;        // OVERLAY_BSP_FACE_COUNT
constexpr int kWaterOverlayFaceSlots = 256;  // WATEROVERLAY_BSP_FACE_COUNT
constexpr uint16_t kFaceCountMask = 0x3fff;  // OVERLAY_RENDER_ORDER_NUM_BITS = 2 at the top
// id, texinfo, face count, the face slots, U, V, four UV points, origin, normal.
constexpr size_t recordBytes(int slots) { return 8 + 4 * size_t(slots) + 16 + 48 + 24; }
static_assert(recordBytes(kOverlayFaceSlots) == kOverlayBytes && recordBytes(kWaterOverlayFaceSlots) == kWaterOverlayBytes);

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// The records of one overlay lump, `slots` face indices each.
void decodeLump(ByteReader& r, int slots, const char* kind, const Context& c, World& w) {
    const size_t count = r.recordCount(recordBytes(slots));
    w.overlays.reserve(w.overlays.size() + count);
    for (size_t i = 0; i < count; ++i) {
        const size_t at = r.position();
        const std::string which = std::string(kind) + " " + std::to_string(i);
        r.skip(4);  // id
        const int16_t texinfo = r.i16();
        checkIndex(r, at + 4, texinfo, c.numTexinfo, "texinfo");
        const uint16_t packed = r.u16();
        const int faces = packed & kFaceCountMask;
        if (faces > slots)
            r.fail(at + 6, which + " lists " + std::to_string(faces) + " faces (at most " + std::to_string(slots) + ")");
        Overlay o;
        o.material = texinfo;
        o.renderOrder = packed >> 14;
        for (int k = 0; k < slots; ++k) {
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
        if (!ok) r.fail(at + 8 + 4 * size_t(slots), which + " holds a value that is not a finite number");
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

}  // namespace

void decodeOverlays(Context& c, World& w) {
    decodeLump(c.lump(kOverlays), kOverlayFaceSlots, "overlay", c, w);
    decodeLump(c.lump(kWaterOverlays), kWaterOverlayFaceSlots, "water overlay", c, w);
}

}  // namespace luxel::vbsp
