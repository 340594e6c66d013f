#pragma once
// Pictures of a lightmap change: A's surfaces coloured by how much B differs there, in world space, so a
// change hidden from a camera by geometry still shows on the surface it lies on.
#include <string>
#include <vector>

#include "luxel/diff/diff.hpp"
#include "luxel/render/camera.hpp"

namespace luxel {

struct HeatmapOptions {
    int style = 0;           // which light style's change to show (style slot holding it on each surface)
    double scale = 0;        // display difference shown at full colour; 0: the largest difference found
};

// A copy of A whose style-0 lightmap pages hold the heat colours instead of light: each matched luxel a
// greyscale of A's display value tinted warm (B brighter) or cool (B darker) by the signed change of the
// display channel that changed most, over `scale`; unmatched luxels (geometry only in A) magenta. Drawing it in lightmap mode with the linear
// look gives the heatmap of any view. `usedScale` receives the scale.
World heatWorld(const World& a, const std::vector<LuxelMatch>& matches, const HeatmapOptions& options,
                double* usedScale = nullptr);

// Writes into dir: one PNG per camera (view of A coloured by the change, with a legend), an overview from
// above (`overview.png`, the most changed surfaces outlined), and per style the atlas pages of A with the
// luxel differences (`style_NNN/page_NNNN.png`). Returns the files written.
std::vector<std::string> writeHeatmaps(const World& a, const Geometry& ga, const std::vector<LuxelMatch>& matches,
                                       const LightmapDiff& diff, const std::vector<std::pair<std::string, Camera>>& views,
                                       const std::string& dir, const HeatmapOptions& options = {});

// Quake 3: the light grid's change, one picture per level seen from above (`grid/z_NNN.png`): every point
// of A a square, the dimmed greyscale of A's light (ambient + directed, as displayed) tinted warm or cool
// by B's change there (B resampled at A's points when the grids differ), points inside walls black, a
// legend and the level's height below. Nothing when either build has no grid. Returns the files written.
std::vector<std::string> writeGridSlices(const World& a, const World& b, const std::string& dir,
                                         const HeatmapOptions& options = {});

}  // namespace luxel
