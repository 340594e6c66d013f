#pragma once
// `luxel serve`: thumbnails of the maps under configured roots (and of uploaded maps) over HTTP/1.1, from a
// long-lived process whose caches stay warm: decoded maps (LRU by bytes), textures (the batch's process
// cache) and encoded images (LRU keyed by ETag). Renders through render/map_view.hpp, as `luxel render` and
// `luxel batch` do, so a served image is byte for byte the file `luxel render` writes for the same options.
// The network side is event-driven (Boost.Beast on Asio: src/serve/connection.cpp): an open connection costs a
// timer and a buffer, not a thread, whatever its client does; nothing here parses HTTP itself.
#include <cstddef>
#include <string>
#include <vector>

namespace luxel {

struct ServeOptions {
    std::vector<std::string> roots;     // folders, game directories, archives, map files (as `luxel batch` inputs)
    std::vector<std::string> gameDirs;  // content (textures, shader scripts, models) for every map
    std::string palette;                // Quake 2 colormap.pcx
    std::string listen = "127.0.0.1:8080";  // host:port; port 0 picks a free one (see portFile)
    int workers = 0;                    // renders at once (0: the machine's cores)
    int queue = 16;                     // renders waiting for a worker; past it a request gets 503
    int uploads = 32;                   // request bodies received at once (each held in memory); past it 503
    int maxConnections = 10000;         // open connections at most; past it a new one is closed at once
    int maxConnectionsPerAddress = 32;  // open connections from one client address; past it 429 and closed
    double headerSeconds = 10;          // the whole request head (line and headers) must arrive within this
    double idleSeconds = 5;             // a keep-alive connection with no request begun is closed after this
    double minBodyBytesPerSecond = 16384;  // a request body slower than this (after its first second) is cut off
    double renderRate = 0;              // renders a second per client address (token bucket); 0: no limit
    double renderBurst = 0;             // the bucket's size (0: twice the rate, at least 1)
    double rescanSeconds = 0;           // list the roots again this often (0: only on SIGHUP)
    int ioThreads = 0;                  // threads running the network loop (0: the cores, at most 4)
    size_t mapCacheBytes = size_t(1) << 30;
    size_t textureCacheBytes = size_t(512) << 20;
    size_t imageCacheBytes = size_t(64) << 20;
    double requestSeconds = 30;             // a request past it gets 504; its work stops at the next stage
    size_t requestMemoryBytes = size_t(1) << 30;  // one map's decoded data + its textures + the frame
    size_t uploadBytes = size_t(64) << 20;  // POST /render bodies past it get 413
    int maxWidth = 3840, maxHeight = 2160;  // largest size= a request may ask for
    std::string portFile;               // written (atomically) with the port once listening
    bool accessLog = true;              // one line per request on stderr
    int testDelayMs = 0;                // tests only: each render holds its worker this long
};

// A serve.toml file over `options` (the defaults, or what the command line set): keys as the long options with
// '_' ("roots", "game_dirs", "listen", "workers", "queue", "map_cache_mb", "request_timeout", ...); relative
// paths against the file's folder. Throws UsageError "file:line: key: what".
ServeOptions loadServeConfig(const std::string& path, ServeOptions options = {});

// Lists the roots, binds, serves until SIGTERM or SIGINT, then finishes the requests in flight (new ones
// get 503) and returns 0. Throws UsageError when a root cannot be listed or the address cannot be bound.
int runServer(const ServeOptions& options);

}  // namespace luxel
