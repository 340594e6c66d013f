// `luxel serve [ROOT...]`: thumbnails over HTTP (serve/http_server.cpp); settings from flags and/or a TOML file.
#include <iostream>

#include "commands.hpp"
#include "luxel/serve/serve.hpp"
#include "luxel/util/error.hpp"

namespace luxel::cli {
namespace {

struct ServeArgs {
    std::string config;
    ServeOptions flags;  // what the command line set (applied over the config file)
    double mapCacheMb = 0, textureCacheMb = 0, imageCacheMb = 0, requestMemoryMb = 0, uploadMb = 0;
    std::string maxSize;
};

size_t mb(double v) { return size_t(v * 1048576.0); }

}  // namespace

void addServeCommand(CLI::App& app, Action& action) {
    auto args = std::make_shared<ServeArgs>();
    CLI::App* sub = app.add_subcommand("serve", "Serve thumbnails of the maps under ROOTs over HTTP, with warm caches");
    ServeOptions& f = args->flags;
    const ServeOptions d;
    sub->add_option("roots", f.roots, "folders, game directories, archives or map files whose maps are served");
    sub->add_option("--config", args->config, "a TOML file of these settings (keys: the long options with '_')");
    sub->add_option("--game-dir", f.gameDirs, "game folder for textures, shaders and models (repeatable)");
    sub->add_option("--palette", f.palette, "Quake 2 colormap.pcx for .wal textures");
    sub->add_option("--listen", f.listen, "HOST:PORT to listen on; port 0 picks a free one")->default_str(d.listen);
    sub->add_option("--workers", f.workers, "renders at once (default: the cores)")->check(CLI::Range(1, 256));
    sub->add_option("--queue", f.queue, "renders waiting for a worker; past it 503")->default_val(d.queue)->check(CLI::Range(0, 100000));
    sub->add_option("--connections", f.connections, "HTTP connections served at once")->default_val(d.connections)->check(CLI::Range(2, 4096));
    sub->add_option("--map-cache-mb", args->mapCacheMb, "decoded maps kept (MB)")->default_val(double(d.mapCacheBytes >> 20));
    sub->add_option("--texture-cache-mb", args->textureCacheMb, "decoded textures kept (MB)")->default_val(double(d.textureCacheBytes >> 20));
    sub->add_option("--image-cache-mb", args->imageCacheMb, "encoded images kept (MB)")->default_val(double(d.imageCacheBytes >> 20));
    sub->add_option("--request-timeout", f.requestSeconds, "seconds a request may take; past it 504")->default_val(d.requestSeconds)->check(CLI::Range(0.001, 86400.0));
    sub->add_option("--request-memory-mb", args->requestMemoryMb, "memory one request's map, textures and frame may take (MB); past it 422")->default_val(double(d.requestMemoryBytes >> 20));
    sub->add_option("--upload-limit-mb", args->uploadMb, "largest POST /render body (MB); past it 413")->default_val(double(d.uploadBytes >> 20));
    sub->add_option("--max-size", args->maxSize, "largest size= a request may ask for")->default_str("3840x2160");
    sub->add_option("--port-file", f.portFile, "write the port listened on to this file (for --listen HOST:0)");
    sub->add_flag("!--no-access-log", f.accessLog, "no line per request on stderr");
    sub->add_option("--test-delay-ms", f.testDelayMs, "tests: each render holds its worker this long")->group("");
    sub->callback([args, sub, &action] {
        action = [args, sub] {
            ServeOptions o = args->config.empty() ? ServeOptions{} : loadServeConfig(args->config);
            const ServeOptions& f = args->flags;
            auto given = [&](const char* name) { return sub->count(name) > 0; };
            if (!f.roots.empty()) o.roots = f.roots;
            if (given("--game-dir")) o.gameDirs = f.gameDirs;
            if (given("--palette")) o.palette = f.palette;
            if (given("--listen")) o.listen = f.listen;
            if (given("--workers")) o.workers = f.workers;
            if (given("--queue") || args->config.empty()) o.queue = f.queue;
            if (given("--connections") || args->config.empty()) o.connections = f.connections;
            if (given("--map-cache-mb") || args->config.empty()) o.mapCacheBytes = mb(args->mapCacheMb);
            if (given("--texture-cache-mb") || args->config.empty()) o.textureCacheBytes = mb(args->textureCacheMb);
            if (given("--image-cache-mb") || args->config.empty()) o.imageCacheBytes = mb(args->imageCacheMb);
            if (given("--request-timeout") || args->config.empty()) o.requestSeconds = f.requestSeconds;
            if (given("--request-memory-mb") || args->config.empty()) o.requestMemoryBytes = mb(args->requestMemoryMb);
            if (given("--upload-limit-mb") || args->config.empty()) o.uploadBytes = mb(args->uploadMb);
            if (given("--max-size")) {
                int w = 0, h = 0;
                if (std::sscanf(args->maxSize.c_str(), "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 16384 || h > 16384)
                    throw UsageError("--max-size '" + args->maxSize + "': expected WxH (at most 16384x16384)");
                o.maxWidth = w, o.maxHeight = h;
            }
            if (given("--port-file")) o.portFile = f.portFile;
            if (given("--no-access-log")) o.accessLog = false;
            o.testDelayMs = f.testDelayMs;
            if (o.roots.empty()) throw UsageError("serve: no roots: name folders, game directories or archives of maps");
            return runServer(o);
        };
    });
}

}  // namespace luxel::cli
