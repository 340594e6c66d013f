#pragma once
// qbsp's NAME.texinfo.json beside a map (ericw-tools' extended texinfo flags), which its light reads: per
// texinfo index, which faces cast no shadow, their phong angles, minlight and luxel size.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "luxel/io/map_source.hpp"
#include "luxel/util/math.hpp"

namespace luxel {

struct ExtendedTexinfo {
    bool noShadow = false;
    float phongAngle = 0, phongAngleConcave = 0;  // degrees, 0..180
    float minlight = -1;                           // < 0: none
    std::optional<Vec3> minlightColor;             // 0..255
    // Its own world units a luxel, in place of light -world_units_per_luxel's (used only with that option).
    std::optional<float> worldUnitsPerLuxel;
};

struct TexinfoJson {
    std::string name;  // NAME.texinfo.json; empty when the map has none beside it
    std::map<uint32_t, ExtendedTexinfo> texinfos;  // entries naming a texinfo below `numTexinfo`
};

// Reads the file beside `source` when there is one. Throws UsageError when it is not a JSON object; values of the
// wrong type or out of range are skipped or clamped, as light's own reading tolerates them.
TexinfoJson readTexinfoJson(const MapSource& source, size_t numTexinfo);

}  // namespace luxel
