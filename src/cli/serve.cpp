// `luxel serve [ROOT...]`: thumbnails over HTTP (serve/http_server.cpp); settings from flags and/or a TOML file.
#include <iostream>

#include "commands.hpp"
#include "luxel/serve/serve.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/frame_heap.hpp"

namespace luxel::cli {
namespace {

struct ServeArgs {
    std::string config;
    ServeOptions flags;  // what the command line set (applied over the config file)
    double mapCacheMb = 0, textureCacheMb = 0, imageCacheMb = 0, requestMemoryMb = 0, uploadMb = 0, minBodyKib = 0;
    int connections = 0;  // the old name of --uploads
    std::string maxSize;
};

size_t mb(double v) { return size_t(v * 1048576.0); }

}  // namespace

static void addServeOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<ServeArgs>();
    ServeOptions& f = args->flags;
    const ServeOptions d;
    sub->add_option("roots", f.roots, "folders, game directories, archives or map files whose maps are served");
    sub->add_option("--config", args->config, "a TOML file of these settings (keys: the long options with '_')");
    sub->add_option("--game-dir", f.gameDirs, "game folder for textures, shaders and models (repeatable)");
    sub->add_option("--palette", f.palette, "Quake 2 colormap.pcx for .wal textures");
    sub->add_option("--listen", f.listen, "HOST:PORT to listen on; port 0 picks a free one")->default_str(d.listen);
    sub->add_option("--workers", f.workers, "renders at once (default: the cores)")->check(CLI::Range(1, 256));
    sub->add_option("--queue", f.queue, "renders waiting for a worker; past it 503")->default_val(d.queue)->check(CLI::Range(0, 100000));
    sub->add_option("--uploads", f.uploads, "request bodies received at once (each held in memory); past it 503")->default_val(d.uploads)->check(CLI::Range(1, 4096));
    sub->add_option("--connections", args->connections, "the old name of --uploads")->group("")->check(CLI::Range(1, 4096));
    sub->add_option("--max-connections", f.maxConnections, "open connections at most; past it new ones are closed at once")->default_val(d.maxConnections)->check(CLI::Range(16, 1000000));
    sub->add_option("--max-connections-per-ip", f.maxConnectionsPerAddress, "open connections from one client address; past it 429")->default_val(d.maxConnectionsPerAddress)->check(CLI::Range(1, 1000000));
    sub->add_option("--header-timeout", f.headerSeconds, "seconds for a request's whole head (line and headers); past it 408 and closed")->default_val(d.headerSeconds)->check(CLI::Range(0.05, 3600.0));
    sub->add_option("--idle-timeout", f.idleSeconds, "seconds an idle keep-alive connection stays open")->default_val(d.idleSeconds)->check(CLI::Range(0.05, 3600.0));
    sub->add_option("--min-body-rate", args->minBodyKib, "KiB/s a request body must keep up after its first second; slower: 408 and closed (0: no rate, the request timeout bounds it)")->default_val(d.minBodyBytesPerSecond / 1024)->check(CLI::Range(0.0, 1048576.0));
    sub->add_option("--rate-limit", f.renderRate, "renders a second per client address, a token bucket (cached pictures are not counted); 0: none")->default_val(d.renderRate)->check(CLI::Range(0.0, 1e6));
    sub->add_option("--rate-burst", f.renderBurst, "renders one address may make at once before --rate-limit applies (default: twice the rate)")->check(CLI::Range(1.0, 1e6));
    sub->add_option("--rescan", f.rescanSeconds, "list the roots again every SECONDS (SIGHUP does it at once); 0: only on SIGHUP")->default_val(d.rescanSeconds)->check(CLI::Range(0.0, 1e7));
    sub->add_option("--io-threads", f.ioThreads, "threads running the network loop (default: the cores, at most 4)")->check(CLI::Range(1, 64));
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
            keepFrameMemory();
            ServeOptions o = args->config.empty() ? ServeOptions{} : loadServeConfig(args->config);
            const ServeOptions& f = args->flags;
            auto given = [&](const char* name) { return sub->count(name) > 0; };
            if (!f.roots.empty()) o.roots = f.roots;
            if (given("--game-dir")) o.gameDirs = f.gameDirs;
            if (given("--palette")) o.palette = f.palette;
            if (given("--listen")) o.listen = f.listen;
            if (given("--workers")) o.workers = f.workers;
            if (given("--queue")) o.queue = f.queue;
            if (given("--connections")) {
                std::cerr << "luxel: warning: --connections is now --uploads (open connections cost no thread; "
                             "--max-connections bounds them)\n";
                o.uploads = args->connections;
            }
            if (given("--uploads")) o.uploads = f.uploads;
            if (given("--max-connections")) o.maxConnections = f.maxConnections;
            if (given("--max-connections-per-ip")) o.maxConnectionsPerAddress = f.maxConnectionsPerAddress;
            if (given("--header-timeout")) o.headerSeconds = f.headerSeconds;
            if (given("--idle-timeout")) o.idleSeconds = f.idleSeconds;
            if (given("--min-body-rate")) o.minBodyBytesPerSecond = args->minBodyKib * 1024;
            if (given("--rate-limit")) o.renderRate = f.renderRate;
            if (given("--rate-burst")) o.renderBurst = f.renderBurst;
            if (given("--rescan")) o.rescanSeconds = f.rescanSeconds;
            if (given("--io-threads")) o.ioThreads = f.ioThreads;
            if (given("--map-cache-mb")) o.mapCacheBytes = mb(args->mapCacheMb);
            if (given("--texture-cache-mb")) o.textureCacheBytes = mb(args->textureCacheMb);
            if (given("--image-cache-mb")) o.imageCacheBytes = mb(args->imageCacheMb);
            if (given("--request-timeout")) o.requestSeconds = f.requestSeconds;
            if (given("--request-memory-mb")) o.requestMemoryBytes = mb(args->requestMemoryMb);
            if (given("--upload-limit-mb")) o.uploadBytes = mb(args->uploadMb);
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

const Command kServeCommand{
    "serve",
    "Serve thumbnails of the maps under ROOTs over HTTP, with warm caches",
    addServeOptions};

}  // namespace luxel::cli
