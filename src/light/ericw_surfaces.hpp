#pragma once
// What ericw-tools' light knows about each face beyond its texture: from qbsp's NAME.texinfo.json beside the
// map and the brush entities' keys, which faces cast shadows and which are phong-smoothed (their vertex
// normals, as phong.cc CalculateVertexNormals computes them).
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"

namespace luxel {

struct EricwSurfaces {
    std::vector<bool> castsNoShadow;                 // per surface
    std::vector<std::vector<Vec3>> phongNormals;     // per surface: one unit normal a vertex, or empty (flat)
    std::vector<std::vector<uint32_t>> phongSmoothed;  // per surface: the surfaces it smooths with (FacesSmoothed)
    // Per surface: phong asked for (a phong angle above 0), curved or not: light's lightsurf->curved, which
    // turns off its culls of lights behind the face's plane.
    std::vector<bool> curved;
    // Per surface: its own minlight in the game's units (Lightsurf_Init: the brush entity's _minlight, else the
    // texinfo's "minlight"; < 0: none, the worldspawn's applies) and colour (0..255).
    std::vector<float> minlight;
    std::vector<Vec3> minlightColor;
};

// Throws UsageError for a texinfo.json that is not a JSON object. Notes what it read into `notes`.
EricwSurfaces ericwSurfaces(const World& world, const MapSource& source, std::vector<std::string>& notes);

}  // namespace luxel
