// The test-side Quake 1 lighting reader (see q1_lighting_reader.hpp).
#include "support/q1_lighting_reader.hpp"

#include <algorithm>
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

    void need(size_t at, size_t n) const {
        if (at > bytes.size() || n > bytes.size() - at)
            throw std::runtime_error(path + ": read of " + std::to_string(n) + " bytes past the end at " + std::to_string(at));
    }
    uint32_t u32(size_t at) const {
        need(at, 4);
        return uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 | uint32_t(bytes[at + 3]) << 24;
    }
    int32_t i32(size_t at) const { return int32_t(u32(at)); }
    uint16_t u16(size_t at) const {
        need(at, 2);
        return uint16_t(bytes[at] | bytes[at + 1] << 8);
    }
    int16_t i16(size_t at) const { return int16_t(u16(at)); }
    float f32(size_t at) const {
        const uint32_t v = u32(at);
        float f;
        std::memcpy(&f, &v, 4);
        return f;
    }
    std::string name(size_t at, size_t n) const {
        need(at, n);
        const char* p = reinterpret_cast<const char*>(bytes.data() + at);
        return std::string(p, strnlen(p, n));
    }
};

File load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open");
    return File{std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {}), path};
}

struct Lump {
    size_t offset = 0, length = 0;
};

}  // namespace

Q1Lighting readQ1Lighting(const std::string& bspPath, const std::string& litPath) {
    const File f = load(bspPath);
    Q1Lighting out;
    const std::string magic = f.name(0, 4);
    bool wide = false;
    if (magic == "BSP2") {
        out.variant = "BSP2", wide = true;
    } else if (magic == "2PSB") {
        out.variant = "2PSB", wide = true;
    } else if (f.i32(0) == 29) {
        out.variant = "BSP29";
    } else if (f.i32(0) == 30) {
        out.variant = "BSP30";  // GoldSrc: the lighting lump is RGB, face offsets in bytes
    } else {
        throw std::runtime_error(bspPath + ": not a Quake 1 BSP29 / BSP2 / 2PSB or GoldSrc BSP30 file");
    }
    std::array<Lump, 15> lumps;
    size_t end = 0;
    for (size_t i = 0; i < 15; ++i) {
        lumps[i] = {f.u32(4 + 8 * i), f.u32(8 + 8 * i)};
        f.need(lumps[i].offset, lumps[i].length);
        end = std::max(end, lumps[i].offset + lumps[i].length);
    }
    const Lump textures = lumps[2], vertexes = lumps[3], texinfo = lumps[6], faces = lumps[7], lighting = lumps[8],
               edges = lumps[12], surfedges = lumps[13];

    // The light shown: BSPX RGBLIGHTING, a .lit, the grey lump.
    const uint8_t* light = f.bytes.data() + lighting.offset;
    size_t lightBytes = lighting.length;
    const bool goldSrc = out.variant == "BSP30";
    int channels = goldSrc ? 3 : 1;
    out.source = goldSrc ? "RGB lump" : "grey";
    const size_t bspx = (end + 3) / 4 * 4;
    Lump decoupled;
    bool haveDecoupled = false;
    if (bspx + 8 <= f.bytes.size() && f.name(bspx, 4) == "BSPX") {
        const uint32_t count = f.u32(bspx + 4);
        for (uint32_t k = 0; k < count; ++k) {
            const size_t entry = bspx + 8 + 32 * size_t(k);
            const std::string name = f.name(entry, 24);
            const Lump l{f.u32(entry + 24), f.u32(entry + 28)};
            f.need(l.offset, l.length);
            if (name == "DECOUPLED_LM") {
                decoupled = l;
                haveDecoupled = true;
            }
            if (name != "RGBLIGHTING") continue;
            if (goldSrc) continue;
            if (l.length != 3 * lighting.length) throw std::runtime_error(bspPath + ": RGBLIGHTING is not 3 x the lighting lump");
            light = f.bytes.data() + l.offset;
            lightBytes = l.length;
            channels = 3;
            out.source = "BSPX RGBLIGHTING";
        }
    }
    File lit;
    if (channels == 1 && !litPath.empty()) {
        lit = load(litPath);
        if (lit.name(0, 4) != "QLIT" || lit.i32(4) != 1) throw std::runtime_error(litPath + ": not a QLIT version 1 file");
        if (lit.bytes.size() - 8 != 3 * lighting.length) throw std::runtime_error(litPath + ": not 3 x the lighting lump");
        light = lit.bytes.data() + 8;
        lightBytes = lit.bytes.size() - 8;
        channels = 3;
        out.source = ".lit";
    }

    // Miptex names, by directory slot.
    std::vector<std::string> names;
    if (textures.length >= 4) {
        const int32_t count = f.i32(textures.offset);
        for (int32_t k = 0; k < count; ++k) {
            const int32_t at = f.i32(textures.offset + 4 + 4 * size_t(k));
            names.push_back(at < 0 ? std::string() : f.name(textures.offset + size_t(at), 16));
        }
    }

    const size_t faceBytes = wide ? 28 : 20;
    out.faces = faces.length / faceBytes;
    for (size_t face = 0; face < out.faces; ++face) {
        const size_t at = faces.offset + face * faceBytes;
        int32_t firstEdge, numEdges, tex;
        size_t lightAt;
        if (wide) {
            firstEdge = f.i32(at + 8), numEdges = f.i32(at + 12), tex = f.i32(at + 16), lightAt = at + 20;
        } else {
            firstEdge = f.i32(at + 4), numEdges = f.u16(at + 8), tex = f.i16(at + 10), lightAt = at + 12;
        }
        Q1FaceLight fl;
        fl.face = uint32_t(face);
        for (size_t k = 0; k < 4; ++k) fl.styles[k] = f.bytes.at(lightAt + k);
        fl.lightOffset = f.i32(lightAt + 4);
        const size_t ti = texinfo.offset + size_t(tex) * 40;
        const int32_t miptex = f.i32(ti + 32), flags = f.i32(ti + 36);
        if (flags & 1) continue;
        if (fl.styles[0] == 255 || fl.lightOffset < 0) {
            out.dark.push_back(uint32_t(face));
            continue;
        }
        fl.texture = miptex >= 0 && size_t(miptex) < names.size() ? names[size_t(miptex)] : std::string();
        float mins[2] = {1e30f, 1e30f}, maxs[2] = {-1e30f, -1e30f};
        for (int32_t e = 0; e < numEdges; ++e) {
            const int32_t se = f.i32(surfedges.offset + (size_t(firstEdge) + size_t(e)) * 4);
            const size_t edge = edges.offset + size_t(std::abs(se)) * (wide ? 8 : 4);
            const uint32_t v = wide ? f.u32(edge + (se >= 0 ? 0 : 4)) : f.u16(edge + (se >= 0 ? 0 : 2));
            const size_t p = vertexes.offset + size_t(v) * 12;
            for (int axis = 0; axis < 2; ++axis) {
                const size_t row = ti + size_t(axis) * 16;
                // CalcSurfaceExtents: x * sx + y * sy + z * sz + offset in double, kept as a float.
                const float value = float(double(f.f32(p)) * f.f32(row) + double(f.f32(p + 4)) * f.f32(row + 4) +
                                          double(f.f32(p + 8)) * f.f32(row + 8) + double(f.f32(row + 12)));
                mins[axis] = std::min(mins[axis], value);
                maxs[axis] = std::max(maxs[axis], value);
            }
        }
        fl.width = int32_t(std::ceil(maxs[0] / 16) - std::floor(mins[0] / 16)) + 1;
        fl.height = int32_t(std::ceil(maxs[1] / 16) - std::floor(mins[1] / 16)) + 1;
        if (haveDecoupled) {
            // A record of 40 bytes a face: uint16 width, height, int32 offset, the world -> luxel matrix.
            const size_t record = decoupled.offset + face * 40;
            if (record + 40 > decoupled.offset + decoupled.length) throw std::runtime_error(bspPath + ": DECOUPLED_LM too short");
            fl.width = f.u16(record);
            fl.height = f.u16(record + 2);
            fl.lightOffset = f.i32(record + 4);
            out.decoupled = true;
            if (fl.lightOffset < 0 || fl.width == 0 || fl.height == 0) {
                out.dark.push_back(uint32_t(face));
                continue;
            }
        }
        const size_t luxels = size_t(fl.width) * size_t(fl.height);
        const size_t start = size_t(fl.lightOffset) * size_t(goldSrc ? 1 : channels), bytes = luxels * size_t(channels);
        if (fl.width <= 0 || fl.height <= 0 || start + bytes > lightBytes)
            throw std::runtime_error(bspPath + ": face " + std::to_string(face) + " lightmap outside its light");
        fl.rgb.resize(luxels * 3);
        for (size_t k = 0; k < luxels; ++k)
            for (size_t c = 0; c < 3; ++c) fl.rgb[k * 3 + c] = light[start + (channels == 3 ? k * 3 + c : k)];
        out.lit.push_back(std::move(fl));
    }
    return out;
}

}  // namespace luxel::test
