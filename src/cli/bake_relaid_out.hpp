#pragma once
// `luxel bake` on a Quake 1, Quake 2 or Half-Life map without light (fresh from qbsp and vis) or with --relayout: the
// lightmaps laid out as ericw-tools' light lays them out, every style baked, each face's styles chosen, and
// the map written with its new lighting (bake/relaid_out_styles.hpp, bsp/write_relaid_lighting.hpp).
#include <optional>
#include <string>

#include "bake_bounce.hpp"
#include "common.hpp"

namespace luxel::cli {

struct RelaidOutOutput {
    std::string write, report, output;  // --write, --json, -o
    bool lit = false, bspxLit = false, bspxLux = false;  // --lit, --bspxlit, --bspxlux
    std::optional<int> lmShift{};                        // --lmshift
    std::optional<float> worldUnitsPerLuxel{};           // --world-units-per-luxel
    bool vanilla = true;                                 // not --novanilla
};

// `quake2Compiler`: --compiler (Quake 2), unset: guessed from the entities.
int bakeRelaidOut(const MapArgs& map, const BounceArgs& bounce, const RelaidOutOutput& out,
                  std::optional<Q2LightCompiler> quake2Compiler);

}  // namespace luxel::cli
