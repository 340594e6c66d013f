#include "view_query.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <set>

#include "luxel/batch/batch.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/util/error.hpp"

namespace luxel::serve {
namespace {

[[noreturn]] void bad(const std::string& key, const std::string& what) { throw UsageError("query: " + key + ": " + what); }

float number(const std::string& key, const std::string& text) {
    float v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) bad(key, "'" + text + "' is not a number");
    return v;
}

int integer(const std::string& key, const std::string& text) {
    int v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) bad(key, "'" + text + "' is not a whole number");
    return v;
}

bool flag(const std::string& key, const std::string& text) {
    if (text == "1" || text == "true" || text == "yes" || text.empty()) return true;
    if (text == "0" || text == "false" || text == "no") return false;
    bad(key, "'" + text + "' is not 1/0/true/false");
}

// Shortest text that reads back as the same float, so equal values give equal keys.
std::string canonical(float v) { return fmt::format("{}", v); }

}  // namespace

const char* viewQueryKeys() { return "camera, size, mode, look, time, fov, styles, unlit, spp, world-only, transparent"; }

ViewQuery parseViewQuery(const std::multimap<std::string, std::string>& params, const std::string& format, int maxWidth,
                         int maxHeight) {
    ViewQuery q;
    q.format = format;
    SceneView& v = q.view;
    v.location = {"query", 0, ""};
    std::set<std::string> seen;
    for (const auto& [key, value] : params) {
        if (key == "format" || key == "map") continue;  // the URL's extension / POST's member choice, handled by callers
        if (!seen.insert(key).second) bad(key, "given twice");
        v.where[key] = {"query", 0, key};
        if (value.find('\0') != std::string::npos) bad(key, "holds a NUL byte");
        if (key == "camera") {
            v.camera = value;
        } else if (key == "size") {
            const size_t x = value.find('x');
            if (x == std::string::npos) bad(key, "'" + value + "' is not WxH");
            v.width = integer(key, value.substr(0, x));
            v.height = integer(key, value.substr(x + 1));
            if (v.width < 1 || v.height < 1 || v.width > maxWidth || v.height > maxHeight)
                bad(key, value + " is outside 1x1.." + std::to_string(maxWidth) + "x" + std::to_string(maxHeight));
        } else if (key == "mode") {
            v.mode = value;
        } else if (key == "look") {
            v.look = value;
        } else if (key == "time") {
            v.time = number(key, value);
            if (v.time < 0 || v.time > 1e6f) bad(key, value + " is outside 0..1000000 seconds");
        } else if (key == "fov") {
            v.fov = number(key, value);
            // The CLI's --fov range; past it the camera code would refuse the view after the map was loaded (a 422).
            if (v.fov < kMinFov || v.fov > kMaxFov) bad(key, fmt::format("{} is outside {}..{} degrees", value, kMinFov, kMaxFov));
        } else if (key == "styles") {
            v.styles = value;
        } else if (key == "unlit") {
            v.unlit = value;
        } else if (key == "spp") {
            v.spp = integer(key, value);
            if (v.spp < 1 || v.spp > 16) bad(key, value + " is outside 1..16");
        } else if (key == "world-only") {
            v.worldOnly = flag(key, value);
        } else if (key == "transparent") {
            v.transparent = flag(key, value);
        } else {
            bad(key, std::string("unknown option (options: ") + viewQueryKeys() + ")");
        }
    }
    if (format != "png" && format != "jpg" && format != "webp") bad("format", "'" + format + "' is not png, jpg or webp");
    // The batch's checks of a scene view (mode, styles, camera, size, look): the same words fail the same way.
    MapJob job;
    job.name = job.outputName = "query";
    job.output.format = format;
    job.output.pattern = "{map}.{ext}";
    job.views = {v};
    checkJobs({job});
    if (!v.look.empty() && !parseLook(v.look)) bad("look", "'" + v.look + "' is not engine, engine-windowed or linear");
    q.key = fmt::format("camera={}&format={}&fov={}&look={}&mode={}&size={}x{}&spp={}&styles={}&time={}&transparent={}&"
                        "unlit={}&world-only={}",
                        v.camera, format, canonical(v.fov), v.look, v.mode, v.width, v.height, v.spp, v.styles,
                        canonical(v.time), int(v.transparent), v.unlit, int(v.worldOnly));
    return q;
}

ViewRequest ViewQuery::request() const {
    SceneOutput output;
    output.format = format;
    ViewRequest r = sceneViewRequest(view, output);
    r.figures = false;  // the manifest's figures; a served picture needs none
    r.reducedTextures = false;  // the bytes `luxel render` writes for the same view
    return r;
}

}  // namespace luxel::serve
