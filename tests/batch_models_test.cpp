// `luxel batch` decodes a studio model once for every map that places it (model/studio_cache.hpp), and draws
// each map as `luxel render` draws it alone.
#include <catch2/catch.hpp>

#include <cstring>

#include "luxel/bsp/decode.hpp"
#include "luxel/image/image.hpp"
#include "luxel/model/studio_cache.hpp"
#include "luxel/util/error.hpp"
#include "support/batch_fixtures.hpp"
#include "support/decode_helpers.hpp"
#include "support/studio_writer.hpp"
#include "support/vbsp_writer.hpp"

using namespace luxel;
using namespace luxel::test;

namespace {

// An 80-unit triangle standing in the model's y-z plane, facing -x.
SynthStudio bigTriangle() {
    SynthStudio m;
    m.vertices = {{{0, -40, 0}, {-1, 0, 0}, {0, 1}}, {{0, 40, 0}, {-1, 0, 0}, {1, 1}}, {{0, 0, 80}, {-1, 0, 0}, {0.5f, 0}}};
    m.meshTriangles = {{0, 1, 2}};  // clockwise seen from -x: its front
    return m;
}

void writeModel(const std::string& dir, const SynthStudio& model) {
    const SynthFiles f = writeStudio(model);
    writeFile(dir + "/models/test/tri.mdl", f.mdl);
    writeFile(dir + "/models/test/tri.vvd", f.vvd);
    writeFile(dir + "/models/test/tri.dx90.vtx", f.vtx);
}

// The shared content map with its props replaced by one prop of models/test/tri.mdl at `origin`, listed by
// the leaves that list the map's own first prop (the tree), turned by yaw 270 so the triangle faces +y, no
// baked vertex light (sprp version 10, Source 2013's 72-byte records).
Bytes mapWithProp(const std::string& bsp, Vec3 origin) {
    const World world = decodeMap(openMapPath(bsp));
    const StaticProp& tree = world.staticProps.at(0);
    Bytes b;
    auto raw = [&](const void* p, size_t n) { b.insert(b.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n); };
    auto i32 = [&](int32_t v) { raw(&v, 4); };
    auto u16 = [&](uint16_t v) { raw(&v, 2); };
    auto f32 = [&](float v) { raw(&v, 4); };
    i32(1);
    char name[128] = "models/test/tri.mdl";
    raw(name, sizeof name);
    i32(int32_t(tree.numLeaves));
    for (uint32_t k = 0; k < tree.numLeaves; ++k) u16(uint16_t(world.staticPropLeaves.at(tree.firstLeaf + k)));
    i32(1);
    const size_t first = b.size();
    for (float v : {origin.x, origin.y, origin.z, 0.0f, 270.0f, 0.0f}) f32(v);
    u16(0), u16(0), u16(uint16_t(tree.numLeaves));
    b.push_back(0), b.push_back(0x40);  // solid; STATIC_PROP_NO_PER_VERTEX_LIGHTING
    b.resize(first + 72, 0);
    VbspFile map = readVbsp(readFile(bsp));
    map.gameLumps = {{0x73707270u, 0, 10, b}};
    return writeVbsp(map);
}

bool samePixels(const Image& a, const Image& b) {
    return a.width == b.width && a.height == b.height && a.channels == b.channels && a.pixels == b.pixels;
}

}  // namespace

TEST_CASE("batch: two maps placing one model decode it once and draw as each map alone", "[batch][cli][props][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const std::string content = *sharedSourceContent() + "/momentum_background_01";
    const std::string d = tempDir("batch-models"), game = d + "/game", maps = d + "/maps", out = d + "/out";
    writeModel(game, bigTriangle());
    const std::string bsp = content + "/maps/background_01.bsp";
    writeFile(maps + "/a.bsp", mapWithProp(bsp, {-32, -200, 97}));
    writeFile(maps + "/b.bsp", mapWithProp(bsp, {-60, -200, 97}));
    // From the north, looking south at the tree's place (as props_test.cpp looks at the tree).
    const std::string view = " --mode lit --size 96x64 --pos -60 60 170 --angles 12 -90 0 --fov 60 ";
    const std::string games = " --game-dir " + q(game) + " --game-dir " + q(content);

    const auto r = runLuxel("batch " + q(maps) + " -o " + q(out) + games + view + " -q --jobs 2");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const nlohmann::json m = readJson(out + "/manifest.json");
    CHECK(m["summary"]["ok"] == 2);
    const nlohmann::json& cache = m["timings"]["model_cache"];
    CHECK(cache["lookups"] == 2);
    CHECK(cache["decodes"] == 1);
    CHECK(cache["hits"] == 1);

    for (const char* name : {"a", "b"}) {
        INFO(name);
        const std::string alone = d + "/" + name + ".png", bare = d + "/" + name + "-no-props.png";
        REQUIRE(runLuxel("render " + q(maps + "/" + name + ".bsp") + " -o " + q(alone) + games + view).exitCode == 0);
        REQUIRE(runLuxel("render " + q(maps + "/" + name + ".bsp") + " -o " + q(bare) + games + view + " --no-props").exitCode == 0);
        const Image batch = readImage(out + "/" + name + "/thumb.png");
        CHECK(samePixels(batch, readImage(alone)));
        CHECK_FALSE(samePixels(batch, readImage(bare)));  // the prop is in the picture
    }
}

TEST_CASE("studio model cache: one decode per file identity; two folders' files with one name are two models", "[props]") {
    SynthStudio model = bigTriangle();
    const std::string a = tempDir("model-cache-a"), b = tempDir("model-cache-b");
    writeModel(a, model);
    model.vertices[2].position.z = 160;  // another model under the same name in the second folder
    writeModel(b, model);
    GameFiles fa, fa2, fb;
    fa.addDirectory(a);
    fa2.addDirectory(a);
    fb.addDirectory(b);
    const StudioModelCacheStats before = studioModelCacheStats();
    const auto m1 = loadStudioModelShared(fa, "models/test/tri.mdl");
    const auto m2 = loadStudioModelShared(fa2, "Models\\Test\\TRI.mdl");  // another mount of the same folder
    const auto m3 = loadStudioModelShared(fb, "models/test/tri.mdl");
    const StudioModelCacheStats after = studioModelCacheStats();
    CHECK(after.decodes - before.decodes == 2);
    CHECK(after.hits - before.hits == 1);
    CHECK(m1 == m2);
    REQUIRE(m3 != m1);
    CHECK(m1->vertices[2].position.z == 80);
    CHECK(m3->vertices[2].position.z == 160);
    // A broken model is cached as its error: the same message again, without decoding.
    const std::string c = tempDir("model-cache-broken");
    writeModel(c, bigTriangle());
    writeFile(c + "/models/test/tri.vvd", Bytes(16, 0));
    GameFiles fc;
    fc.addDirectory(c);
    std::string first, second;
    try { (void)loadStudioModelShared(fc, "models/test/tri.mdl"); } catch (const DecodeError& e) { first = e.what(); }
    try { (void)loadStudioModelShared(fc, "models/test/tri.mdl"); } catch (const DecodeError& e) { second = e.what(); }
    CHECK_FALSE(first.empty());
    CHECK(first == second);
    CHECK(studioModelCacheStats().decodes - after.decodes == 1);
}

TEST_CASE("batch: models not found are one warning in the manifest, with the hint when no game folder was given",
          "[batch][cli][props][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const std::string content = *sharedSourceContent() + "/momentum_background_01";
    const std::string d = tempDir("batch-models-missing");
    // The content README's props: the tree (one prop) and the cattails (two), found only in the content folder.
    const std::string view = " --mode lit --size 32x18 --camera spawn -q ";
    auto warnings = [&](const std::string& out, const std::string& games) {
        const auto r = runLuxel("batch " + q(content + "/maps/background_01.bsp") + " -o " + q(out) + games + view);
        INFO(r.err);
        REQUIRE(r.exitCode == 0);
        return readJson(out + "/manifest.json")["maps"].at(0)["warnings"].get<std::vector<std::string>>();
    };
    const std::vector<std::string> bare = warnings(d + "/bare", "");
    REQUIRE_FALSE(bare.empty());
    CHECK(bare[0] == "2 static prop models not found, 3 props not drawn: models/props_foliage/cattails.mdl, "
                     "models/props_japan/sakura_tree01b.mdl (no game directory searched: add --game-dir DIR)");
    for (const std::string& w : warnings(d + "/found", " --game-dir " + q(content))) CHECK(w.find("prop") == std::string::npos);
}
