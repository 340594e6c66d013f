#pragma once
// The synthetic map of the stage-feature tests (stage_*_test.cpp): q3_writer's room seen from its centre,
// the east wall carrying the shader under test with texture coordinates set so the centre pixel samples a
// known point, hand-made TGA textures, and the framebuffer rules of the three looks (see
// stage_program_test.cpp):
//  * Engine: light and vertex colours enter the framebuffer shifted by one overbright bit (x 1/2 of luxel's
//    light), identityLight = 1/2, each stage clamped to [0, 1], the display doubles (clamped at 1).
//  * EngineWindowed (r_overBrightBits 0): light as it is (hue clamped at 1), identityLight = 1, no doubling.
//  * Linear: no clamps, identityLight = 1.
// The engine stores each stage's colour and the framebuffer in bytes; luxel does not, so expected values are
// the exact (unquantised) results of the engine's formulas.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "luxel/bsp/decode.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/render/render.hpp"
#include "support/decode_helpers.hpp"
#include "support/q3_writer.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

namespace luxel::test {

using Rgba = std::array<uint8_t, 4>;

// An uncompressed 32-bit TGA of w x h texels given row by row from the top (descriptor 0x28: 8 alpha bits,
// top-left origin), so texel (x, y) is texture coordinate ((x + 0.5) / w, (y + 0.5) / h).
inline Bytes tga(int w, int h, const std::vector<Rgba>& texels) {
    REQUIRE(texels.size() == size_t(w) * size_t(h));
    Bytes t(18, 0);
    t[2] = 2;  // true colour
    t[12] = uint8_t(w), t[13] = uint8_t(w >> 8), t[14] = uint8_t(h), t[15] = uint8_t(h >> 8);
    t[16] = 32, t[17] = 0x28;
    for (const Rgba& c : texels)
        for (uint8_t v : {c[2], c[1], c[0], c[3]}) t.push_back(v);
    return t;
}

inline Bytes tgaSolid(Rgba c) { return tga(1, 1, {c}); }

// 8 x 8 texels in four 4 x 4 quadrants: s < 1/2 and t < 1/2 -> q[0], s >= 1/2, t < 1/2 -> q[1], s < 1/2,
// t >= 1/2 -> q[2], both >= 1/2 -> q[3]. A sample at least half a texel (1/16) inside a quadrant is its colour
// exactly under bilinear filtering, so small offsets of the sample point do not matter.
inline Bytes tgaQuadrants(const std::array<Rgba, 4>& q) {
    std::vector<Rgba> texels;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) texels.push_back(q[size_t((y / 4) * 2 + x / 4)]);
    return tga(8, 8, texels);
}

// The quadrant colours of textures/luxel/quad.tga.
constexpr Rgba kQuadA{200, 30, 30, 255}, kQuadB{30, 200, 30, 255}, kQuadC{30, 30, 200, 255}, kQuadE{200, 200, 30, 255};

inline Vec3 rgb(Rgba c) { return {float(c[0]) / 255.0f, float(c[1]) / 255.0f, float(c[2]) / 255.0f}; }

// The synthetic map: q3_writer's room, camera at its centre looking +X at the east wall (face 3), whose texture
// coordinates are set so the centre pixel (160, 90) samples (st0.x + 1/640, st0.y + 1/320): s = st0.x - y / 512
// (s grows to the right of the picture), t = st0.y + (128 - z) / 256 (t grows downwards).
struct WallSpec {
    std::string script;                              // scripts/luxel.shader
    std::vector<std::pair<std::string, Bytes>> files;  // game-directory files (textures)
    Vec2 st0{0.25f, 0.25f};
    std::array<uint8_t, 3> light{32, 16, 48};  // the east wall's lightmap bytes (light 4 * byte / 255)
    Rgba vertexColor{32, 16, 48, 255};         // the east wall's vertex colours
    // A two-sided quad "textures/luxel/grate" at x = 128 (|y| <= 64, 64 <= z <= 192) in front of the east
    // wall, which then keeps the implicit shader (textures/luxel/wall.tga, white, times its lightmap).
    bool grate = false;
};

// East-wall light of the default WallSpec, linear: 4 * (32, 16, 48) / 255.
inline const Vec3 kWallLight{q3Linear(32), q3Linear(16), q3Linear(48)};

class WallMap {
public:
    WallMap(const WallSpec& spec, float time) {
        // A folder per map: game folders are mounted once per process and their scripts cached.
        static int calls = 0;
        const std::string dir = tempDir("stage-features-" + std::to_string(++calls));
        for (const auto& [path, bytes] : spec.files) writeFile(dir + "/" + path, bytes);
        if (spec.grate) writeFile(dir + "/textures/luxel/wall.tga", tgaSolid({255, 255, 255, 255}));
        writeFile(dir + "/scripts/luxel.shader", Bytes(spec.script.begin(), spec.script.end()));
        RoomOptions room;
        room.wallBytes[3] = spec.light;
        Q3MapBuilder b = makeRoomMap(room);
        const Q3Face east = b.faces.at(3);
        for (int32_t k = 0; k < east.numVertices; ++k) {
            Q3Vertex& v = b.vertices.at(size_t(east.firstVertex + k));
            v.texUV = {spec.st0.x - v.position.y / 512.0f, spec.st0.y + (128.0f - v.position.z) / 256.0f};
            v.color = spec.vertexColor;
        }
        if (spec.grate) {
            const int32_t tex = b.addTexture("textures/luxel/grate");
            const int32_t face = b.addPolygon({{128, 64, 192}, {128, -64, 192}, {128, -64, 64}, {128, 64, 64}},
                                              {-1, 0, 0}, tex, east.lightmap, {{0, 0}, {1, 0}, {1, 1}, {0, 1}});
            // Leaf 0 is the room's inside (its six faces first); the outside leaves list none.
            b.leafFaces.push_back(face);
            b.leaves.at(0).numLeafFaces += 1;
            b.models.at(0).numFaces += 1;
        }
        src_ = memorySource(b.build(), "room.bsp");
        world_ = decodeMap(src_);
        geometry_ = tessellate(world_);
        MaterialOptions mo;
        mo.gameDirs = {dir};
        mo.time = time;
        set_ = loadMaterials(world_, src_, mo);
    }
    const MaterialSet& materials() const { return set_; }
    // The material of the east wall (or of the grate).
    const SurfaceLook& look(const std::string& name = "textures/luxel/wall") const {
        for (size_t i = 0; i < world_.materials.size(); ++i)
            if (world_.materials[i].name == name) return set_.looks.at(i);
        FAIL("no material " << name);
        return set_.looks.at(0);
    }
    Image frame(Look look, int spp = 1) const {
        RenderOptions o;
        o.mode = RenderMode::Lit;
        o.look = look;
        o.spp = spp;
        o.materials = &set_;
        return renderFrame(world_, geometry_, roomCamera({0, 0, 0}), o);
    }
    Vec3 centre(Look look) const { return pixelAt(frame(look), 160, 90); }

private:
    MapSource src_;
    World world_;
    Geometry geometry_;
    MaterialSet set_;
};

inline void checkNear(Vec3 got, Vec3 want, float margin = 1e-4f) {
    CHECK(got.x == Approx(want.x).margin(margin));
    CHECK(got.y == Approx(want.y).margin(margin));
    CHECK(got.z == Approx(want.z).margin(margin));
}

inline float clamp01(float v) { return std::clamp(v, 0.0f, 1.0f); }
inline Vec3 clamp01(Vec3 v) { return {clamp01(v.x), clamp01(v.y), clamp01(v.z)}; }

// What the look shows for a last stage whose unclamped framebuffer result is `fb` (every earlier stage in
// [0, 1]): Engine clamps it and doubles on display (clamped again), EngineWindowed clamps it, Linear keeps it.
inline Vec3 shown(Look look, Vec3 fb) {
    if (look == Look::Linear) return fb;
    const Vec3 c = clamp01(fb);
    return look == Look::Engine ? clamp01(c * 2.0f) : c;
}

inline const char* name(Look look) { return look == Look::Engine ? "engine" : look == Look::EngineWindowed ? "windowed" : "linear"; }

constexpr Look kLooks[] = {Look::Engine, Look::EngineWindowed, Look::Linear};



// One texture stage base.tga B = (100, 50, 20) / 255 with the given rgbGen (a `tcMod scroll 0 0`, which changes
// nothing on a 1x1 texture, makes every variant a program), on the east wall with vertex colour bytes
// (32, 16, 48).
inline Vec3 rgbGenPixel(const std::string& rgbGen, Look look, float time = 0) {
    WallSpec spec;
    spec.files = {{"textures/luxel/base.tga", tgaSolid({100, 50, 20, 255})}};
    spec.script = R"(textures/luxel/wall
{
	{
		map textures/luxel/base.tga
		rgbGen )" + rgbGen + R"(
		tcMod scroll 0 0
	}
}
)";
    const WallMap map(spec, time);
    REQUIRE(map.look().program);
    return map.centre(look);
}

inline const Vec3 kBase = rgb({100, 50, 20, 255});



// The centre pixel of the east wall drawn with quad.tga under `stage` (the lines of one stage after its map),
// linear look: exactly the colour of the quadrant the stage's coordinates land in.
inline Vec3 quadPixel(const std::string& stage, float time, Vec2 st0 = {0.25f, 0.25f}, const char* map = "map",
               bool program = true) {
    WallSpec spec;
    spec.st0 = st0;
    spec.files = {{"textures/luxel/quad.tga", tgaQuadrants({kQuadA, kQuadB, kQuadC, kQuadE})}};
    spec.script = std::string("textures/luxel/wall\n{\n\t{\n\t\t") + map + " textures/luxel/quad.tga\n\t\trgbGen identity\n" +
                  stage + "\n\t}\n}\n";
    const WallMap m(spec, time);
    REQUIRE(bool(m.look().program) == program);
    return m.centre(Look::Linear);
}


}  // namespace luxel::test
