// Quake 1 / Half-Life lighting laid out anew and written into a copy of the map (see write_relaid_lighting.hpp).
#include "luxel/bsp/write_relaid_lighting.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "luxel/bsp/decoupled_layout.hpp"
#include "luxel/io/reader.hpp"
#include "luxel/util/error.hpp"

#include "edge_faces.hpp"

namespace luxel {

namespace {

constexpr int kEntitiesLump = 0;

// What differs between the formats this writer knows.
struct Format {
    bool quake2 = false, halfLife = false, wide = false;
    size_t directory = 4, lumps = 15, faces = 7, lighting = 8, faceBytes = 20;
    double byteScale = 255.0 * 256.0 / 264.0;  // linear -> the compiler's 0..255 value
    bool rgbLump() const { return quake2 || halfLife; }
};

void putI32(Bytes& b, size_t at, int32_t v) { std::memcpy(b.data() + at, &v, 4); }

struct Lump {
    uint32_t offset = 0, length = 0;
};

// The file's light value of one texel of a slot, as ericw-tools stores it.
void texelBytes(const float* linear, double byteScale, uint8_t rgb[3], uint8_t& grey) {
    double c[3];
    for (int k = 0; k < 3; ++k) c[k] = std::max(0.0, double(linear[k]) * byteScale);
    const double top = std::max({c[0], c[1], c[2]});
    if (top > 255.0)
        for (double& v : c) v *= 255.0 / top;
    // A hair over the value so a texel that decodes to exactly b (b x 264 / 256 / 255) comes back as b.
    for (int k = 0; k < 3; ++k) rgb[k] = uint8_t(std::min(255.0, c[k] + 1e-4));
    grey = std::max({rgb[0], rgb[1], rgb[2]});
}

}  // namespace

std::string entitiesLumpText(const std::vector<Entity>& entities) {
    std::string out;
    for (const Entity& e : entities) {
        out += "{\n";
        for (const auto& [k, v] : e.keys) out += "\"" + k + "\" \"" + v + "\"\n";
        out += "}\n";
    }
    out.push_back('\0');
    return out;
}

RelaidOutLightingFiles writeRelaidOutLighting(const MapSource& source, const World& world, const LightmapSet& set,
                                        const RelaidOutLightingOptions& options) {
    const Bytes& in = source.bytes;
    ByteReader header(in, source.displayName, "header", 0);
    if (in.size() < 8) header.fail(0, "file too small for a map header");
    const std::string magic(in.begin(), in.begin() + 4);
    int32_t version = 0;
    std::memcpy(&version, in.data(), 4);
    Format f;
    f.halfLife = version == 30;
    f.wide = magic == "BSP2" || magic == "2PSB";
    if (magic == "IBSP") {
        std::memcpy(&version, in.data() + 4, 4);
        if (version != 38) header.fail(4, "IBSP version " + std::to_string(version) + " is not Quake 2's 38");
        f.quake2 = true, f.directory = 8, f.lumps = 19, f.faces = 6, f.lighting = 7, f.byteScale = 255.0;
    } else if (!f.halfLife && !f.wide && version != 29) {
        header.fail(0, "not a Quake 1, Quake 2 or Half-Life map");
    }
    if (f.wide) f.faceBytes = 28;
    if (f.rgbLump() && (options.lit || options.bspxLit || options.bspxLux))
        throw UsageError("Quake 2 and Half-Life maps hold RGB light in their lighting lump: --lit, --bspxlit and --bspxlux are for Quake 1");
    if (options.bspxLux && !options.directions) throw UsageError("LIGHTINGDIR needs the baked light directions");
    if (options.luxelShift && f.rgbLump()) throw UsageError("--lmshift (a BSPX LMSHIFT lump) is for Quake 1 maps");
    if (options.worldUnitsPerLuxel && f.rgbLump())
        throw UsageError("--world-units-per-luxel (a BSPX DECOUPLED_LM lump) is for Quake 1 maps");
    if (in.size() < f.directory + 8 * f.lumps) header.fail(0, "file too small for its lump directory");
    const size_t faceBytes = f.faceBytes;
    std::vector<Lump> lumps(f.lumps);
    header.seek(f.directory);
    uint32_t end = uint32_t(f.directory + 8 * f.lumps);
    for (Lump& l : lumps) {
        l.offset = header.u32();
        l.length = header.u32();
        if (uint64_t(l.offset) + l.length > in.size()) header.fail(header.position() - 8, "lump extends past end of file");
        end = std::max(end, l.offset + l.length);
    }
    const size_t numFaces = lumps[f.faces].length / faceBytes;
    if (numFaces != world.surfaces.size())
        throw UsageError(source.displayName + ": the map has " + std::to_string(numFaces) + " faces, the World " +
                         std::to_string(world.surfaces.size()) + " surfaces");

    // Faces in order, each lit face's styles packed from the running offset (ericw-tools hands out offsets
    // in whatever order its threads finish; face order gives the same bytes every time).
    Bytes faces(in.begin() + lumps[f.faces].offset, in.begin() + lumps[f.faces].offset + lumps[f.faces].length);
    Bytes grey, rgb, lux, decoupled;
    // A face's texture vectors (s and t rows of 4) and its plane (normal, distance) as the file holds them.
    struct FaceFrame {
        float v[8] = {}, n[4] = {};
        bool side = false;
    };
    auto faceFrame = [&](size_t i) {
        const uint8_t* rec = in.data() + lumps[f.faces].offset + i * faceBytes;
        int32_t plane = 0, side = 0, texinfo = 0;
        if (f.wide) {
            std::memcpy(&plane, rec, 4), std::memcpy(&side, rec + 4, 4), std::memcpy(&texinfo, rec + 16, 4);
        } else {
            uint16_t p16 = 0;
            int16_t s16 = 0, t16 = 0;
            std::memcpy(&p16, rec, 2), std::memcpy(&s16, rec + 2, 2), std::memcpy(&t16, rec + 10, 2);
            plane = p16, side = s16, texinfo = t16;
        }
        constexpr size_t kPlanes = 1, kTexinfo = 6;
        FaceFrame frame;
        frame.side = side != 0;
        if (texinfo >= 0 && (uint64_t(texinfo) + 1) * 40 <= lumps[kTexinfo].length)
            std::memcpy(frame.v, in.data() + lumps[kTexinfo].offset + size_t(texinfo) * 40, 32);
        if (plane >= 0 && (uint64_t(plane) + 1) * 20 <= lumps[kPlanes].length)
            std::memcpy(frame.n, in.data() + lumps[kPlanes].offset + size_t(plane) * 20, 16);
        return frame;
    };
    // The face's texture-space axes for LIGHTINGDIR: light's snormal, tnormal and plane normal.
    auto faceAxes = [&](size_t i) {
        const FaceFrame frame = faceFrame(i);
        const float* v = frame.v;
        const float* n = frame.n;
        const bool side = frame.side;
        std::array<Vec3, 3> axes{Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};
        auto unit = [](Vec3 a) { return length(a) > 0 ? normalize(a) : a; };
        axes[0] = unit(Vec3{v[0], v[1], v[2]});
        axes[1] = unit(Vec3{v[4], v[5], v[6]}) * -1.0f;
        axes[2] = Vec3{n[0], n[1], n[2]} * (side ? -1.0f : 1.0f);
        return axes;
    };
    // One luxel of a block: its light (linear rgb) and, for LIGHTINGDIR, the direction towards it (world space).
    auto pushLuxel = [&](const float* light, const float* direction, const std::array<Vec3, 3>& axes) {
        uint8_t c[3], g;
        texelBytes(light, f.byteScale, c, g);
        grey.push_back(g);
        rgb.insert(rgb.end(), c, c + 3);
        if (!options.bspxLux) return;
        const float* d = direction;
        Vec3 t{d[0] * axes[0].x + d[1] * axes[0].y + d[2] * axes[0].z, d[0] * axes[1].x + d[1] * axes[1].y + d[2] * axes[1].z,
               d[0] * axes[2].x + d[1] * axes[2].y + d[2] * axes[2].z};
        t = t.x == 0 && t.y == 0 && t.z == 0 ? Vec3{0, 0, 1} : normalize(t);
        for (float v : {t.x, t.y, t.z}) lux.push_back(uint8_t(std::min(255, int((v + 1) * 128))));
    };
    auto putU16 = [](Bytes& b, uint16_t v) { b.insert(b.end(), reinterpret_cast<const uint8_t*>(&v), reinterpret_cast<const uint8_t*>(&v) + 2); };
    auto putRaw32 = [](Bytes& b, const void* v) { b.insert(b.end(), static_cast<const uint8_t*>(v), static_cast<const uint8_t*>(v) + 4); };
    for (size_t i = 0; i < numFaces; ++i) {
        const Surface& s = world.surfaces[i];
        const size_t rec = i * faceBytes;
        std::array<uint8_t, 4> styles{255, 255, 255, 255};
        int32_t offset = -1;
        const int w = s.lightmapRect[2], h = s.lightmapRect[3];
        DecoupledLayout layout;  // width 0: no record
        int32_t decoupledOffset = -1;
        if (s.lightmapPage >= 0 && s.styles[0] != 255 && w > 0 && h > 0) {
            offset = int32_t(f.rgbLump() ? rgb.size() : grey.size());
            std::array<const LightmapPage*, 4> light{}, direction{};
            size_t slots = 0;
            for (size_t k = 0; k < 4 && s.styles[k] != 255; ++k, ++slots) {
                const std::vector<LightmapPage>& pages = set.slots[k];
                if (size_t(s.lightmapPage) >= pages.size())
                    throw UsageError("face " + std::to_string(i) + " has style slot " + std::to_string(k) + " but the baked set has no page for it");
                light[k] = &pages[size_t(s.lightmapPage)];
                if (s.lightmapRect[0] + w > light[k]->width || s.lightmapRect[1] + h > light[k]->height)
                    throw UsageError("face " + std::to_string(i) + " lightmap lies outside its page");
                styles[k] = s.styles[k];
                if (options.bspxLux) {
                    const std::vector<LightmapPage>& dirs = (*options.directions)[k];
                    if (size_t(s.lightmapPage) >= dirs.size()) throw UsageError("face " + std::to_string(i) + " has no direction page");
                    direction[k] = &dirs[size_t(s.lightmapPage)];
                }
            }
            const std::array<Vec3, 3> axes = options.bspxLux ? faceAxes(i) : std::array<Vec3, 3>{};
            // Luxel (x, y) of the face's block in a page (x, y inside the block).
            auto texel = [&](const LightmapPage* page, int x, int y) {
                return page ? page->rgb.data() + (size_t(s.lightmapRect[1] + y) * size_t(page->width) + size_t(s.lightmapRect[0] + x)) * 3
                            : nullptr;
            };
            for (size_t k = 0; k < slots; ++k)
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) pushLuxel(texel(light[k], x, y), texel(direction[k], x, y), axes);
            if (options.worldUnitsPerLuxel) {
                std::vector<Vec3> corners(s.numVertices);
                for (uint32_t k = 0; k < s.numVertices; ++k) corners[k] = world.vertices[s.firstVertex + k].position;
                const float units = texinfoUnitsPerLuxel(options.texinfoWorldUnitsPerLuxel, uint32_t(s.material), *options.worldUnitsPerLuxel);
                layout = decoupledLayout(corners.data(), corners.size(), s.normal, units);
                if (layout.width != w || layout.height != h)
                    throw UsageError("face " + std::to_string(i) + " was not laid out at " + std::to_string(units) +
                                     " world units a luxel");
                decoupledOffset = offset;
                offset = -1;
                if (options.vanilla) {
                    // The engines' own layout at 16 units a luxel, each of its luxels taken from the decoupled block
                    // where its world point falls (light: vanillaLMToDecoupled, truncated to the cell, clamped).
                    const FaceFrame frame = faceFrame(i);
                    std::vector<std::array<double, 2>> st(corners.size());
                    for (size_t k = 0; k < corners.size(); ++k)
                        for (size_t a = 0; a < 2; ++a)
                            st[k][a] = double(corners[k].x) * frame.v[a * 4] + double(corners[k].y) * frame.v[a * 4 + 1] +
                                       double(corners[k].z) * frame.v[a * 4 + 2] + double(frame.v[a * 4 + 3]);
                    std::array<int32_t, 4> ext;
                    if (!bsp::lightmapExtents(st.data(), st.size(), ext, 16))
                        throw UsageError("face " + std::to_string(i) + " has unusable texture extents");
                    // World point of vanilla luxel (u, v): texture (s, t) = ((mins + u) x 16, (mins + v) x 16) on the plane.
                    const DVec3 sAxis{frame.v[0], frame.v[1], frame.v[2]}, tAxis{frame.v[4], frame.v[5], frame.v[6]},
                        normal{frame.n[0], frame.n[1], frame.n[2]};
                    const double det = dot(sAxis, cross(tAxis, normal));
                    if (!(std::fabs(det) > 1e-12)) throw UsageError("face " + std::to_string(i) + " has texture axes in its plane's normal");
                    offset = int32_t(f.rgbLump() ? rgb.size() : grey.size());
                    const auto& m = layout.worldToLuxel;
                    for (size_t k = 0; k < slots; ++k)
                        for (int v = 0; v < ext[3]; ++v)
                            for (int u = 0; u < ext[2]; ++u) {
                                const double rs = double(ext[0] + u) * 16 - frame.v[3], rt = double(ext[1] + v) * 16 - frame.v[7],
                                             rn = frame.n[3];
                                // Cramer's rule on rows sAxis, tAxis, normal.
                                const DVec3 p = (cross(tAxis, normal) * rs + cross(normal, sAxis) * rt + cross(sAxis, tAxis) * rn) * (1 / det);
                                const float cx = float(m[0][0] * p.x + m[0][1] * p.y + m[0][2] * p.z + m[0][3]);
                                const float cy = float(m[1][0] * p.x + m[1][1] * p.y + m[1][2] * p.z + m[1][3]);
                                const int x0 = int(cx), y0 = int(cy);
                                const float fx = cx - float(x0), fy = cy - float(y0);
                                auto mixed = [&](const LightmapPage* page, float* out) {
                                    auto at = [&](int x, int y) { return texel(page, std::clamp(x, 0, w - 1), std::clamp(y, 0, h - 1)); };
                                    const float *a = at(x0, y0), *b = at(x0 + 1, y0), *c = at(x0, y0 + 1), *d = at(x0 + 1, y0 + 1);
                                    for (int q = 0; q < 3; ++q) {
                                        const float top = a[q] + (b[q] - a[q]) * fx, bottom = c[q] + (d[q] - c[q]) * fx;
                                        out[q] = top + (bottom - top) * fy;
                                    }
                                };
                                float l[3], d[3] = {0, 0, 0};
                                mixed(light[k], l);
                                if (direction[k]) mixed(direction[k], d);
                                pushLuxel(l, d, axes);
                            }
                }
            }
        }
        if (options.worldUnitsPerLuxel) {
            putU16(decoupled, uint16_t(layout.width));
            putU16(decoupled, uint16_t(layout.height));
            putRaw32(decoupled, &decoupledOffset);
            for (const auto& row : layout.worldToLuxel)
                for (float v : row) putRaw32(decoupled, &v);
        }
        std::memcpy(faces.data() + rec + faceBytes - 8, styles.data(), 4);
        putI32(faces, rec + faceBytes - 4, offset);
    }

    // The BSPX directory after the last lump, if any: its lumps kept unless the new layout makes them stale.
    std::vector<std::pair<std::string, Bytes>> bspx;
    const uint32_t bspxAt = (end + 3) & ~3u;
    if (!f.halfLife && uint64_t(bspxAt) + 8 <= in.size() && std::memcmp(in.data() + bspxAt, "BSPX", 4) == 0) {
        ByteReader r(in, source.displayName, "bspx", 0);
        r.seek(bspxAt + 4);
        const uint32_t count = r.u32();
        if (uint64_t(count) * 32 > in.size()) r.fail(bspxAt + 4, "BSPX directory count " + std::to_string(count) + " too large");
        for (uint32_t k = 0; k < count; ++k) {
            const std::string name = r.fixedString(24);
            const uint32_t o = r.u32(), n = r.u32();
            if (uint64_t(o) + n > in.size()) r.fail(r.position() - 8, "BSPX lump " + name + " extends past end of file");
            // LMSHIFT stays (the new layout was made with it) unless a shift of its own replaces it.
            static const char* const kStale[] = {"RGBLIGHTING", "LIGHTINGDIR", "LMOFFSET", "LMSTYLE", "LMSTYLE16",
                                                 "DECOUPLED_LM", "LIGHTING_E5BGR9"};
            if (std::any_of(std::begin(kStale), std::end(kStale), [&](const char* s) { return name == s; })) continue;
            if (options.luxelShift && name == "LMSHIFT") continue;
            bspx.emplace_back(name, Bytes(in.begin() + o, in.begin() + o + n));
        }
    }
    if (options.luxelShift) bspx.emplace_back("LMSHIFT", Bytes(numFaces, uint8_t(*options.luxelShift)));
    if (options.worldUnitsPerLuxel) bspx.emplace_back("DECOUPLED_LM", decoupled);
    if (options.bspxLit) bspx.emplace_back("RGBLIGHTING", rgb);
    if (options.bspxLux) bspx.emplace_back("LIGHTINGDIR", lux);

    // The standard lumps in their file order, each replaced or copied, 4-aligned.
    std::vector<Bytes> contents(f.lumps);
    for (size_t k = 0; k < f.lumps; ++k) contents[k] = Bytes(in.begin() + lumps[k].offset, in.begin() + lumps[k].offset + lumps[k].length);
    contents[f.faces] = std::move(faces);
    contents[f.lighting] = f.rgbLump() ? rgb : grey;
    if (options.entities) contents[kEntitiesLump] = Bytes(options.entities->begin(), options.entities->end());
    std::vector<size_t> order(f.lumps);
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return lumps[a].offset < lumps[b].offset; });
    Bytes out(in.begin(), in.begin() + std::ptrdiff_t(f.directory));
    out.resize(f.directory + 8 * f.lumps);
    for (size_t k : order) {
        out.resize((out.size() + 3) & ~size_t(3));
        putI32(out, f.directory + 8 * k, int32_t(out.size()));
        putI32(out, f.directory + 4 + 8 * k, int32_t(contents[k].size()));
        out.insert(out.end(), contents[k].begin(), contents[k].end());
    }
    if (!bspx.empty()) {
        out.resize((out.size() + 3) & ~size_t(3));
        const size_t dir = out.size();
        out.resize(dir + 8 + 32 * bspx.size());
        std::memcpy(out.data() + dir, "BSPX", 4);
        putI32(out, dir + 4, int32_t(bspx.size()));
        for (size_t k = 0; k < bspx.size(); ++k) {
            out.resize((out.size() + 3) & ~size_t(3));
            const size_t entry = dir + 8 + 32 * k;
            std::memset(out.data() + entry, 0, 24);
            std::memcpy(out.data() + entry, bspx[k].first.data(), std::min<size_t>(23, bspx[k].first.size()));
            putI32(out, entry + 24, int32_t(out.size()));
            putI32(out, entry + 28, int32_t(bspx[k].second.size()));
            out.insert(out.end(), bspx[k].second.begin(), bspx[k].second.end());
        }
    }
    RelaidOutLightingFiles files;
    files.map = std::move(out);
    if (options.lit) {
        Bytes lit{'Q', 'L', 'I', 'T', 1, 0, 0, 0};
        lit.insert(lit.end(), rgb.begin(), rgb.end());
        files.lit = std::move(lit);
    }
    return files;
}

}  // namespace luxel
