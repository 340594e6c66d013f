// Scene files: TOML (toml++) into a Scene, every value checked for its key, type and range, every error
// naming file:line and the key.
#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "luxel/io/map_source.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/render.hpp"
#include "luxel/scene/scene.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {
namespace fs = std::filesystem;

std::string SceneLocation::text() const {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    if (!key.empty()) s += ": " + key;
    return s;
}

bool isSceneFile(const std::string& path) { return endsWithIgnoreCase(path, ".toml"); }

namespace {

struct Ctx {
    std::string file, folder;

    SceneLocation at(const toml::node& node, const std::string& key) const {
        return {file, int(node.source().begin.line), key};
    }
    [[noreturn]] void fail(const toml::node& node, const std::string& key, const std::string& what) const {
        throw UsageError(at(node, key).text() + ": " + what);
    }
    std::string resolve(const std::string& path) const {
        if (path.empty() || fs::path(path).is_absolute()) return path;
        return (fs::path(folder) / path).lexically_normal().string();
    }
};

const char* typeName(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::string: return "a string";
        case toml::node_type::integer: return "an integer";
        case toml::node_type::floating_point: return "a number";
        case toml::node_type::boolean: return "true/false";
        case toml::node_type::array: return "an array";
        case toml::node_type::table: return "a table";
        default: return "a date/time";
    }
}

std::string wrongType(const toml::node& node, const char* wanted) {
    return fmt::format("expected {}, got {}", wanted, typeName(node));
}

// Every key of `table` must be one of `allowed`.
void checkKeys(const Ctx& ctx, const toml::table& table, const std::string& prefix,
               std::initializer_list<std::string_view> allowed) {
    for (auto&& [key, node] : table) {
        bool known = false;
        for (std::string_view a : allowed) known = known || key.str() == a;
        if (known) continue;
        std::string list;
        for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        throw UsageError(fmt::format("{}:{}: {}{}: unknown key (known keys: {})", ctx.file, key.source().begin.line,
                                     prefix, key.str(), list));
    }
}

std::string getString(const Ctx& ctx, const toml::node& node, const std::string& key) {
    if (!node.is_string()) ctx.fail(node, key, wrongType(node, "a string"));
    return *node.value<std::string>();
}

bool getBool(const Ctx& ctx, const toml::node& node, const std::string& key) {
    if (!node.is_boolean()) ctx.fail(node, key, wrongType(node, "true or false"));
    return *node.value<bool>();
}

double getNumber(const Ctx& ctx, const toml::node& node, const std::string& key, double lo, double hi) {
    if (!node.is_number()) ctx.fail(node, key, wrongType(node, "a number"));
    const double v = *node.value<double>();
    if (!(v >= lo && v <= hi)) ctx.fail(node, key, fmt::format("{} is outside {} to {}", v, lo, hi));
    return v;
}

int getInt(const Ctx& ctx, const toml::node& node, const std::string& key, int lo, int hi) {
    if (!node.is_integer()) ctx.fail(node, key, wrongType(node, "an integer"));
    const int64_t v = *node.value<int64_t>();
    if (v < lo || v > hi) ctx.fail(node, key, fmt::format("{} is outside {} to {}", v, lo, hi));
    return int(v);
}

std::vector<std::string> getStrings(const Ctx& ctx, const toml::node& node, const std::string& key) {
    // A single string is accepted where a list is expected: game_dirs = "baseoa".
    if (node.is_string()) return {*node.value<std::string>()};
    const toml::array* array = node.as_array();
    if (!array) ctx.fail(node, key, wrongType(node, "a list of strings"));
    std::vector<std::string> out;
    for (size_t i = 0; i < array->size(); ++i) out.push_back(getString(ctx, *array->get(i), fmt::format("{}[{}]", key, i)));
    return out;
}

std::vector<float> getVec3(const Ctx& ctx, const toml::node& node, const std::string& key) {
    const toml::array* array = node.as_array();
    if (!array || array->size() != 3) ctx.fail(node, key, "expected three numbers [x, y, z]");
    std::vector<float> out;
    for (size_t i = 0; i < 3; ++i) out.push_back(float(getNumber(ctx, *array->get(i), key, -1e9, 1e9)));
    return out;
}

void parseSize(const Ctx& ctx, const toml::node& node, const std::string& key, int& width, int& height) {
    constexpr int kMax = 16384;
    if (const toml::array* array = node.as_array()) {
        if (array->size() != 2) ctx.fail(node, key, "expected [width, height]");
        width = getInt(ctx, *array->get(0), key, 1, kMax);
        height = getInt(ctx, *array->get(1), key, 1, kMax);
        return;
    }
    const std::string text = getString(ctx, node, key);
    int w = 0, h = 0;
    char x = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w < 1 ||
        h < 1 || w > kMax || h > kMax)
        ctx.fail(node, key, fmt::format("expected \"WIDTHxHEIGHT\" with sides 1 to {}, got '{}'", kMax, text));
    width = w;
    height = h;
}

// View and output names become parts of file names: keep them to a safe alphabet.
bool safeName(const std::string& name) {
    if (name.empty() || name.size() > 64 || name[0] == '.') return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
    return true;
}

SceneView parseView(const Ctx& ctx, const toml::table& table, size_t index) {
    const std::string prefix = fmt::format("view[{}].", index);
    checkKeys(ctx, table, prefix,
              {"name", "camera", "pos", "angles", "fov", "size", "mode", "look", "unlit", "styles", "time", "spp", "flares",
               "sky", "transparent", "levelshot", "world_only", "no_pvs"});
    SceneView v;
    v.name = index == 0 ? "thumb" : fmt::format("view{}", index);
    v.location = ctx.at(table, fmt::format("view[{}]", index));
    for (auto&& [keyName, node] : table) {
        const std::string k(keyName.str());
        const std::string key = prefix + k;
        v.where[k] = ctx.at(node, key);
        if (k == "name") {
            v.name = getString(ctx, node, key);
            if (!safeName(v.name))
                ctx.fail(node, key, "'" + v.name + "': use letters, digits, '_', '-' and '.' (1 to 64, not starting with '.')");
        } else if (k == "camera") {
            v.camera = getString(ctx, node, key);
        } else if (k == "pos") {
            v.pos = getVec3(ctx, node, key);
        } else if (k == "angles") {
            v.angles = getVec3(ctx, node, key);
        } else if (k == "fov") {
            v.fov = float(getNumber(ctx, node, key, kMinFov, kMaxFov));
        } else if (k == "size") {
            parseSize(ctx, node, key, v.width, v.height);
        } else if (k == "mode") {
            v.mode = getString(ctx, node, key);
        } else if (k == "unlit") {
            v.unlit = getString(ctx, node, key);
            if (v.unlit != "engine" && v.unlit != "light" && v.unlit != "black")
                ctx.fail(node, key, "expected \"engine\", \"light\" or \"black\"");
        } else if (k == "look") {
            v.look = getString(ctx, node, key);
            if (!parseLook(v.look)) ctx.fail(node, key, "expected \"engine\", \"engine-windowed\" or \"linear\"");
        } else if (k == "styles") {
            v.styles = getString(ctx, node, key);
        } else if (k == "time") {
            v.time = float(getNumber(ctx, node, key, 0, 1e6));
        } else if (k == "spp") {
            v.spp = getInt(ctx, node, key, 1, 64);
        } else if (k == "flares") {
            v.flares = getBool(ctx, node, key);
        } else if (k == "sky") {
            v.sky = getBool(ctx, node, key);
        } else if (k == "transparent") {
            v.transparent = getBool(ctx, node, key);
        } else if (k == "world_only") {
            v.worldOnly = getBool(ctx, node, key);
        } else if (k == "no_pvs") {
            v.noPvs = getBool(ctx, node, key);
        } else if (k == "levelshot") {
            v.levelshot = getInt(ctx, node, key, 1, 4096);
        }
    }
    if (v.angles && !v.pos) ctx.fail(table, prefix + "angles", "angles need pos");
    return v;
}

bool hasGlobChars(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

// A map input that names nothing on disk is an error here, with its line; globs are checked when expanded.
void checkExists(const Ctx& ctx, const toml::node& node, const std::string& key, SceneMapInput& in) {
    if (in.kind == SceneMapInput::Kind::Glob || (in.kind == SceneMapInput::Kind::Auto && hasGlobChars(in.path))) return;
    // "archive.pk3:maps/x.bsp": the archive must exist (the member is checked when the input is expanded).
    const auto split = splitArchiveMember(in.path);
    const std::string onDisk = split ? split->archive : in.path;
    std::error_code ec;
    if (!fs::exists(onDisk, ec)) ctx.fail(node, key, "'" + in.path + "': no such file or directory");
}

SceneMapInput parseMapInput(const Ctx& ctx, const toml::node& node, size_t index) {
    const std::string key = fmt::format("maps[{}]", index);
    SceneMapInput in;
    in.location = ctx.at(node, key);
    if (node.is_string()) {
        in.path = ctx.resolve(*node.value<std::string>());
        checkExists(ctx, node, key, in);
        return in;
    }
    const toml::table* table = node.as_table();
    if (!table) ctx.fail(node, key, wrongType(node, "a path or a table such as { game_dir = \"...\" }"));
    checkKeys(ctx, *table, key + ".",
              {"path", "file", "glob", "dir", "archive", "game_dir", "game_dirs", "views", "ldr", "palette"});
    int named = 0;
    for (auto&& [keyName, value] : *table) {
        const std::string k(keyName.str());
        const std::string full = key + "." + k;
        using K = SceneMapInput::Kind;
        static const std::pair<const char*, K> kinds[] = {{"path", K::Auto},       {"file", K::File},
                                                          {"glob", K::Glob},       {"dir", K::Directory},
                                                          {"archive", K::Archive}, {"game_dir", K::GameDir}};
        bool isPath = false;
        for (const auto& [name, kind] : kinds)
            if (k == name) {
                in.kind = kind;
                in.path = ctx.resolve(getString(ctx, value, full));
                isPath = true;
                ++named;
            }
        if (isPath) continue;
        if (k == "game_dirs") {
            in.gameDirs = getStrings(ctx, value, full);
            for (std::string& d : *in.gameDirs) d = ctx.resolve(d);
        } else if (k == "views") {
            in.views = getStrings(ctx, value, full);
        } else if (k == "ldr") {
            in.ldr = getBool(ctx, value, full);
        } else if (k == "palette") {
            in.palette = ctx.resolve(getString(ctx, value, full));
        }
    }
    if (named != 1) ctx.fail(node, key, "give exactly one of path, file, glob, dir, archive, game_dir");
    checkExists(ctx, node, key, in);
    return in;
}

// The output pattern may only write below the output folder.
void checkPattern(const Ctx& ctx, const toml::node& node, const std::string& key, const std::string& pattern) {
    if (pattern.find("{map}") == std::string::npos)
        ctx.fail(node, key, "the pattern must contain {map} (one file per map)");
    const fs::path p(pattern);
    if (p.is_absolute()) ctx.fail(node, key, "the pattern must be relative to the output folder");
    for (const auto& part : p)
        if (part == "..") ctx.fail(node, key, "the pattern must not contain '..'");
    for (size_t i = pattern.find('{'); i != std::string::npos; i = pattern.find('{', i + 1)) {
        const size_t end = pattern.find('}', i);
        const std::string field = end == std::string::npos ? pattern.substr(i) : pattern.substr(i, end - i + 1);
        if (field != "{map}" && field != "{view}" && field != "{ext}" && field != "{format}")
            ctx.fail(node, key, "unknown field " + field + " (known: {map}, {view}, {ext})");
    }
}

SceneOutput parseOutput(const Ctx& ctx, const toml::node& node) {
    const toml::table* table = node.as_table();
    if (!table) ctx.fail(node, "output", wrongType(node, "a table"));
    checkKeys(ctx, *table, "output.", {"dir", "pattern", "format", "archive", "whole_textures"});
    SceneOutput out;
    for (auto&& [keyName, value] : *table) {
        const std::string k(keyName.str());
        const std::string key = "output." + k;
        if (k == "dir") {
            out.dir = ctx.resolve(getString(ctx, value, key));
        } else if (k == "pattern") {
            out.pattern = getString(ctx, value, key);
            checkPattern(ctx, value, key, out.pattern);
        } else if (k == "format") {
            out.format = toLowerAscii(getString(ctx, value, key));
            if (out.format != "png" && out.format != "jpg" && out.format != "jpeg" && out.format != "webp" &&
                out.format != "exr" && out.format != "tif" && out.format != "tiff")
                ctx.fail(value, key, "'" + out.format + "': expected png, jpg, webp, exr or tif");
        } else if (k == "whole_textures") {
            out.wholeTextures = getBool(ctx, value, key);
        } else if (k == "archive") {
            // One file directly in the output folder: the name never reaches outside it.
            out.archive = getString(ctx, value, key);
            if (!safeName(out.archive) ||
                !(endsWithIgnoreCase(out.archive, ".pk3") || endsWithIgnoreCase(out.archive, ".zip")))
                ctx.fail(value, key, "'" + out.archive + "': a file name ending in .pk3 or .zip (letters, digits, '_', '-', '.')");
        }
    }
    return out;
}

}  // namespace

Scene parseScene(const std::string& text, const std::string& file, const std::string& folder) {
    toml::table root;
    try {
        root = toml::parse(text, file);
    } catch (const toml::parse_error& e) {
        throw UsageError(fmt::format("{}:{}: {}", file, e.source().begin.line, e.description()));
    }
    const Ctx ctx{file, folder.empty() ? "." : folder};
    checkKeys(ctx, root, "", {"maps", "game_dirs", "ldr", "palette", "view", "output"});
    Scene scene;
    scene.file = file;
    scene.folder = ctx.folder;
    for (auto&& [keyName, node] : root) {
        const std::string k(keyName.str());
        if (k == "maps") {
            const toml::array* array = node.as_array();
            if (!array) ctx.fail(node, k, wrongType(node, "a list"));
            for (size_t i = 0; i < array->size(); ++i) scene.maps.push_back(parseMapInput(ctx, *array->get(i), i));
        } else if (k == "game_dirs") {
            scene.gameDirs = getStrings(ctx, node, k);
            for (std::string& d : scene.gameDirs) {
                d = ctx.resolve(d);
                std::error_code ec;
                if (!fs::is_directory(d, ec)) ctx.fail(node, k, "'" + d + "': not a directory");
            }
        } else if (k == "ldr") {
            scene.ldr = getBool(ctx, node, k);
        } else if (k == "palette") {
            scene.palette = ctx.resolve(getString(ctx, node, k));
        } else if (k == "view") {
            const toml::array* array = node.as_array();
            if (!array) ctx.fail(node, k, wrongType(node, "[[view]] tables"));
            for (size_t i = 0; i < array->size(); ++i) {
                const toml::table* table = array->get(i)->as_table();
                if (!table) ctx.fail(*array->get(i), fmt::format("view[{}]", i), "expected a [[view]] table");
                scene.views.push_back(parseView(ctx, *table, i));
            }
        } else if (k == "output") {
            scene.output = parseOutput(ctx, node);
        }
    }
    if (scene.maps.empty()) throw UsageError(file + ": no maps (add maps = [\"path\", ...])");
    if (scene.views.empty()) scene.views.push_back(SceneView{});
    for (size_t i = 0; i < scene.views.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (scene.views[i].name == scene.views[j].name)
                throw UsageError(scene.views[i].location.text() + ": view name '" + scene.views[i].name +
                                 "' is used twice");
    for (const SceneMapInput& in : scene.maps)
        if (in.views)
            for (const std::string& name : *in.views) {
                bool found = false;
                for (const SceneView& v : scene.views) found = found || v.name == name;
                if (!found) throw UsageError(in.location.text() + ".views: no view named '" + name + "'");
            }
    return scene;
}

Scene loadScene(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError(path + ": cannot read the scene file");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string folder = fs::path(path).parent_path().string();
    return parseScene(text.str(), path, folder);
}

}  // namespace luxel
