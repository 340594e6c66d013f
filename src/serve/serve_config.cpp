// serve.toml: the service's settings in a file, in the style of the scene files (scenes/README.md). Keys
// are the command line's long options with '_' for '-'; relative paths are resolved against the file's folder.
#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "luxel/serve/serve.hpp"
#include "luxel/util/error.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

struct Reader {
    const std::string& file;
    const toml::table& table;

    std::string where(const std::string& key) const {
        const toml::node* node = table.get(key);
        return fmt::format("{}:{}: {}", file, node ? node->source().begin.line : 0, key);
    }
    [[noreturn]] void bad(const std::string& key, const std::string& what) const {
        throw UsageError(where(key) + ": " + what);
    }
    std::optional<std::string> text(const std::string& key) const {
        const toml::node* node = table.get(key);
        if (!node) return std::nullopt;
        if (!node->is_string()) bad(key, "expected a string");
        return node->value<std::string>();
    }
    std::optional<double> number(const std::string& key, double lo, double hi) const {
        const toml::node* node = table.get(key);
        if (!node) return std::nullopt;
        if (!node->is_number()) bad(key, "expected a number");
        const double v = *node->value<double>();
        if (!(v >= lo && v <= hi)) bad(key, fmt::format("{} is outside {}..{}", v, lo, hi));
        return v;
    }
    std::vector<std::string> paths(const std::string& key, const fs::path& folder) const {
        const toml::node* node = table.get(key);
        std::vector<std::string> out;
        if (!node) return out;
        const toml::array* array = node->as_array();
        if (!array) bad(key, "expected an array of paths");
        for (const toml::node& item : *array) {
            if (!item.is_string()) bad(key, "expected an array of paths");
            const fs::path p(*item.value<std::string>());
            out.push_back(p.is_absolute() ? p.string() : (folder / p).lexically_normal().string());
        }
        return out;
    }
};

size_t megabytes(double mb) { return size_t(mb * 1048576.0); }

}  // namespace

ServeOptions loadServeConfig(const std::string& path, ServeOptions options) {
    toml::table root;
    try {
        root = toml::parse_file(path);
    } catch (const toml::parse_error& e) {
        throw UsageError(fmt::format("{}:{}: {}", path, e.source().begin.line, e.description()));
    }
    static const std::vector<std::string> kKeys = {
        "roots", "game_dirs", "palette", "listen", "workers", "queue", "connections", "map_cache_mb", "texture_cache_mb",
        "image_cache_mb", "request_timeout", "request_memory_mb", "upload_limit_mb", "max_size", "access_log", "uploads",
        "max_connections", "max_connections_per_ip", "header_timeout", "idle_timeout", "min_body_rate", "rate_limit",
        "rate_burst", "rescan", "io_threads"};
    std::string known;
    for (const std::string& k : kKeys) known += (known.empty() ? "" : ", ") + k;
    for (const auto& [key, node] : root)
        if (std::find(kKeys.begin(), kKeys.end(), std::string(key.str())) == kKeys.end())
            throw UsageError(fmt::format("{}:{}: {}: unknown key (known keys: {})", path, node.source().begin.line,
                                         key.str(), known));
    const Reader r{path, root};
    const fs::path folder = fs::path(path).parent_path();
    if (auto roots = r.paths("roots", folder); !roots.empty()) options.roots = roots;
    if (auto dirs = r.paths("game_dirs", folder); !dirs.empty()) options.gameDirs = dirs;
    if (auto v = r.text("palette")) options.palette = (folder / *v).lexically_normal().string();
    if (auto v = r.text("listen")) options.listen = *v;
    if (auto v = r.number("workers", 1, 256)) options.workers = int(*v);
    if (auto v = r.number("queue", 0, 100000)) options.queue = int(*v);
    if (auto v = r.number("connections", 1, 4096)) {  // the old name of uploads
        std::fprintf(stderr, "luxel: warning: %s: connections is now uploads (open connections cost no thread; "
                             "max_connections bounds them)\n", r.where("connections").c_str());
        options.uploads = int(*v);
    }
    if (auto v = r.number("uploads", 1, 4096)) options.uploads = int(*v);
    if (auto v = r.number("max_connections", 16, 1000000)) options.maxConnections = int(*v);
    if (auto v = r.number("max_connections_per_ip", 1, 1000000)) options.maxConnectionsPerAddress = int(*v);
    if (auto v = r.number("header_timeout", 0.05, 3600)) options.headerSeconds = *v;
    if (auto v = r.number("idle_timeout", 0.05, 3600)) options.idleSeconds = *v;
    if (auto v = r.number("min_body_rate", 0, 1048576)) options.minBodyBytesPerSecond = *v * 1024;
    if (auto v = r.number("rate_limit", 0, 1e6)) options.renderRate = *v;
    if (auto v = r.number("rate_burst", 1, 1e6)) options.renderBurst = *v;
    if (auto v = r.number("rescan", 0, 1e7)) options.rescanSeconds = *v;
    if (auto v = r.number("io_threads", 1, 64)) options.ioThreads = int(*v);
    if (auto v = r.number("map_cache_mb", 0, 1 << 20)) options.mapCacheBytes = megabytes(*v);
    if (auto v = r.number("texture_cache_mb", 0, 1 << 20)) options.textureCacheBytes = megabytes(*v);
    if (auto v = r.number("image_cache_mb", 0, 1 << 20)) options.imageCacheBytes = megabytes(*v);
    if (auto v = r.number("request_timeout", 0.001, 86400)) options.requestSeconds = *v;
    if (auto v = r.number("request_memory_mb", 1, 1 << 20)) options.requestMemoryBytes = megabytes(*v);
    if (auto v = r.number("upload_limit_mb", 0.001, 1 << 14)) options.uploadBytes = megabytes(*v);
    if (auto v = r.text("max_size")) {
        int w = 0, h = 0;
        if (std::sscanf(v->c_str(), "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 16384 || h > 16384)
            r.bad("max_size", "'" + *v + "' is not WxH (at most 16384x16384)");
        options.maxWidth = w, options.maxHeight = h;
    }
    if (const toml::node* node = root.get("access_log")) {
        if (!node->is_boolean()) r.bad("access_log", "expected true or false");
        options.accessLog = *node->value<bool>();
    }
    return options;
}

}  // namespace luxel
