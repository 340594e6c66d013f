// Source world lights (lump 15 "worldlights", lump 54 "worldlights_hdr"): the lights vrad lit the map with,
// one dworldlight_t each (public/bspfile.h): origin, intensity, normal, [version 1: shadow_cast_offset],
// cluster, type (emittype_t), style, stopdot, stopdot2, exponent, radius, constant_attn, linear_attn,
// quadratic_attn, flags, texinfo, owner. 88 bytes a record; 100 in version 1 (CS:GO and later put a 12-byte
// shadow cast offset after the normal). The lump is the HDR one when the decoded lighting is HDR and that
// lump has lights, as the lighting itself is chosen (source/decode.cpp); otherwise the LDR one.
//
// Units. vrad gathers light in 0..255 units (GatherSampleLightAt4Points adds intensity x falloff x cos,
// with intensity in 0..255) and writes a luxel of value v as ColorRGBExp32 with c 2^e = v
// (VectorToColorRGBExp32); ExportDirectLightsToWorldLights stores each light's intensity / 255. luxel
// decodes a luxel as c 2^e / 255 (TexLightToLinear, source/format.hpp), so the stored intensity is already in
// luxel's units: intensity x falloff x cos is the luxel value the light gives (light/source_lights.hpp).
//
// What the record does not keep is recovered where it can be: vrad's hard falloff (_hardfalloff with
// _fifty_percent_distance / _zero_percent_distance, SetLightFalloffParams) from the light entity at the same
// origin, which vbsp leaves in the entity lump; the cap and fade of a fitted falloff that would rise again
// (quadratic < 0) from the stored terms themselves. Left out: cluster, texinfo, owner, the shadow cast
// offset (run-time shadow direction only).
//
// Bad records are skipped, never trusted: a lump whose size fits no record size, absurdly many records, an
// unknown lump version, a record with a non-finite field, an unknown emit type or a style outside 0..254
// each leave a line in World::problems (lump and byte offset) and no light.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "luxel/bsp/entities.hpp"
#include "format.hpp"

namespace luxel::vbsp {

namespace {

constexpr size_t kWorldLightBytesV0 = 88, kWorldLightBytesV1 = 100;
// vrad's MAX_MAP_WORLDLIGHTS is 8192; later branches raised it (Portal 2 maps carry ~14,000). More than this
// is not a map compiler's output.
constexpr size_t kMaxWorldLights = 65536;

enum EmitType : int32_t {
    kEmitSurface = 0, kEmitPoint = 1, kEmitSpotlight = 2, kEmitSkylight = 3, kEmitQuakelight = 4, kEmitSkyambient = 5
};
constexpr const char* kEmitNames[] = {"emit_surface", "emit_point", "emit_spotlight", "emit_skylight",
                                      "emit_quakelight", "emit_skyambient"};
constexpr uint32_t kFlagInAmbientCube = 0x1;  // DWL_FLAGS_INAMBIENTCUBE

struct Record {
    Vec3 origin, intensity, normal;
    int32_t type = 0, style = 0;
    float stopdot = 0, stopdot2 = 0, exponent = 0, radius = 0, constantAttn = 0, linearAttn = 0, quadraticAttn = 0;
    uint32_t flags = 0;
};

Record readRecord(ByteReader& r, bool shadowOffset) {
    Record w;
    w.origin = bsp::readVec3(r);
    w.intensity = bsp::readVec3(r);
    w.normal = bsp::readVec3(r);
    if (shadowOffset) r.skip(12);
    r.skip(4);  // cluster
    w.type = r.i32();
    w.style = r.i32();
    w.stopdot = r.f32();
    w.stopdot2 = r.f32();
    w.exponent = r.f32();
    w.radius = r.f32();
    w.constantAttn = r.f32();
    w.linearAttn = r.f32();
    w.quadraticAttn = r.f32();
    w.flags = r.u32();
    r.skip(8);  // texinfo, owner
    return w;
}

bool finite(const Record& w) {
    for (float f : {w.stopdot, w.stopdot2, w.exponent, w.radius, w.constantAttn, w.linearAttn, w.quadraticAttn})
        if (!std::isfinite(f)) return false;
    return isFinite(w.origin) && isFinite(w.intensity) && isFinite(w.normal);
}

std::string where(const ByteReader& r, size_t at, const std::string& what) {
    return "lump " + r.lump() + " at byte " + std::to_string(r.absolute(at)) + ": " + what;
}

std::string num(float f) {
    std::string s = std::to_string(f);
    while (s.size() > 1 && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

// vrad's _hardfalloff fade (SetLightFalloffParams) of a light entity: it starts 3/4 of the way from the 50% to
// the 0% distance and ends at the 0% distance (twice the 50% one when the 0% one is shorter).
struct HardFade {
    Vec3 origin;
    float start = 0, end = 0;
};

// The light entities asking for a hard falloff (few; read once, not once a light).
std::vector<HardFade> hardFades(const World& w) {
    std::vector<HardFade> out;
    for (const Entity& e : w.entities) {
        const std::string* cls = e.get("classname");
        const std::string* at = e.get("origin");
        if (!cls || !at || (*cls != "light" && *cls != "light_spot")) continue;
        auto number = [&](const char* key) {
            const std::string* v = e.get(key);
            const float f = v ? std::strtof(v->c_str(), nullptr) : 0.0f;
            return std::isfinite(f) ? f : 0.0f;
        };
        const float d50 = number("_fifty_percent_distance");
        float d0 = number("_zero_percent_distance");
        HardFade f;
        if (d50 == 0 || std::fabs(number("_hardfalloff")) < 1 || !parseVec3(*at, f.origin)) continue;  // IntForKey
        if (d0 < d50) d0 = 2 * d50;
        f.end = d0;
        f.start = 0.75f * d0 + 0.25f * d50;
        out.push_back(f);
    }
    return out;
}

const HardFade* hardFadeAt(const std::vector<HardFade>& fades, Vec3 origin) {
    for (const HardFade& f : fades)
        if (std::fabs(f.origin.x - origin.x) <= 0.01f && std::fabs(f.origin.y - origin.y) <= 0.01f &&
            std::fabs(f.origin.z - origin.z) <= 0.01f)
            return &f;
    return nullptr;
}

// Quadratic falloff of points and spots, with vrad's cap and fades (SetLightFalloffParams).
void quadraticFalloff(const std::vector<HardFade>& fades, const Record& w, Light& l) {
    l.falloff = Light::Falloff::Quadratic;
    l.constant = w.constantAttn;
    l.linear = w.linearAttn;
    l.quadratic = w.quadraticAttn;
    if (const HardFade* f = hardFadeAt(fades, w.origin)) {
        l.fadeStart = f->start;
        l.fadeEnd = f->end;
    } else if (w.quadraticAttn != 0) {
        // A fitted falloff that turns back up past its minimum brightness: held there, faded out by 10x.
        const float turn = w.linearAttn / (-2.0f * w.quadraticAttn);
        if (turn > 0 && std::isfinite(10 * turn)) {
            l.falloffCap = turn;
            l.fadeStart = turn;
            l.fadeEnd = 10 * turn;
        }
    }
    if (l.fadeEnd > l.fadeStart) l.envelope = l.fadeEnd;
}

Light toLight(const std::vector<HardFade>& fades, const Record& w, size_t index) {
    Light l;
    l.origin = w.origin;
    const float top = std::max({std::fabs(w.intensity.x), std::fabs(w.intensity.y), std::fabs(w.intensity.z)});
    if (top > 0) {
        l.intensity = top;
        l.color = w.intensity / top;
    }
    const Vec3 axis = normalize(w.normal);
    l.style = uint8_t(w.style);
    l.radius = w.radius;
    l.nativeFlags = w.flags;
    l.inProbes = (w.flags & kFlagInAmbientCube) != 0;
    l.source = "worldlight " + std::to_string(index) + " (" + kEmitNames[w.type] + ") at " + num(w.origin.x) + " " +
               num(w.origin.y) + " " + num(w.origin.z);
    switch (w.type) {
        case kEmitSurface:
            l.kind = Light::Kind::Area;
            l.normal = axis;
            l.area = 0;  // vrad's intensity already holds the patch area (CreateDirectLights)
            l.falloff = Light::Falloff::InverseSquare;
            break;
        case kEmitPoint:
            l.kind = Light::Kind::Point;
            quadraticFalloff(fades, w, l);
            break;
        case kEmitSpotlight:
            l.kind = Light::Kind::Spot;
            l.direction = axis;
            l.spotCosInner = w.stopdot;
            l.spotCosOuter = w.stopdot2;
            l.spotExponent = w.exponent;
            quadraticFalloff(fades, w, l);
            break;
        case kEmitSkylight:
            l.kind = Light::Kind::Sun;
            l.direction = axis;  // vrad lights a surface by -normal . light.normal: the way the light travels
            l.falloff = Light::Falloff::None;
            break;
        case kEmitQuakelight:
            // The engine's X - r falloff (Engine_WorldLightDistanceFalloff): intensity (X - d) with X in linear_attn.
            l.kind = Light::Kind::Point;
            l.falloff = Light::Falloff::Linear;
            l.range = std::max(w.linearAttn, 0.0f);
            l.intensity *= l.range;
            l.envelope = l.range;
            break;
        case kEmitSkyambient:
            l.kind = Light::Kind::Sky;
            l.falloff = Light::Falloff::None;
            l.inProbes = true;  // vrad's cube rays that reach the sky bring this light (ComputeAmbientFromSurface)
            break;
        default: break;
    }
    return l;
}

}  // namespace

int worldLightsLump(const Context& c) {
    return c.useHdr && c.lumps[kWorldLightsHdr].size() > 0 ? kWorldLightsHdr : kWorldLights;
}

void decodeWorldLights(Context& c, World& w) {
    const int lump = worldLightsLump(c);
    ByteReader& r = c.lump(lump);
    if (r.size() == 0) return;
    const int32_t version = w.lumps[size_t(lump)].version;
    if (version != 0 && version != 1) {
        w.problems.push_back(where(r, 0, "world light lump version " + std::to_string(version) +
                                             " is not 0 or 1: its lights are left out"));
        return;
    }
    size_t bytes = version == 1 ? kWorldLightBytesV1 : kWorldLightBytesV0;
    if (r.size() % bytes != 0) {
        const size_t other = bytes == kWorldLightBytesV0 ? kWorldLightBytesV1 : kWorldLightBytesV0;
        if (r.size() % other != 0) {
            w.problems.push_back(where(r, 0, "size " + std::to_string(r.size()) + " is not a multiple of the " +
                                                 std::to_string(bytes) + "-byte dworldlight_t: its lights are left out"));
            return;
        }
        w.problems.push_back(where(r, 0, "version " + std::to_string(version) + " lump holds " + std::to_string(other) +
                                             "-byte records (its size fits only those); read as such"));
        bytes = other;
    }
    const size_t count = r.size() / bytes;
    c.numWorldLights = count;
    if (count > kMaxWorldLights) {
        w.problems.push_back(where(r, 0, std::to_string(count) + " world lights, more than the " +
                                             std::to_string(kMaxWorldLights) + " a compiler writes: left out"));
        return;
    }
    size_t nonFinite = 0, badType = 0, badStyle = 0;
    size_t firstNonFinite = 0, firstBadType = 0, firstBadStyle = 0;
    const std::vector<HardFade> fades = hardFades(w);
    w.lights.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        r.seek(i * bytes);
        const Record rec = readRecord(r, bytes == kWorldLightBytesV1);
        if (!finite(rec)) {
            if (nonFinite++ == 0) firstNonFinite = i * bytes;
        } else if (rec.type < kEmitSurface || rec.type > kEmitSkyambient) {
            if (badType++ == 0) firstBadType = i * bytes;
        } else if (rec.style < 0 || rec.style > 254) {
            if (badStyle++ == 0) firstBadStyle = i * bytes;
        } else if (Light l = toLight(fades, rec, i); !std::isfinite(l.intensity)) {
            if (nonFinite++ == 0) firstNonFinite = i * bytes;  // a quake light's intensity x reach overflowed
        } else {
            w.lights.push_back(std::move(l));
        }
    }
    auto note = [&](size_t n, size_t at, const char* what) {
        if (n > 0) w.problems.push_back(where(r, at, std::to_string(n) + " world light(s) " + what + ": left out"));
    };
    note(nonFinite, firstNonFinite, "with a non-finite field (NaN or infinity)");
    note(badType, firstBadType, "of an unknown emit type");
    note(badStyle, firstBadStyle, "with a style outside 0..254");
}

}  // namespace luxel::vbsp
