// What `luxel diff` tells: the overall verdict, a summary for people, JSON with every figure and JUnit XML.
// Display differences are stored in 0..1 and shown to people as display bytes ("/255"); JSON keeps 0..1.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "luxel/diff/report.hpp"
#include "luxel/light/light_grid.hpp"

namespace luxel {
namespace {

Verdict worse(Verdict a, Verdict b) { return int(b) > int(a) ? b : a; }

std::string upper(Verdict v) {
    std::string s = verdictName(v);
    for (char& c : s) c = char(c - 'a' + 'A');
    return s;
}

// --- Text sanitizing --------------------------------------------------------------------------------------

// Appends the code point `cp` as UTF-8.
void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

constexpr uint32_t kReplacement = 0xFFFD;

// Decodes `s` as UTF-8, calling `emit(codepoint)` for each character; a byte that does not start a valid,
// shortest-form sequence (or a surrogate) is one U+FFFD. Names come from files: any bytes at all.
template <class Emit>
void decodeUtf8(std::string_view s, Emit&& emit) {
    size_t i = 0;
    while (i < s.size()) {
        const auto b0 = uint8_t(s[i]);
        size_t len = 0;
        uint32_t cp = 0, min = 0;
        if (b0 < 0x80) {
            emit(uint32_t(b0));
            ++i;
            continue;
        } else if ((b0 & 0xE0) == 0xC0) {
            len = 2, cp = b0 & 0x1F, min = 0x80;
        } else if ((b0 & 0xF0) == 0xE0) {
            len = 3, cp = b0 & 0x0F, min = 0x800;
        } else if ((b0 & 0xF8) == 0xF0) {
            len = 4, cp = b0 & 0x07, min = 0x10000;
        }
        bool ok = len != 0 && i + len <= s.size();
        for (size_t k = 1; ok && k < len; ++k) {
            const auto b = uint8_t(s[i + k]);
            if ((b & 0xC0) != 0x80) ok = false;
            else cp = (cp << 6) | (b & 0x3F);
        }
        if (ok && (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
        if (ok) {
            emit(cp);
            i += len;
        } else {
            emit(kReplacement);
            ++i;
        }
    }
}

// Valid UTF-8 (nlohmann's dump() throws on anything else).
std::string utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    decodeUtf8(s, [&](uint32_t cp) { appendUtf8(out, cp); });
    return out;
}

bool isControl(uint32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// For the summary: control characters (a terminal's escape sequences, line breaks) become '?'.
std::string printable(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    decodeUtf8(s, [&](uint32_t cp) { appendUtf8(out, isControl(cp) ? uint32_t('?') : cp); });
    return out;
}

// XML text or attribute value: the five special characters escaped, control characters (and characters
// XML 1.0 forbids) removed; in attributes, line breaks and tabs as character references so they survive
// attribute normalisation.
std::string xmlEscape(std::string_view s, bool attribute) {
    std::string out;
    out.reserve(s.size() + 16);
    decodeUtf8(s, [&](uint32_t cp) {
        switch (cp) {
            case '&': out += "&amp;"; return;
            case '<': out += "&lt;"; return;
            case '>': out += "&gt;"; return;
            case '"': out += "&quot;"; return;
            case '\'': out += "&apos;"; return;
            case '\n': out += attribute ? "&#10;" : "\n"; return;
            case '\t': out += attribute ? "&#9;" : "\t"; return;
            case '\r': return;
            default: break;
        }
        if (isControl(cp) || cp == 0xFFFE || cp == 0xFFFF) return;
        appendUtf8(out, cp);
    });
    return out;
}

// --- Numbers for people -------------------------------------------------------------------------------------

// 1234567 -> "1,234,567".
std::string grouped(size_t n) {
    std::string digits = fmt::format("{}", n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// A display difference (0..1) in display bytes: "184", "0.3", "0.0026".
std::string bytes(double v) {
    if (std::isinf(v)) return "inf";
    if (std::isnan(v)) return "nan";
    const double b = v * 255.0;
    if (b == 0) return "0";
    if (std::fabs(b - std::round(b)) < 1e-6 && std::fabs(b) >= 1) return fmt::format("{:.0f}", b);  // "2/255"
    if (std::fabs(b) >= 10) return fmt::format("{:.0f}", b);
    if (std::fabs(b) >= 0.1) return fmt::format("{:.1f}", b);
    return fmt::format("{:.2g}", b);
}

std::string psnrText(double psnr) { return std::isinf(psnr) ? "PSNR inf" : fmt::format("PSNR {:.1f} dB", psnr); }

std::string coord(float v) {
    double r = std::round(double(v));
    if (r == 0) r = 0;  // no "-0"
    return fmt::format("{:.0f}", r);
}
std::string point(Vec3 p) { return "(" + coord(p.x) + " " + coord(p.y) + " " + coord(p.z) + ")"; }

// "max 184/255, RMS 0.3/255, PSNR 58.2 dB, 120 over 1/255 (0.01%)".
std::string statsText(const DiffStats& s, const DiffThresholds& t) {
    std::string out = fmt::format("max {}/255, RMS {}/255, {}", bytes(s.maxAbsDisplay), bytes(s.rmsDisplay),
                                  psnrText(s.psnrDisplay));
    if (s.overFail > 0)
        out += fmt::format(", {} over {}/255 ({:.2f}%)", grouped(s.overFail), bytes(t.fail), s.percentOverFail());
    else if (s.overWarn > 0)
        out += fmt::format(", {} over {}/255", grouped(s.overWarn), bytes(t.warn));
    if (s.overHardFail > 0) out += fmt::format(", {} over the hard limit {}/255", grouped(s.overHardFail), bytes(t.hardFail));
    return out;
}

// --- What the report compares, each as one named comparison -------------------------------------------------

void boundsOf(const std::vector<SurfaceDiff>& surfaces, Vec3& mins, Vec3& maxs) {
    mins = surfaces.front().mins;
    maxs = surfaces.front().maxs;
    for (const SurfaceDiff& s : surfaces)
        for (int c = 0; c < 3; ++c) {
            mins[c] = std::min(mins[c], s.mins[c]);
            maxs[c] = std::max(maxs[c], s.maxs[c]);
        }
}

std::string surfaceLine(const SurfaceDiff& s) {
    return fmt::format("surface {} {} at {}: max {}/255, RMS {}/255, {} luxels", s.surface, s.material,
                       point(s.centroid), bytes(s.stats.maxAbsDisplay), bytes(s.stats.rmsDisplay), grouped(s.luxels));
}

std::string geometrySideLine(const char* side, const std::vector<SurfaceDiff>& surfaces) {
    size_t luxels = 0;
    for (const SurfaceDiff& s : surfaces) luxels += s.luxels;
    Vec3 mins, maxs;
    boundsOf(surfaces, mins, maxs);
    return fmt::format("geometry only in {}: {} surface{}, {} luxels (bounds {} - {})", side, grouped(surfaces.size()),
                       surfaces.size() == 1 ? "" : "s", grouped(luxels), point(mins), point(maxs));
}

std::string styleName(const StyleDiff& s) { return fmt::format("lightmaps style {}", s.style); }

std::string styleLine(const StyleDiff& s, const DiffThresholds& t) {
    return fmt::format("{}: {} luxels, {} surface{} changed, {}: {}", styleName(s), grouped(s.stats.count),
                       grouped(s.changed.size()), s.changed.size() == 1 ? "" : "s", statsText(s.stats, t),
                       upper(s.verdict));
}

std::string deluxeLine(const DirectionDiff& d) {
    return fmt::format("deluxe maps: {} lit luxels, light direction changed by median {:.1f} deg, mean {:.1f}, max "
                       "{:.1f}; {} over 10 deg",
                       grouped(d.count), d.medianDeg, d.meanDeg, d.maxDeg, grouped(d.over10Deg));
}

std::string probeLine(const ProbeDiff& p, const DiffThresholds& t) {
    std::string out = probeKindName(p.kind);
    out += ": " + grouped(p.pointsA) + " points";
    if (p.pointsB != p.pointsA) out += " in A, " + grouped(p.pointsB) + " in B";
    if (!p.pointwise && p.matchedPoints == 0)
        out += " (B resampled at A's points)";
    else if (!p.pointwise)
        out += fmt::format(" ({} matched by leaf bounds and position, {} resampled)", grouped(p.matchedPoints),
                           grouped(p.pointsA - p.matchedPoints));
    if (p.kind == ProbeKind::Grid) {
        out += ", ambient " + statsText(p.ambient, t) + "; directed " + statsText(p.directed, t);
        out += fmt::format("; max direction change {:.1f} deg (median {:.1f})", p.maxDirectionDeg, p.medianDirectionDeg);
    } else {
        out += ", " + statsText(p.ambient, t);
    }
    if (p.changed)
        out += fmt::format("; {} points differ, {} of them in solid (q3map2 moves grid points out of walls with a "
                           "random sequence: with -threads > 1 those differ from run to run)",
                           grouped(p.changed), grouped(p.changedInSolid));
    return out + ": " + upper(p.verdict);
}

std::string probePointLine(const ProbePointDiff& p) {
    std::string out = fmt::format("point {} at {}: max {}/255", p.index, point(p.position), bytes(p.maxAbsDisplay));
    if (p.directionDeg > 0) out += fmt::format(", direction {:.1f} deg", p.directionDeg);
    return out;
}

std::string imageName(const DiffReport& r, const ImageDiff& im) {
    return r.kind == "maps" ? "view " + im.name : im.name;
}

Verdict imageVerdict(const ImageDiff& im) { return im.error.empty() ? im.verdict : Verdict::Fail; }

std::string imageLine(const DiffReport& r, const ImageDiff& im) {
    if (!im.error.empty()) return fmt::format("{}: error: {}: FAIL", imageName(r, im), im.error);
    return fmt::format("{}: {}x{}, {}: {}", imageName(r, im), im.width, im.height,
                       statsText(im.stats, r.imageThresholds), upper(im.verdict));
}

std::string reportTitle(const DiffReport& r) {
    std::string what = !r.format.empty() ? r.format : r.kind;
    return r.a + " vs " + r.b + (what.empty() ? "" : " (" + what + ")");
}

// --- Summary ------------------------------------------------------------------------------------------------

void summarize(const DiffReport& r, const std::string& indent, std::string& out) {
    auto line = [&](const std::string& s) { out += indent + printable(s) + "\n"; };
    line(reportTitle(r));
    if (r.lightmaps) {
        const LightmapDiff& lm = *r.lightmaps;
        auto share = [](size_t part, size_t whole) { return whole ? 100.0 * double(part) / double(whole) : 100.0; };
        line(fmt::format("lightmaps: {} luxels in A ({:.1f}% matched), {} in B ({:.1f}% matched)", grouped(lm.luxelsA),
                         share(lm.matchedA, lm.luxelsA), grouped(lm.luxelsB), share(lm.matchedB, lm.luxelsB)));
        for (const StyleDiff& s : lm.styles) line(styleLine(s, r.luxelThresholds));
        if (lm.deluxe) line(deluxeLine(*lm.deluxe));
        if (!lm.onlyInA.empty()) line(geometrySideLine("A", lm.onlyInA) + ": FAIL");
        if (!lm.onlyInB.empty()) line(geometrySideLine("B", lm.onlyInB) + ": FAIL");
    }
    if (r.probes) line(probeLine(*r.probes, r.probeThresholds));
    for (const ImageDiff& im : r.images) line(imageLine(r, im));
    for (const std::string& e : r.onlyInA) line("only in A: " + e + ": FAIL");
    for (const std::string& e : r.onlyInB) line("only in B: " + e + ": FAIL");
    for (const std::string& e : r.errors) line("error: " + e + ": FAIL");

    // The worst items: the most changed surfaces over every style, the most changed probe points.
    if (r.lightmaps) {
        struct Item {
            int style;
            const SurfaceDiff* surface;
        };
        std::vector<Item> items;
        for (const StyleDiff& s : r.lightmaps->styles)
            for (const SurfaceDiff& d : s.changed) items.push_back({s.style, &d});
        std::stable_sort(items.begin(), items.end(), [](const Item& x, const Item& y) {
            if (x.surface->stats.maxAbsDisplay != y.surface->stats.maxAbsDisplay)
                return x.surface->stats.maxAbsDisplay > y.surface->stats.maxAbsDisplay;
            return x.surface->stats.rmsDisplay > y.surface->stats.rmsDisplay;
        });
        if (!items.empty()) line("most changed surfaces:");
        for (size_t i = 0; i < std::min<size_t>(items.size(), 5); ++i)
            line(fmt::format("  style {}: {}", items[i].style, surfaceLine(*items[i].surface)));
        for (const auto* side : {&r.lightmaps->onlyInA, &r.lightmaps->onlyInB}) {
            if (side->empty()) continue;
            line(side == &r.lightmaps->onlyInA ? "surfaces only in A:" : "surfaces only in B:");
            for (size_t i = 0; i < std::min<size_t>(side->size(), 5); ++i)
                line(fmt::format("  surface {} {}: bounds {} - {}, {} luxels", (*side)[i].surface,
                                 (*side)[i].material, point((*side)[i].mins), point((*side)[i].maxs),
                                 grouped((*side)[i].luxels)));
            if (side->size() > 5) line(fmt::format("  ... and {} more", side->size() - 5));
        }
    }
    if (r.probes && !r.probes->worst.empty() && r.probes->verdict != Verdict::Same) {
        line(fmt::format("most changed {} points:", probeKindName(r.probes->kind)));
        for (size_t i = 0; i < std::min<size_t>(r.probes->worst.size(), 5); ++i)
            line("  " + probePointLine(r.probes->worst[i]));
    }

    // Folder entries: the ones that differ in full, the rest counted.
    size_t same = 0;
    for (const DiffReport& e : r.entries) {
        const Verdict v = overallVerdict(e);
        if (v == Verdict::Same) {
            ++same;
            continue;
        }
        summarize(e, indent + "  ", out);
        line("  verdict: " + std::string(verdictName(v)));
    }
    if (same > 0) line(fmt::format("{} entr{} without differences", grouped(same), same == 1 ? "y" : "ies"));
}

// --- JSON ---------------------------------------------------------------------------------------------------

using Json = nlohmann::ordered_json;

// JSON has no infinity: "inf" / "-inf"; NaN as null.
Json num(double v) {
    if (std::isnan(v)) return nullptr;
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

Json vec(Vec3 v) { return Json::array({num(v.x), num(v.y), num(v.z)}); }

Json thresholdsJson(const DiffThresholds& t) {
    return {{"fail", num(t.fail)}, {"warn", num(t.warn)}, {"fail_percent", num(t.failPercent)},
            {"hard_fail", num(t.hardFail)}};
}

Json statsJson(const DiffStats& s) {
    return {{"count", s.count},
            {"mean_abs_linear", num(s.meanAbsLinear)},
            {"rms_linear", num(s.rmsLinear)},
            {"max_abs_linear", num(s.maxAbsLinear)},
            {"mean_abs_display", num(s.meanAbsDisplay)},
            {"rms_display", num(s.rmsDisplay)},
            {"max_abs_display", num(s.maxAbsDisplay)},
            {"psnr_display", num(s.psnrDisplay)},
            {"over_warn", s.overWarn},
            {"over_fail", s.overFail},
            {"over_hard_fail", s.overHardFail},
            {"percent_over_fail", num(s.percentOverFail())}};
}

Json surfaceJson(const SurfaceDiff& s) {
    return {{"surface", s.surface},       {"material", utf8(s.material)}, {"mins", vec(s.mins)},
            {"maxs", vec(s.maxs)},        {"centroid", vec(s.centroid)},  {"area", num(s.area)},
            {"luxels", s.luxels},         {"unmatched", s.unmatched},     {"stats", statsJson(s.stats)}};
}

Json surfacesJson(const std::vector<SurfaceDiff>& surfaces) {
    Json out = Json::array();
    for (const SurfaceDiff& s : surfaces) out.push_back(surfaceJson(s));
    return out;
}

Json lightmapsJson(const LightmapDiff& lm) {
    Json styles = Json::array();
    for (const StyleDiff& s : lm.styles)
        styles.push_back({{"style", s.style},
                          {"verdict", verdictName(s.verdict)},
                          {"stats", statsJson(s.stats)},
                          {"changed", surfacesJson(s.changed)}});
    return {{"luxels_a", lm.luxelsA},
            {"luxels_b", lm.luxelsB},
            {"matched_a", lm.matchedA},
            {"matched_b", lm.matchedB},
            {"unlocated_a", lm.unlocatedA},
            {"unlocated_b", lm.unlocatedB},
            {"same_geometry", lm.sameGeometry},
            {"styles", std::move(styles)},
            {"deluxe", lm.deluxe ? Json{{"luxels", lm.deluxe->count},
                                        {"median_deg", num(lm.deluxe->medianDeg)},
                                        {"mean_deg", num(lm.deluxe->meanDeg)},
                                        {"max_deg", num(lm.deluxe->maxDeg)},
                                        {"over_10_deg", lm.deluxe->over10Deg}}
                                 : Json(nullptr)},
            {"geometry_verdict", verdictName(lm.onlyInA.empty() && lm.onlyInB.empty() ? Verdict::Same : Verdict::Fail)},
            {"only_in_a", surfacesJson(lm.onlyInA)},
            {"only_in_b", surfacesJson(lm.onlyInB)},
            {"ms", num(lm.ms)}};
}

Json probesJson(const ProbeDiff& p) {
    Json worst = Json::array();
    for (const ProbePointDiff& w : p.worst)
        worst.push_back({{"index", w.index},
                         {"position", vec(w.position)},
                         {"max_abs_display", num(w.maxAbsDisplay)},
                         {"direction_deg", num(w.directionDeg)}});
    return {{"kind", probeKindName(p.kind)},
            {"pointwise", p.pointwise},
            {"matched_points", p.matchedPoints},
            {"changed", p.changed},
            {"changed_in_solid", p.changedInSolid},
            {"points_a", p.pointsA},
            {"points_b", p.pointsB},
            {"verdict", verdictName(p.verdict)},
            {"ambient", statsJson(p.ambient)},
            {"directed", statsJson(p.directed)},
            {"median_direction_deg", num(p.medianDirectionDeg)},
            {"max_direction_deg", num(p.maxDirectionDeg)},
            {"worst", std::move(worst)}};
}

Json imageJson(const ImageDiff& im) {
    return {{"name", utf8(im.name)},     {"a", utf8(im.a)},
            {"b", utf8(im.b)},           {"width", im.width},
            {"height", im.height},       {"verdict", verdictName(imageVerdict(im))},
            {"stats", statsJson(im.stats)}, {"error", utf8(im.error)}};
}

Json stringsJson(const std::vector<std::string>& list) {
    Json out = Json::array();
    for (const std::string& s : list) out.push_back(utf8(s));
    return out;
}

// --- JUnit --------------------------------------------------------------------------------------------------

struct TestCase {
    std::string name;
    Verdict verdict = Verdict::Same;
    std::string message;              // the figures (one line)
    std::vector<std::string> details; // the worst items
};

struct Suite {
    std::string name;
    std::vector<TestCase> cases;
};

void collectSuites(const DiffReport& r, std::vector<Suite>& suites) {
    Suite suite;
    suite.name = r.a + " vs " + r.b;
    if (r.lightmaps) {
        const LightmapDiff& lm = *r.lightmaps;
        for (const StyleDiff& s : lm.styles) {
            TestCase c{styleName(s), s.verdict, styleLine(s, r.luxelThresholds), {}};
            for (size_t i = 0; i < std::min<size_t>(s.changed.size(), 10); ++i) c.details.push_back(surfaceLine(s.changed[i]));
            suite.cases.push_back(std::move(c));
        }
        // Directions decide no verdict (see DirectionDiff): a passing case that carries the figures.
        if (lm.deluxe) suite.cases.push_back({"deluxe maps", Verdict::Same, deluxeLine(*lm.deluxe), {}});
        TestCase g{"geometry", Verdict::Same, "same lit surfaces in both builds", {}};
        if (!lm.onlyInA.empty() || !lm.onlyInB.empty()) {
            g.verdict = Verdict::Fail;
            g.message.clear();
            for (const auto* side : {&lm.onlyInA, &lm.onlyInB}) {
                if (side->empty()) continue;
                if (!g.message.empty()) g.message += "; ";
                g.message += geometrySideLine(side == &lm.onlyInA ? "A" : "B", *side);
                for (size_t i = 0; i < std::min<size_t>(side->size(), 10); ++i)
                    g.details.push_back(fmt::format("only in {}: surface {} {}: bounds {} - {}, {} luxels",
                                                    side == &lm.onlyInA ? "A" : "B", (*side)[i].surface,
                                                    (*side)[i].material, point((*side)[i].mins),
                                                    point((*side)[i].maxs), grouped((*side)[i].luxels)));
            }
        }
        suite.cases.push_back(std::move(g));
    }
    if (r.probes) {
        TestCase c{probeKindName(r.probes->kind), r.probes->verdict, probeLine(*r.probes, r.probeThresholds), {}};
        for (size_t i = 0; i < std::min<size_t>(r.probes->worst.size(), 10); ++i)
            c.details.push_back(probePointLine(r.probes->worst[i]));
        suite.cases.push_back(std::move(c));
    }
    for (const ImageDiff& im : r.images) suite.cases.push_back({imageName(r, im), imageVerdict(im), imageLine(r, im), {}});
    for (const std::string& e : r.onlyInA) suite.cases.push_back({"missing entry " + e, Verdict::Fail, "only in A: " + e, {}});
    for (const std::string& e : r.onlyInB) suite.cases.push_back({"missing entry " + e, Verdict::Fail, "only in B: " + e, {}});
    for (size_t i = 0; i < r.errors.size(); ++i)
        suite.cases.push_back({fmt::format("error {}", i + 1), Verdict::Fail, r.errors[i], {}});
    suites.push_back(std::move(suite));
    for (const DiffReport& e : r.entries) collectSuites(e, suites);
}

size_t failures(const Suite& s) {
    return size_t(std::count_if(s.cases.begin(), s.cases.end(), [](const TestCase& c) { return c.verdict == Verdict::Fail; }));
}

}  // namespace

Verdict overallVerdict(const DiffReport& r) {
    Verdict v = Verdict::Same;
    if (r.lightmaps) {
        for (const StyleDiff& s : r.lightmaps->styles) v = worse(v, s.verdict);
        if (!r.lightmaps->onlyInA.empty() || !r.lightmaps->onlyInB.empty()) v = Verdict::Fail;
    }
    if (r.probes) v = worse(v, r.probes->verdict);
    for (const ImageDiff& im : r.images) v = worse(v, imageVerdict(im));
    if (!r.onlyInA.empty() || !r.onlyInB.empty() || !r.errors.empty()) v = Verdict::Fail;
    for (const DiffReport& e : r.entries) v = worse(v, overallVerdict(e));
    return v;
}

std::string summaryText(const DiffReport& r) {
    std::string out;
    summarize(r, "", out);
    out += fmt::format("verdict: {}\n", verdictName(overallVerdict(r)));
    return out;
}

nlohmann::ordered_json toJson(const DiffReport& r) {
    Json j;
    j["a"] = utf8(r.a);
    j["b"] = utf8(r.b);
    j["kind"] = utf8(r.kind);
    j["format"] = utf8(r.format);
    j["verdict"] = verdictName(overallVerdict(r));
    j["thresholds"] = {{"luxels", thresholdsJson(r.luxelThresholds)},
                       {"probes", thresholdsJson(r.probeThresholds)},
                       {"images", thresholdsJson(r.imageThresholds)}};
    j["lightmaps"] = r.lightmaps ? lightmapsJson(*r.lightmaps) : Json(nullptr);
    j["probes"] = r.probes ? probesJson(*r.probes) : Json(nullptr);
    j["images"] = Json::array();
    for (const ImageDiff& im : r.images) j["images"].push_back(imageJson(im));
    j["only_in_a"] = stringsJson(r.onlyInA);
    j["only_in_b"] = stringsJson(r.onlyInB);
    j["errors"] = stringsJson(r.errors);
    j["entries"] = Json::array();
    for (const DiffReport& e : r.entries) j["entries"].push_back(toJson(e));
    return j;
}

std::string junitXml(const DiffReport& r) {
    std::vector<Suite> suites;
    collectSuites(r, suites);
    size_t tests = 0, failed = 0;
    for (const Suite& s : suites) {
        tests += s.cases.size();
        failed += failures(s);
    }
    auto attr = [](std::string_view s) { return xmlEscape(s, true); };
    auto text = [](std::string_view s) { return xmlEscape(s, false); };
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<testsuites name=\"luxel diff\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n", tests, failed);
    for (const Suite& s : suites) {
        out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n",
                           attr(s.name), s.cases.size(), failures(s));
        for (const TestCase& c : s.cases) {
            out += fmt::format("    <testcase classname=\"luxel.diff\" name=\"{}\"", attr(c.name));
            if (c.verdict == Verdict::Same) {
                out += "/>\n";
                continue;
            }
            out += ">\n";
            std::string body;
            for (const std::string& d : c.details) body += d + "\n";
            if (c.verdict == Verdict::Fail) {
                out += fmt::format("      <failure message=\"{}\" type=\"fail\">{}</failure>\n", attr(c.message),
                                   text(body));
            } else {
                out += fmt::format("      <system-out>warn: {}\n{}</system-out>\n", text(c.message), text(body));
            }
            out += "    </testcase>\n";
        }
        out += "  </testsuite>\n";
    }
    out += "</testsuites>\n";
    return out;
}

}  // namespace luxel
