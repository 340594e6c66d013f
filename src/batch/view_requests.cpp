// Scene views checked and turned into renderer requests; output paths from the scene's pattern.
#include <charconv>
#include <filesystem>
#include <map>

#include "batch_parts.hpp"
#include "luxel/image/image.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {
namespace fs = std::filesystem;

ViewRequest sceneViewRequest(const SceneView& v, const SceneOutput& output) {
    ViewRequest r;
    r.figures = true;  // the manifest reports them
    r.camera = v.camera;
    if (v.pos) r.pos = Vec3{(*v.pos)[0], (*v.pos)[1], (*v.pos)[2]};
    if (v.angles) r.angles = Vec3{(*v.angles)[0], (*v.angles)[1], (*v.angles)[2]};
    r.fov = v.fov;
    r.width = v.width;
    r.height = v.height;
    r.mode = v.mode;
    if (!v.look.empty()) r.look = parseLook(v.look).value_or(Look::Engine);
    if (!v.unlit.empty()) r.unlit = parseUnlit(v.unlit);
    r.ldrOutput = isLdrPath("x." + output.format);
    r.reducedTextures = !output.wholeTextures;
    r.spp = v.spp;
    r.styles = v.styles;
    r.time = v.time;
    r.flares = v.flares;
    r.sky = v.sky;
    r.worldOnly = v.worldOnly;
    r.usePvs = !v.noPvs;
    r.transparent = v.transparent;
    return r;
}

namespace {

bool validCameraSpec(const std::string& spec) {
    if (spec == "best" || spec == "overview" || spec == "intermission" || spec == "spawn") return true;
    if (spec.rfind("spawn:", 0) != 0 || spec.size() == 6) return false;
    size_t n = 0;
    const auto [end, ec] = std::from_chars(spec.data() + 6, spec.data() + spec.size(), n);
    return ec == std::errc() && end == spec.data() + spec.size();
}

// "file:line: view[i].key" for a key of a view, or the view itself when the key was not in the file.
std::string where(const SceneView& v, const std::string& key) {
    auto it = v.where.find(key);
    return (it != v.where.end() ? it->second : v.location).text();
}

}  // namespace

void checkJobs(const std::vector<MapJob>& jobs) {
    // Patterns such as "{map}-{view}" can give two (map, view) pairs one file ("dm" + "lit-top" and "dm-lit" +
    // "top"); compared case-insensitively, as a case-folding file system would.
    std::map<std::string, std::string> outputs;
    for (const MapJob& job : jobs)
        for (const SceneView& v : job.views) {
            const std::string path = outputPath(job, v);
            const std::string who = "map " + job.name + " (" + job.source + "), view " + v.name;
            if (auto [it, inserted] = outputs.emplace(toLowerAscii(path), who); !inserted)
                throw UsageError(v.location.text() + ": output file '" + path + "' of " + who + " is also that of " +
                                 it->second + ": add {view} or a separator to the output pattern");
        }
    for (const MapJob& job : jobs)
        for (const SceneView& v : job.views) {
            try {
                if (v.mode != "auto") parseRenderMode(v.mode);
            } catch (const UsageError& e) {
                throw UsageError(where(v, "mode") + ": " + e.what());
            }
            try {
                if (!v.styles.empty()) parseStyleSpec(v.styles, World{});
            } catch (const UsageError& e) {
                throw UsageError(where(v, "styles") + ": " + e.what());
            }
            if (!v.pos && !validCameraSpec(v.camera))
                throw UsageError(where(v, "camera") + ": unknown camera '" + v.camera +
                                 "' (best, overview, intermission, spawn, spawn:N, or pos + angles)");
            if (v.levelshot > 0 && !isLdrPath("x." + job.output.format))
                throw UsageError(where(v, "levelshot") + ": a levelshot is 8-bit display values: use format png, jpg or webp");
            checkViewRequest(sceneViewRequest(v, job.output));
        }
}

std::string outputPath(const MapJob& job, const SceneView& view) {
    std::string ext = job.output.format == "jpeg" ? "jpg" : job.output.format == "tiff" ? "tif" : job.output.format;
    std::string out;
    const std::string& p = job.output.pattern;
    for (size_t i = 0; i < p.size();) {
        auto field = [&](const char* name, const std::string& value) {
            const size_t n = std::char_traits<char>::length(name);
            if (p.compare(i, n, name) != 0) return false;
            out += value;
            i += n;
            return true;
        };
        if (field("{map}", job.outputName) || field("{view}", sanitizeFileName(view.name)) || field("{ext}", ext) ||
            field("{format}", ext))
            continue;
        out += p[i++];
    }
    // The scene parser rejects such patterns; a pattern from elsewhere must not escape the folder either.
    const fs::path path = fs::path(out).lexically_normal();
    if (out.empty() || path.is_absolute() || (!path.empty() && *path.begin() == ".."))
        throw UsageError("output pattern '" + p + "' gives '" + out + "', outside the output folder");
    if (path.extension().empty()) return path.string() + "." + ext;
    return path.string();
}

}  // namespace luxel
