// Studio models (src/model): the real props of the shared content and synthetic files with known answers.
#include <catch2/catch.hpp>

#include "luxel/io/map_source.hpp"
#include "luxel/model/studio.hpp"
#include "support/test_paths.hpp"

using namespace luxel;

namespace {

StudioModel loadReal(const std::string& base) {
    const std::string dir = *test::sharedContent() + "/";
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
    LUXEL_REQUIRE_SHARED_CONTENT();
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
