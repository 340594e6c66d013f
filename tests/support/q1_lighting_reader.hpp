#pragma once
// An independent reader of a Quake 1 map's light, for checking the decoder: it parses the BSP's header, faces,
// texinfo, miptex names, vertices, edges and surfedges itself (BSP29, 2PSB, BSP2; none of luxel's decoder code),
// sizes each face's lightmap as the engines do (CalcSurfaceExtents: texture-space extents of its vertices in
// 16-unit luxels, each coordinate computed in double and stored in a float; with a BSPX DECOUPLED_LM lump, the
// size and offset of the face's record there) and reads every face's style-0 luxels from the light the engines
// would show: BSPX RGBLIGHTING when the file has it, else the .lit when one is given, else the grey lighting lump.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace luxel::test {

struct Q1FaceLight {
    uint32_t face = 0;
    std::string texture;  // the miptex name its texinfo uses ("" when none)
    int32_t width = 0, height = 0;
    std::array<uint8_t, 4> styles{};
    int32_t lightOffset = -1;  // the face record's, or its DECOUPLED_LM record's
    std::vector<uint8_t> rgb;  // style-0 luxels, row-major, 3 bytes each (a grey byte three times)
};

struct Q1Lighting {
    std::string variant;  // "BSP29", "2PSB" or "BSP2"
    std::string source;   // "BSPX RGBLIGHTING", ".lit" or "grey"
    bool decoupled = false;  // the blocks are DECOUPLED_LM's
    size_t faces = 0;     // all faces of the file
    // Faces with light: a style in slot 0 and a lighting offset >= 0 (TEX_SPECIAL faces excluded), in face order.
    std::vector<Q1FaceLight> lit;
    // Faces without light that are not TEX_SPECIAL (the engine builds them a block and finds nothing to add).
    std::vector<uint32_t> dark;
};

// Reads `bspPath` and, when `litPath` is not empty and the map has no RGBLIGHTING, the .lit there. Throws
// std::runtime_error on anything it cannot read (a block past its light, a bad .lit header or size).
Q1Lighting readQ1Lighting(const std::string& bspPath, const std::string& litPath = "");

}  // namespace luxel::test
