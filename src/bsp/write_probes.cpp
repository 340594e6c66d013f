// writeProbes: checks the values against the World, hands them to the format's writer, and holds the
// stored encodings and the lump placement both writers share.
#include "luxel/bsp/write_probes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "luxel/util/error.hpp"
#include "write_probes_parts.hpp"

namespace luxel {

namespace {

// Negative and NaN light is stored as none, infinite light as the largest float (the encoders clamp it
// further to what they hold).
double storable(float c) {
    return std::isnan(c) ? 0.0 : std::clamp(double(c), 0.0, double(std::numeric_limits<float>::max()));
}

// Inverse of the decoder's (cos a sin p, sin a sin p, cos p) with p, a = byte * 2pi / 256: the nearest
// byte pair. Straight up or down (and a zero vector, stored as up) have azimuth 0, which they ignore.
std::array<uint8_t, 2> gridAngleBytes(Vec3 d) {
    const double x = d.x, y = d.y, z = d.z;
    const double len = std::sqrt(x * x + y * y + z * z);
    if (!(len > 0) || !std::isfinite(len)) return {0, 0};
    const double step = 2.0 * std::numbers::pi / 256.0;
    const long polar = std::lround(std::acos(std::clamp(z / len, -1.0, 1.0)) / step);  // 0..128
    if (polar == 0 || polar == 128) return {uint8_t(polar), 0};
    const long azimuth = std::lround(std::atan2(y, x) / step);  // -128..128
    return {uint8_t(polar), uint8_t(((azimuth % 256) + 256) % 256)};
}

}  // namespace

// Light as bytes of `perUnit` per linear unit (q3map2's ColorToBytes: 255 / 4, the decoder's overbright
// 4 * byte / 255; Quake 2: 255); when a channel would pass 255 all three are scaled down together, so an
// over-bright colour keeps its hue.
std::array<uint8_t, 3> encodeLightBytes(Vec3 linear, double perUnit) {
    std::array<double, 3> v{};
    double top = 0;
    for (int i = 0; i < 3; ++i) {
        v[size_t(i)] = storable(linear[i]) * perUnit;
        top = std::max(top, v[size_t(i)]);
    }
    const double scale = top > 255.0 ? 255.0 / top : 1.0;
    std::array<uint8_t, 3> out{};
    for (size_t i = 0; i < 3; ++i) out[i] = uint8_t(std::min(255.0, std::round(v[i] * scale)));
    return out;
}

std::array<uint8_t, 3> encodeQuake3Light(Vec3 linear) { return encodeLightBytes(linear, 255.0 / 4.0); }
std::array<uint8_t, 3> encodeQuake2Light(Vec3 linear) { return encodeLightBytes(linear, 255.0); }

std::array<uint8_t, 8> encodeGridPoint(const GridSample& s) {
    const auto ambient = encodeQuake3Light(s.ambient), directed = encodeQuake3Light(s.directed);
    const auto angles = gridAngleBytes(s.direction);
    return {ambient[0], ambient[1], ambient[2], directed[0], directed[1], directed[2], angles[0], angles[1]};
}

std::array<uint8_t, 4> encodeColorRGBExp32(Vec3 linear) {
    const std::array<double, 3> c{storable(linear.x), storable(linear.y), storable(linear.z)};
    const double top = std::max({c[0], c[1], c[2]});
    if (top == 0) return {0, 0, 0, 0};
    // The smallest exponent whose rounded mantissas fit in a byte: ceil(log2(top)), or one less when the
    // top channel still rounds to 255 there (a decoded 255 * 2^e / 255 can land a float step above 2^e).
    int x = 0;
    const double f = std::frexp(top, &x);  // top = f * 2^x, f in [0.5, 1)
    int e = f == 0.5 ? x - 1 : x;
    if (std::round(top * 255.0 / std::ldexp(1.0, e - 1)) <= 255.0) --e;
    e = std::clamp(e, -128, 127);
    std::array<uint8_t, 4> out{};
    for (size_t i = 0; i < 3; ++i) out[i] = uint8_t(std::min(255.0, std::round(c[i] * 255.0 / std::ldexp(1.0, e))));
    if (out[0] == 0 && out[1] == 0 && out[2] == 0) return {0, 0, 0, 0};  // too dark for any exponent
    out[3] = uint8_t(int8_t(e));
    return out;
}

Bytes writeProbes(const MapSource& source, const World& world, const ProbeValues& values) {
    checkProbeValues(world, values);
    const ProbeKind kind = values.kind;
    if (kind == ProbeKind::None) return source.bytes;
    if (kind == ProbeKind::Grid) {
        if (world.format != MapFormat::Quake3)
            throw UsageError(world.file + ": only Quake 3 maps store a light grid");
        return q3::writeLightGrid(source, values.grid);
    }
    if (world.format != MapFormat::Source) throw UsageError(world.file + ": only Source maps store ambient cubes");
    return vbsp::writeAmbientCubes(source, world.probeLump, values.cubes);
}

namespace bsp {

void putU32(Bytes& file, size_t at, uint32_t value) {
    for (size_t i = 0; i < 4; ++i) file.at(at + i) = uint8_t(value >> (8 * i));
}

void placeLump(Bytes& file, const LumpPlace& place, std::span<const uint8_t> data, bool inPlace) {
    if (inPlace) {
        if (data.size() != place.length || place.offset > file.size() || place.length > file.size() - place.offset)
            throw DecodeError(place.file, place.name, place.offset,
                              "cannot rewrite " + std::to_string(place.length) + " bytes in place with " +
                                  std::to_string(data.size()));
        std::copy(data.begin(), data.end(), file.begin() + std::ptrdiff_t(place.offset));
        return;
    }
    while (file.size() % 4 != 0) file.push_back(0);
    const uint64_t offset = file.size();
    // Directory fields are 32-bit: the grown file must stay addressable (and within the reader's limit).
    if (offset + data.size() > kMaxFileBytes)
        throw DecodeError(place.file, place.name, place.offset,
                          "appending the rewritten lump (" + std::to_string(data.size()) +
                              " bytes) makes the file pass " + std::to_string(kMaxFileBytes) + " bytes");
    file.insert(file.end(), data.begin(), data.end());
    putU32(file, place.offsetField, uint32_t(offset));
    putU32(file, place.lengthField, uint32_t(data.size()));
}

Vec3 surfaceLuxel(const std::vector<LightmapPage>& pages, const Surface& s, int32_t i, int32_t j) {
    if (s.lightmapPage < 0 || size_t(s.lightmapPage) >= pages.size()) return {};
    const LightmapPage& p = pages[size_t(s.lightmapPage)];
    const int32_t x = s.lightmapRect[0] + i, y = s.lightmapRect[1] + j;
    if (x < 0 || y < 0 || x >= p.width || y >= p.height) return {};
    const float* t = p.rgb.data() + (size_t(y) * size_t(p.width) + size_t(x)) * 3;
    return {t[0], t[1], t[2]};
}

}  // namespace bsp

}  // namespace luxel
