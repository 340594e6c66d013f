// The test-side Quake 2 lighting reader (see q2_lighting_reader.hpp).
#include "support/q2_lighting_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace luxel::test {

namespace {

struct File {
    std::vector<uint8_t> bytes;
    std::string path;
    uint32_t u32(size_t at) const {
        if (at + 4 > bytes.size()) throw std::runtime_error(path + ": read past the end at " + std::to_string(at));
        return uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 | uint32_t(bytes[at + 3]) << 24;
    }
    int32_t i32(size_t at) const { return int32_t(u32(at)); }
    uint16_t u16(size_t at) const {
        if (at + 2 > bytes.size()) throw std::runtime_error(path + ": read past the end at " + std::to_string(at));
        return uint16_t(bytes[at] | bytes[at + 1] << 8);
    }
    float f32(size_t at) const {
        const uint32_t v = u32(at);
        float f;
        std::memcpy(&f, &v, 4);
        return f;
    }
};

struct Lump {
    size_t offset = 0, length = 0;
};

}  // namespace

Q2LightingLuxels readQ2Lighting(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open");
    File f{std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {}), path};
    if (f.u32(0) != 0x50534249u || f.u32(4) != 38) throw std::runtime_error(path + ": not IBSP 38");
    auto lump = [&](int i) {
        Lump l{f.u32(8 + 8 * size_t(i)), f.u32(12 + 8 * size_t(i))};
        if (l.offset + l.length > f.bytes.size()) throw std::runtime_error(path + ": lump out of the file");
        return l;
    };
    const Lump vertexes = lump(2), texinfo = lump(5), faces = lump(6), lighting = lump(7), edges = lump(11),
               surfedges = lump(12);
    Q2LightingLuxels out;
    for (size_t face = 0; face < faces.length / 20; ++face) {
        const size_t at = faces.offset + face * 20;
        const int32_t firstEdge = f.i32(at + 4);
        const uint16_t numEdges = f.u16(at + 8), tex = f.u16(at + 10);
        const uint8_t style0 = f.bytes.at(at + 12);
        const int32_t lightofs = f.i32(at + 16);
        if (style0 == 255 || lightofs < 0) continue;
        const size_t ti = texinfo.offset + size_t(tex) * 76;
        std::array<double, 2> lo{1e30, 1e30}, hi{-1e30, -1e30};
        for (uint16_t e = 0; e < numEdges; ++e) {
            const int32_t se = f.i32(surfedges.offset + (size_t(firstEdge) + e) * 4);
            const size_t edge = edges.offset + size_t(std::abs(se)) * 4;
            const uint16_t v = se >= 0 ? f.u16(edge) : f.u16(edge + 2);
            const size_t p = vertexes.offset + size_t(v) * 12;
            for (int axis = 0; axis < 2; ++axis) {
                const size_t row = ti + size_t(axis) * 16;
                // The game's float arithmetic (CalcSurfaceExtents): x*sx + y*sy + z*sz + offset.
                const float value = f.f32(p) * f.f32(row) + f.f32(p + 4) * f.f32(row + 4) +
                                    f.f32(p + 8) * f.f32(row + 8) + f.f32(row + 12);
                lo[axis] = std::min(lo[axis], double(value));
                hi[axis] = std::max(hi[axis], double(value));
            }
        }
        const long w = long(std::ceil(hi[0] / 16) - std::floor(lo[0] / 16)) + 1;
        const long h = long(std::ceil(hi[1] / 16) - std::floor(lo[1] / 16)) + 1;
        const size_t bytes = size_t(w) * size_t(h) * 3;
        if (w <= 0 || h <= 0 || size_t(lightofs) + bytes > lighting.length)
            throw std::runtime_error(path + ": face " + std::to_string(face) + " lightmap outside the lighting lump");
        const uint8_t* src = f.bytes.data() + lighting.offset + size_t(lightofs);
        out.rgb.insert(out.rgb.end(), src, src + bytes);
        ++out.faces;
    }
    return out;
}

Q2LightingComparison compareQ2Lighting(const Q2LightingLuxels& reference, const Q2LightingLuxels& baked) {
    if (reference.rgb.size() != baked.rgb.size() || reference.faces != baked.faces)
        throw std::runtime_error("the two maps' lightmaps differ in size");
    Q2LightingComparison c;
    c.luxels = reference.rgb.size() / 3;
    auto luma = [](const std::vector<uint8_t>& v, size_t i) {
        return 0.2126 * v[3 * i] + 0.7152 * v[3 * i + 1] + 0.0722 * v[3 * i + 2];
    };
    for (size_t i = 0; i < c.luxels; ++i) c.meanReference += luma(reference.rgb, i), c.meanBaked += luma(baked.rgb, i);
    if (c.luxels > 0) c.meanReference /= double(c.luxels), c.meanBaked /= double(c.luxels);
    std::vector<double> relative;
    for (size_t i = 0; i < c.luxels; ++i) {
        const double r = luma(reference.rgb, i);
        if (r <= 0 || r < 0.01 * c.meanReference) continue;
        relative.push_back(std::abs(luma(baked.rgb, i) - r) / r);
    }
    c.lit = relative.size();
    if (!relative.empty()) {
        std::nth_element(relative.begin(), relative.begin() + long(relative.size() / 2), relative.end());
        c.medianRelative = relative[relative.size() / 2];
    }
    return c;
}

}  // namespace luxel::test
