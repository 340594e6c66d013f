#pragma once
// An independent reader of a Quake 2 map's lighting lump, for checking the baker: it parses the BSP's faces,
// texinfo and edges itself (none of luxel's decoder), sizes each face's lightmap the way the game does
// (texture-space extents of its vertices in 16-unit luxels) and reads the style-0 luxels at the face's lightofs.
#include <cstdint>
#include <string>
#include <vector>

namespace luxel::test {

struct Q2LightingLuxels {
    // Style-0 luxels of every lit face, in face order: RGB bytes, three per luxel.
    std::vector<uint8_t> rgb;
    size_t faces = 0;  // faces with a style-0 lightmap
};

// Reads `path` (a Quake 2 IBSP v38 file). Throws std::runtime_error on anything it cannot read.
Q2LightingLuxels readQ2Lighting(const std::string& path);

struct Q2LightingComparison {
    size_t luxels = 0, lit = 0;              // all luxels; those counted in the median (reference lit)
    double medianRelative = 0;               // median |baked - stored| / stored luma over lit luxels
    double meanReference = 0, meanBaked = 0; // mean luma (0..255) over all luxels
};

// Luma 0.2126 R + 0.7152 G + 0.0722 B per luxel; a luxel counts as lit when the reference's luma is at least 1% of
// the reference's mean luma and above 0. The two files must hold the same faces and lightmap sizes.
Q2LightingComparison compareQ2Lighting(const Q2LightingLuxels& reference, const Q2LightingLuxels& baked);

}  // namespace luxel::test
