#pragma once
// Test-side writer of minimal studio models (.mdl v48, .vvd v4, .vtx v7) and vrad vertex light (.vhv):
// one body part with one model, its meshes each drawn from one strip group of one triangle-list strip.
#include <cstdint>
#include <string>
#include <vector>

#include "luxel/model/studio.hpp"

namespace luxel::test {

struct SynthStudio {
    uint32_t checksum = 0x12345678;
    std::vector<StudioVertex> vertices;               // every mesh uses all of them
    std::vector<std::vector<uint16_t>> meshTriangles;  // per mesh (skin ref = mesh index)
    std::vector<std::string> textures{"tex"};
    std::vector<std::string> materialDirs{"models/test/"};
    std::vector<std::vector<int16_t>> skins;  // [family][skin ref]; empty: one family, identity
    Vec3 illumPosition;
};

struct SynthFiles {
    Bytes mdl, vvd, vtx;
};
SynthFiles writeStudio(const SynthStudio& model);

// A .vvd holding `stored` vertices with a fix-up table of (lod, source, count) runs.
Bytes writeVvdWithFixups(uint32_t checksum, const std::vector<StudioVertex>& stored, int32_t lod0Count,
                         const std::vector<std::array<int32_t, 3>>& fixups);

// A .vhv with one colour (r, g, b bytes) for every vertex of every strip group of writeStudio's model.
Bytes writeVhv(const SynthStudio& model, uint8_t r, uint8_t g, uint8_t b);

}  // namespace luxel::test
