// Studio models (src/model): the real props of the shared content and synthetic files with known answers.
#include <catch2/catch.hpp>

#include <filesystem>

#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "luxel/model/studio.hpp"
#include "support/allocation_probe.hpp"
#include "support/studio_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;

namespace {

StudioModel loadReal(const std::string& base) {
    const std::string dir = *test::sharedSourceContent() + "/";
    const MdlInfo mdl = readMdl(readFile(dir + base + ".mdl"), base + ".mdl");
    const VvdInfo vvd = readVvd(readFile(dir + base + ".vvd"), base + ".vvd");
    const VtxInfo vtx = readVtx(readFile(dir + base + ".dx90.vtx"), base + ".dx90.vtx");
    return buildStudioModel(base, mdl, vvd, vtx);
}

size_t triangleCount(const StudioModel& m) {
    size_t n = 0;
    for (const StudioMesh& mesh : m.meshes) n += mesh.indices.size() / 3;
    return n;
}

}  // namespace

TEST_CASE("studio: the shared content's models as its README states", "[model][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    struct Case {
        const char* base;
        int version;
        uint32_t checksum;
        size_t vertices;
    };
    for (const Case& c : {Case{"momentum_background_01/models/props_japan/sakura_tree01b", 48, 0x402d26a8u, 959},
                          Case{"momentum_background_01/models/props_foliage/cattails", 44, 0x6dde5230u, 72}}) {
        CAPTURE(c.base);
        const StudioModel m = loadReal(c.base);
        CHECK(m.mdl.version == c.version);
        CHECK(m.mdl.checksum == c.checksum);
        CHECK(m.vertices.size() == c.vertices);
        CHECK(triangleCount(m) > 0);
        for (const StudioMesh& mesh : m.meshes)
            for (uint32_t i : mesh.indices) REQUIRE(i < m.vertices.size());
        // The engine draws model triangles with the world's winding: cross(b - a, c - a) points away from
        // the front, against the vertex normals, on nearly every triangle.
        size_t agree = 0;
        for (const StudioMesh& mesh : m.meshes)
            for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
                const StudioVertex &a = m.vertices[mesh.indices[t]], &b = m.vertices[mesh.indices[t + 1]],
                                   &d = m.vertices[mesh.indices[t + 2]];
                agree += dot(cross(b.position - a.position, d.position - a.position), a.normal + b.normal + d.normal) < 0;
            }
        CHECK(agree >= triangleCount(m) * 9 / 10);
        for (const StudioVertex& v : m.vertices) {
            REQUIRE(isFinite(v.position));
            REQUIRE(std::abs(length(v.normal) - 1.0f) < 0.01f);
        }
    }
    const StudioModel tree = loadReal("momentum_background_01/models/props_japan/sakura_tree01b");
    REQUIRE(tree.mdl.materialDirs.size() == 1);
    CHECK(tree.mdl.materialDirs[0] == "models/props_japan/");
    const auto has = [&](const std::string& t) {
        return std::find(tree.mdl.textures.begin(), tree.mdl.textures.end(), t) != tree.mdl.textures.end();
    };
    CHECK(has("sakura_trunk01"));
    CHECK(has("sakura_branch01b"));
    CHECK(has("sakura_branch02c"));
}

namespace {

test::SynthStudio quad() {
    test::SynthStudio m;
    m.vertices = {{{0, 0, 0}, {0, 0, 1}, {0, 0}}, {{1, 0, 0}, {0, 0, 1}, {1, 0}}, {{1, 1, 0}, {0, 0, 1}, {1, 1}},
                  {{0, 1, 0}, {0, 0, 1}, {0, 1}}};
    m.meshTriangles = {{0, 2, 1}, {0, 3, 2}};
    m.textures = {"red", "blue"};
    m.materialDirs = {"models/a/", "models/b/"};
    m.skins = {{0, 0}, {1, 0}};
    return m;
}

StudioModel build(const test::SynthFiles& f) {
    return buildStudioModel("quad.mdl", readMdl(f.mdl, "quad.mdl"), readVvd(f.vvd, "quad.vvd"), readVtx(f.vtx, "quad.vtx"));
}

}  // namespace

TEST_CASE("studio: a synthetic model's meshes, triangles and skins", "[model]") {
    const test::SynthStudio synth = quad();
    const StudioModel m = build(test::writeStudio(synth));
    CHECK(m.mdl.version == 48);
    REQUIRE(m.vertices.size() == 4);
    CHECK(m.vertices[2].position == Vec3{1, 1, 0});
    CHECK(m.vertices[3].uv.y == 1.0f);
    REQUIRE(m.meshes.size() == 2);
    CHECK(m.meshes[0].indices == std::vector<uint32_t>{0, 2, 1});
    CHECK(m.meshes[1].indices == std::vector<uint32_t>{0, 3, 2});
    CHECK(m.groupVertexCounts == std::vector<uint32_t>{4, 4});
    // Skin families pick textures per skin ref; a family past the table falls back to family 0; the first
    // material folder holding the .vmt wins, else the first folder names it.
    auto only = [](const std::string& path) { return [path](const std::string& p) { return p == path; }; };
    const auto none = [](const std::string&) { return false; };
    CHECK(studioMaterial(m.mdl, 0, 0, none) == "models/a/red");
    CHECK(studioMaterial(m.mdl, 1, 0, none) == "models/a/blue");
    CHECK(studioMaterial(m.mdl, 1, 1, none) == "models/a/red");
    CHECK(studioMaterial(m.mdl, 7, 0, none) == "models/a/red");
    CHECK(studioMaterial(m.mdl, 1, 0, only("materials/models/b/blue.vmt")) == "models/b/blue");
}

TEST_CASE("studio: vertex fix-ups rebuild LOD 0", "[model]") {
    std::vector<StudioVertex> stored(5);
    for (size_t i = 0; i < stored.size(); ++i) stored[i].position = {float(i), 0, 0};
    // Runs of LOD >= 0 all belong to LOD 0, in table order.
    const VvdInfo v = readVvd(test::writeVvdWithFixups(1, stored, 4, {{0, 3, 2}, {1, 0, 1}, {0, 1, 1}}), "f.vvd");
    REQUIRE(v.vertices.size() == 4);
    CHECK(v.vertices[0].position.x == 3.0f);
    CHECK(v.vertices[1].position.x == 4.0f);
    CHECK(v.vertices[2].position.x == 0.0f);
    CHECK(v.vertices[3].position.x == 1.0f);
    // Runs past the stored vertices, or giving another count than LOD 0's, are errors.
    CHECK_THROWS_AS(readVvd(test::writeVvdWithFixups(1, stored, 4, {{0, 4, 2}}), "f.vvd"), DecodeError);
    CHECK_THROWS_AS(readVvd(test::writeVvdWithFixups(1, stored, 5, {{0, 0, 2}}), "f.vvd"), DecodeError);
}

TEST_CASE("studio: truncated, corrupt and mismatched files are decode errors", "[model]") {
    const test::SynthFiles f = test::writeStudio(quad());
    // Every cut of each file: a DecodeError (or, for cuts past what is read, the model itself).
    for (size_t n = 0; n < f.mdl.size(); ++n) {
        const Bytes cut(f.mdl.begin(), f.mdl.begin() + std::ptrdiff_t(n));
        try { (void)readMdl(cut, "cut.mdl"); } catch (const DecodeError&) {}
    }
    for (size_t n = 0; n < f.vtx.size(); ++n) {
        const Bytes cut(f.vtx.begin(), f.vtx.begin() + std::ptrdiff_t(n));
        CHECK_THROWS_AS(readVtx(cut, "cut.vtx"), DecodeError);
    }
    for (size_t n = 0; n < f.vvd.size(); ++n) {
        const Bytes cut(f.vvd.begin(), f.vvd.begin() + std::ptrdiff_t(n));
        CHECK_THROWS_AS(readVvd(cut, "cut.vvd"), DecodeError);
    }
    // A strip index past its strip group's vertices.
    test::SynthStudio bad = quad();
    bad.meshTriangles[1] = {0, 3, 9};
    CHECK_THROWS_AS(readVtx(test::writeStudio(bad).vtx, "bad.vtx"), DecodeError);
    // Files of different builds.
    test::SynthStudio other = quad();
    other.checksum = 99;
    const test::SynthFiles g = test::writeStudio(other);
    CHECK_THROWS_AS(buildStudioModel("m", readMdl(f.mdl, "m"), readVvd(g.vvd, "v"), readVtx(f.vtx, "x")), DecodeError);
    // A huge texture count.
    Bytes huge = f.mdl;
    huge[204] = 0xff, huge[205] = 0xff, huge[206] = 0xff, huge[207] = 0x0f;
    CHECK_THROWS_AS(readMdl(huge, "huge.mdl"), DecodeError);
    // A huge skin family count over zero skin refs (a fuzzer find: 1.2 G empty families were allocated):
    // the table is empty, so the model reads with no skins and its materials fall back to the texture list.
    Bytes families = f.mdl;
    for (size_t i = 220; i < 224; ++i) families[i] = 0;                // numskinref
    families[224] = 0, families[225] = 0, families[226] = 0, families[227] = 0x4a;  // numskinfamilies
    const MdlInfo noSkins = readMdl(families, "families.mdl");
    CHECK(noSkins.skins.empty());
    CHECK(noSkins.textures == readMdl(f.mdl, "m").textures);
    // The mirror case (a fuzzer find too): a huge skin ref count over zero families. The table is as empty, and
    // nothing as large as the refs claim (838,860,800 x 2 bytes) may be allocated for it.
    Bytes refs = f.mdl;
    refs[220] = 0x00, refs[221] = 0x00, refs[222] = 0x00, refs[223] = 0x32;  // numskinref 838,860,800
    for (size_t i = 224; i < 228; ++i) refs[i] = 0;                           // numskinfamilies 0
    MdlInfo noFamilies;
    const size_t largest = test::largestAllocationDuring([&] { noFamilies = readMdl(refs, "refs.mdl"); });
    CHECK(largest < refs.size() * 64);
    CHECK(noFamilies.skins.empty());
}

TEST_CASE("studio: ../shared/fuzz-findings' studio model reads without its 1.6 GB allocation", "[model][maps]") {
    const std::filesystem::path file = std::filesystem::path(LUXEL_SHARED_MAPS).parent_path() / "fuzz-findings" /
                                       "mdl-skin-table-oom.mdl";
    if (!std::filesystem::exists(file)) {
        WARN("SKIPPED: " << file.string() << " not found (../shared beside the checkout)");
        return;
    }
    const std::string text = test::readFileText(file);
    const Bytes bytes(text.begin(), text.end());
    REQUIRE(bytes.size() == 399);
    // Whatever it reads as (a model without skins, or a DecodeError), nothing it allocates may be near the
    // 1,677,721,600 bytes its skin table's counts once asked for.
    const size_t largest = test::largestAllocationDuring([&] {
        try {
            (void)readMdl(bytes, file.string());
        } catch (const DecodeError&) {
        }
    });
    CHECK(largest < (size_t(1) << 20));
}

TEST_CASE("studio: the MIT-licensed v49 table resolves its material like the engine", "[model][maps]") {
    LUXEL_REQUIRE_SOURCE_CONTENT();
    const std::string game = "plumber_core/fs_test_filesystem/game/";
    const StudioModel table = loadReal(game + "models/props/de_test/table");
    CHECK(table.mdl.version == 49);
    CHECK(triangleCount(table) > 0);
    for (const StudioMesh& mesh : table.meshes)
        for (uint32_t i : mesh.indices) REQUIRE(i < table.vertices.size());
    const std::string dir = *test::sharedSourceContent() + "/" + game;
    const auto exists = [&](const std::string& path) { return std::filesystem::exists(dir + path); };
    CHECK(studioMaterial(table.mdl, 0, table.meshes.at(0).skinRef, exists) == "props/de_test/table");
}
