#pragma once
// `luxel diff`: two builds of a map (or two images, or two folders) compared where the light lies, not
// where the compiler packed it. Lightmaps are compared in world space (every luxel centre of A located on
// B's surface through the same point and plane, and back), the light grid / ambient cubes point by point,
// rendered views and images with OpenImageIO's comparison. Knows no file format: everything comes from
// World / Geometry. Thresholds and exit codes follow idiff (0 same, 1 over --fail, 2 error).
#include <cstddef>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/geometry/geometry.hpp"
#include "luxel/image/image.hpp"
#include "luxel/light/light_grid.hpp"

namespace luxel {

// idiff's thresholds, for values in display units (0..1 = one display byte range): a value differs by
// the largest absolute difference of its channels. It *fails* when over `fail`; the comparison fails when
// more than `failPercent` percent of its values fail, or any is over `hardFail`; values over `warn` (but
// not failing the comparison) make a warning.
struct DiffThresholds {
    double fail = 1e-6;
    double warn = 1e-6;
    double failPercent = 0;
    double hardFail = std::numeric_limits<double>::infinity();
};

// Statistics of one set of compared values (luxels, grid points, pixels). Linear: in linear light;
// Display: in display values 0..1 after the map's engine look (what the game shows), so PSNR and the
// threshold counts read like an image comparison's.
struct DiffStats {
    size_t count = 0;  // values compared
    double meanAbsLinear = 0, rmsLinear = 0, maxAbsLinear = 0;
    double meanAbsDisplay = 0, rmsDisplay = 0, maxAbsDisplay = 0;
    double psnrDisplay = std::numeric_limits<double>::infinity();  // 20 log10(1 / rmsDisplay); inf when equal
    size_t overWarn = 0, overFail = 0, overHardFail = 0;           // by the largest channel difference (display)
    double percentOverFail() const { return count ? 100.0 * double(overFail) / double(count) : 0.0; }
};

// Accumulates DiffStats one value at a time (a then b, 3 channels each); finish() computes the means.
struct DiffAccumulator {
    DiffThresholds thresholds;
    DiffStats stats;
    double sumAbsLinear = 0, sumSqLinear = 0, sumAbsDisplay = 0, sumSqDisplay = 0;
    void add(Vec3 aLinear, Vec3 bLinear, Vec3 aDisplay, Vec3 bDisplay);
    void merge(const DiffAccumulator& other);
    DiffStats finish() const;
};

enum class Verdict { Same, Warn, Fail };
Verdict verdictOf(const DiffStats& stats, const DiffThresholds& thresholds);
const char* verdictName(Verdict v);  // "same", "warn", "fail"

// --- Lightmaps -------------------------------------------------------------------------------------------

struct SurfaceDiff {
    uint32_t surface = 0;         // in the build it belongs to (A for changes)
    std::string material;
    Vec3 mins, maxs, centroid;    // world bounds and centroid of its luxel centres
    double area = 0;              // world area of its lit triangles
    size_t luxels = 0;            // luxel centres on it
    size_t unmatched = 0;         // of those, without a matching surface in the other build
    DiffStats stats;              // over its matched luxels
};

struct StyleDiff {
    int style = 0;                // light style number (0 = the always-on light)
    DiffStats stats;              // every luxel of A matched on B (B's light bilinear at A's luxel centre)
    Verdict verdict = Verdict::Same;
    // Every surface of A with a luxel over `warn`, most changed first (by maxAbsDisplay, then rmsDisplay).
    std::vector<SurfaceDiff> changed;
};

// Light directions of deluxe maps (Quake 3 -deluxe) compared at the matched luxels of A. Only where both
// builds' style-0 light there is at least 1% of A's mean luxel luminance: in the dark the compiler's
// direction is noise. Reported; decides no verdict (as the grid's directions).
struct DirectionDiff {
    size_t count = 0;             // luxels measured
    double medianDeg = 0, maxDeg = 0, meanDeg = 0;
    size_t over10Deg = 0;         // luxels whose direction turned by more than 10 degrees
};

struct LightmapDiff {
    size_t luxelsA = 0, luxelsB = 0;      // luxel centres on lit surfaces (style slot 0)
    // Luxel centres left out because the matching does not find them on their own surface in their own
    // build (a degenerate patch or UV triangle): they could not be matched in any build.
    size_t unlocatedA = 0, unlocatedB = 0;
    size_t matchedA = 0, matchedB = 0;    // of those, located on the other build's surfaces
    std::vector<StyleDiff> styles;        // every style either build uses, ascending
    // Lit surfaces whose luxels mostly (over half) have no counterpart: added, removed or moved geometry,
    // reported as geometry, not as lighting changes.
    std::vector<SurfaceDiff> onlyInA, onlyInB;
    std::optional<DirectionDiff> deluxe;  // both builds store deluxe maps
    bool sameGeometry = false;            // the builds' lit geometry is identical (one ray pass served both)
    double ms = 0;
};

// Where one luxel of A landed, for heatmaps: A's surface, page and texel, and B's value there per style
// slot of A's surface (NaN when unmatched).
struct LuxelMatch {
    uint32_t surface = 0;
    int32_t page = -1, x = 0, y = 0;
    Vec3 position, normal;
    bool matched = false;
    std::array<Vec3, 4> a{}, b{};  // linear light per style slot of A's surface (unused slots zero)
};

struct LightmapDiffOptions {
    DiffThresholds thresholds;
    float planeTolerance = 1.0f;   // a luxel matches a surface within this distance of its plane (units)
    float normalTolerance = 0.95f; // and with normals at least this aligned (cosine)
    // Builds with the same lit geometry share one ray pass (same results; off only to test that they are).
    bool reuseSameGeometry = true;
};

// Compares the lightmaps of two builds in world space. `matches` (optional) receives every luxel of A.
LightmapDiff diffLightmaps(const World& a, const Geometry& ga, const World& b, const Geometry& gb,
                           const LightmapDiffOptions& options, std::vector<LuxelMatch>* matches = nullptr);

// --- Light grid / ambient cubes ---------------------------------------------------------------------------

struct ProbePointDiff {
    size_t index = 0;             // A's probe index
    Vec3 position;
    double maxAbsDisplay = 0;     // largest channel difference over ambient, directed / cube sides
    double directionDeg = 0;      // Quake 3 grid: angle between the light directions
};

struct ProbeDiff {
    ProbeKind kind = ProbeKind::None;
    bool pointwise = false;       // same points in both builds, in the same order
    // Points of A compared with a stored point of B: the grid when pointwise; a cube sample with B's sample in
    // a leaf of the same bounds at the same position (leaf numbers may differ). The rest: B resampled there.
    size_t matchedPoints = 0;
    size_t pointsA = 0, pointsB = 0;
    DiffStats ambient;            // grid ambient / every cube side
    DiffStats directed;           // grid directed (cubes: unused)
    double medianDirectionDeg = 0, maxDirectionDeg = 0;  // grid, over points whose directed light is not dark
    Verdict verdict = Verdict::Same;
    std::vector<ProbePointDiff> worst;  // most changed points first (at most 20)
    // Points whose values differ at all, and of those the ones inside solid (no cluster in A). q3map2 moves
    // a grid point that lies in solid to a nearby open point with a random sequence shared by its threads, so
    // with -threads > 1 such points differ from run to run: changes only there are the compiler's noise.
    size_t changed = 0, changedInSolid = 0;
};

// Compares the probes of two builds. Throws UsageError when the kinds differ.
ProbeDiff diffProbes(const World& a, const World& b, const DiffThresholds& thresholds);

// --- Images -----------------------------------------------------------------------------------------------

struct ImageDiff {
    std::string name;             // view name or relative path
    std::string a, b;             // files compared (or what was rendered)
    int width = 0, height = 0;
    DiffStats stats;              // display values (the images' own), from ImageBufAlgo::compare
    Verdict verdict = Verdict::Same;
    std::string error;            // non-empty: could not compare (size mismatch, unreadable)
};

// Compares two image files with OpenImageIO (ImageBufAlgo::compare). A size or channel mismatch, or an
// unreadable file, is an ImageDiff with `error` set and verdict Fail.
ImageDiff diffImageFiles(const std::string& a, const std::string& b, const DiffThresholds& thresholds);
// The same for two frames in memory (display values, e.g. renders in the engine look).
ImageDiff diffImages(const Image& a, const Image& b, const std::string& name, const DiffThresholds& thresholds);

}  // namespace luxel
