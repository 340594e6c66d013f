#pragma once
// What `luxel diff` tells: a short summary for people, JSON with every figure, JUnit XML for CI systems
// (one test case per comparison: each light style's lightmaps, the grid / cubes, each view or image).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "luxel/diff/diff.hpp"

namespace luxel {

struct DiffReport {
    std::string a, b;                  // the inputs as given
    std::string kind;                  // "maps", "images" or "folders"
    std::string format;                // maps: the format name ("Quake 3 IBSP 46")
    std::optional<LightmapDiff> lightmaps;
    std::optional<ProbeDiff> probes;
    std::vector<ImageDiff> images;     // rendered views, images, golden images
    std::vector<std::string> onlyInA, onlyInB;  // folders: entries on one side only (a difference: Fail)
    std::vector<DiffReport> entries;   // folders: one report per entry present on both sides
    std::vector<std::string> errors;   // folders: entries that could not be compared, one line each (Fail)
    DiffThresholds luxelThresholds, probeThresholds, imageThresholds;
};

// The worst verdict of every comparison in the report (entries included).
Verdict overallVerdict(const DiffReport& report);
// Exit code: 0 Same or Warn, 1 Fail.
inline int exitCodeOf(Verdict v) { return v == Verdict::Fail ? 1 : 0; }

// A few lines for stdout: what was compared, the verdict, the worst items.
std::string summaryText(const DiffReport& report);
// Every figure, every changed surface / point, the thresholds used.
nlohmann::ordered_json toJson(const DiffReport& report);
// JUnit XML: a <testsuite> per report (entries nested as their own suites), a <testcase> per comparison,
// a <failure> with the figures for each that fails.
std::string junitXml(const DiffReport& report);

}  // namespace luxel
