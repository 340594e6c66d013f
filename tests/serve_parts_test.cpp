// The service's parts without HTTP: the byte-bounded LRU, the worker gate, the canonical view query, the
// settings file, request targets, log escaping, the texture budget, the per-client limits, form bodies and the catalogue's
// rescans. Expected values are worked out by hand here.
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <chrono>
#include <future>
#include <thread>

#include "../src/serve/catalogue.hpp"
#include "../src/serve/client_limits.hpp"
#include "../src/serve/lru_cache.hpp"
#include "../src/serve/multipart_form.hpp"
#include "../src/serve/request_limits.hpp"
#include "../src/serve/request_target.hpp"
#include "../src/serve/view_query.hpp"
#include "../src/material/texture_cache.hpp"
#include "luxel/serve/serve.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "support/batch_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::serve;

TEST_CASE("serve parts: the LRU keeps the most recently used entries within its bytes", "[serve_parts]") {
    ByteLru<int> lru(100);
    lru.put("a", std::make_shared<int>(1), 40);
    lru.put("b", std::make_shared<int>(2), 40);
    REQUIRE(lru.get("a"));  // a is now the most recent: c pushes out b
    lru.put("c", std::make_shared<int>(3), 40);
    CHECK(lru.get("b") == nullptr);
    CHECK(*lru.get("a") == 1);
    CHECK(*lru.get("c") == 3);
    CacheFigures f = lru.figures();
    CHECK(f.entries == 2);
    CHECK(f.bytes == 80);
    CHECK(f.evictions == 1);
    CHECK(f.hits == 3);
    CHECK(f.misses == 1);
    lru.put("huge", std::make_shared<int>(4), 101);  // larger than the whole cache: not kept, nothing dropped
    CHECK(lru.get("huge") == nullptr);
    CHECK(lru.figures().entries == 2);
    lru.put("a", std::make_shared<int>(5), 10);  // replaced: its bytes counted once
    CHECK(lru.figures().bytes == 50);
    CHECK(*lru.get("a") == 5);
}

TEST_CASE("serve parts: the gate admits workers, queues up to its length, then refuses", "[serve_parts]") {
    WorkGate gate(1, 1);
    const Deadline later = Deadline::after(30);
    auto first = std::make_unique<WorkGate::Ticket>(gate.enter(later));
    CHECK(gate.running() == 1);
    // The second waits in the queue; a third finds the queue full.
    auto second = std::async(std::launch::async, [&] { WorkGate::Ticket s = gate.enter(later); return gate.running(); });
    while (gate.waiting() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    try {
        (void)gate.enter(later);
        FAIL("a full queue admitted a request");
    } catch (const ServeError& e) {
        CHECK(e.status == 503);
        CHECK(e.retryAfter == 1);
    }
    first.reset();  // the worker is free: the waiting one runs
    CHECK(second.get() == 1);
    CHECK(gate.running() == 0);
    // One that waits past its deadline gets 504.
    WorkGate::Ticket busy = gate.enter(later);
    try {
        (void)gate.enter(Deadline::after(0.05));
        FAIL("a request waited past its deadline");
    } catch (const ServeError& e) {
        CHECK(e.status == 504);
    }
    gate.close();
    CHECK_THROWS_AS(gate.enter(later), ServeError);
}

TEST_CASE("serve parts: view queries have one canonical key and the CLI's errors", "[serve_parts]") {
    using Params = std::multimap<std::string, std::string>;
    const ViewQuery plain = parseViewQuery({}, "png", 3840, 2160);
    // Defaults spelt out, in another order, numbers written differently: the same picture, the same key.
    const ViewQuery spelt = parseViewQuery(Params{{"size", "512x288"}, {"mode", "auto"}, {"camera", "best"}, {"fov", "90.0"},
                                                  {"time", "0"}, {"spp", "1"}, {"world-only", "0"}},
                                           "png", 3840, 2160);
    CHECK(plain.key == spelt.key);
    CHECK(plain.key == "camera=best&format=png&fov=90&look=&mode=auto&size=512x288&spp=1&styles=&time=0&transparent=0&"
                       "unlit=&world-only=0");
    CHECK(parseViewQuery(Params{{"size", "640x360"}}, "png", 3840, 2160).key != plain.key);
    CHECK(parseViewQuery({}, "jpg", 3840, 2160).key != plain.key);
    const ViewRequest r = parseViewQuery(Params{{"camera", "spawn:2"}, {"size", "320x180"}, {"mode", "lit"}}, "png", 3840, 2160).request();
    CHECK(r.camera == "spawn:2");
    CHECK(r.width == 320);
    CHECK(r.height == 180);
    CHECK(r.mode == "lit");
    CHECK(r.ldrOutput);
    CHECK_FALSE(r.figures);
    auto error = [](const Params& p, const std::string& format = "png") {
        try {
            (void)parseViewQuery(p, format, 1920, 1080);
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK_THAT(error({{"size", "1921x10"}}), Catch::Contains("query: size: 1921x10 is outside 1x1..1920x1080"));
    CHECK_THAT(error({{"camera", "nowhere"}}), Catch::Contains("query: camera: unknown camera 'nowhere'"));
    CHECK_THAT(error({{"mode", "pretty"}}), Catch::Contains("mode") && Catch::Contains("pretty"));
    CHECK_THAT(error({{"look", "sepia"}}), Catch::Contains("query: look:"));
    CHECK_THAT(error({{"fov", "wide"}}), Catch::Contains("query: fov: 'wide' is not a number"));
    CHECK_THAT(error({{"fov", "0"}}), Catch::Contains("query: fov: 0 is outside 1..179 degrees"));
    CHECK_THAT(error({{"fov", "179.5"}}), Catch::Contains("query: fov: 179.5 is outside 1..179 degrees"));
    CHECK(error({{"fov", "179"}}).empty());
    CHECK_THAT(error({{"size", "64x36"}, {"size", "32x18"}}), Catch::Contains("query: size: given twice"));
    CHECK_THAT(error({{"colour", "1"}}), Catch::Contains("query: colour: unknown option"));
    CHECK_THAT(error({}, "gif"), Catch::Contains("query: format: 'gif' is not png, jpg or webp"));
}

TEST_CASE("serve parts: log lines escape what requests and files hold", "[serve_parts]") {
    CHECK(escapeForLog("plain /maps/x.png?size=1x1") == "plain /maps/x.png?size=1x1");
    CHECK(escapeForLog(std::string("a\nb\0c", 5)) == "a\\x0ab\\x00c");
    CHECK(escapeForLog("\x1b[31mred \"q\" \\") == "\\x1b[31mred \\\"q\\\" \\\\");
    CHECK(escapeForLog("\xc3\xa9") == "\\xc3\\xa9");
}

TEST_CASE("serve parts: the settings file, its relative paths and its errors", "[serve_parts]") {
    const std::string dir = test::tempDir("serve-config");
    test::writeTextFile(dir + "/serve.toml", "roots = [\"maps\", \"/abs/baseoa\"]\nlisten = \"0.0.0.0:9000\"\nworkers = 3\n"
                                             "queue = 5\nmap_cache_mb = 2\nrequest_timeout = 1.5\nmax_size = \"800x600\"\n"
                                             "access_log = false\nheader_timeout = 2.5\nidle_timeout = 7\n"
                                             "min_body_rate = 8\nmax_connections_per_ip = 4\nrate_limit = 0.5\n"
                                             "rescan = 60\nconnections = 3\n");
    const ServeOptions o = loadServeConfig(dir + "/serve.toml");
    REQUIRE(o.roots.size() == 2);
    CHECK(o.roots[0] == dir + "/maps");
    CHECK(o.roots[1] == "/abs/baseoa");
    CHECK(o.listen == "0.0.0.0:9000");
    CHECK(o.workers == 3);
    CHECK(o.queue == 5);
    CHECK(o.mapCacheBytes == 2u << 20);
    CHECK(o.requestSeconds == 1.5);
    CHECK(o.maxWidth == 800);
    CHECK(o.maxHeight == 600);
    CHECK_FALSE(o.accessLog);
    CHECK(o.headerSeconds == 2.5);
    CHECK(o.idleSeconds == 7);
    CHECK(o.minBodyBytesPerSecond == 8 * 1024);
    CHECK(o.maxConnectionsPerAddress == 4);
    CHECK(o.renderRate == 0.5);
    CHECK(o.rescanSeconds == 60);
    CHECK(o.uploads == 3);  // "connections", the old name of "uploads"
    CHECK(o.imageCacheBytes == ServeOptions{}.imageCacheBytes);  // not in the file: the default
    CHECK(o.maxConnections == ServeOptions{}.maxConnections);
    test::writeTextFile(dir + "/bad.toml", "roots = []\n\nworker = 2\n");
    CHECK_THROWS_WITH(loadServeConfig(dir + "/bad.toml"), Catch::Contains("bad.toml:3: worker: unknown key"));
    test::writeTextFile(dir + "/range.toml", "queue = -1\n");
    CHECK_THROWS_WITH(loadServeConfig(dir + "/range.toml"), Catch::Contains("range.toml:1: queue: -1 is outside 0..100000"));
}

TEST_CASE("serve parts: a texture budget refuses what is past it, and claimed sizes past the limit", "[serve_parts]") {
    clearTextureCache();
    auto job = [](const std::string& key, int side) {
        return TextureJob{key, key, [side] {
                              RgbaImage img;
                              img.width = img.height = side;
                              img.rgba.assign(size_t(side) * size_t(side) * 4, 128);
                              return img;
                          }};
    };
    // What one 64x64 texture takes as the cache counts it (mip chain, padding); a budget of one and a half of
    // those holds one, not two. One thread: the order is the jobs' order.
    (void)loadTextures({job("budget-size", 64)});
    const size_t one = textureCacheStats().bytes;
    REQUIRE(one >= 64 * 64 * 4);
    clearTextureCache();
    std::vector<TextureJob> jobs = {job("budget-a", 64), job("budget-b", 64), job("budget-c", 64)};
    const auto serial = [&] { return loadTextures(jobs, one + one / 2); };
    std::vector<TextureResult> r;
    {
        tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
        r = serial();
    }
    REQUIRE(r.size() == 3);
    CHECK(r[0].texture);
    CHECK_FALSE(r[0].overLimit);
    CHECK_FALSE(r[1].texture);
    CHECK(r[1].overLimit);
    CHECK(r[2].overLimit);
    CHECK_THAT(r[1].error, Catch::Contains("memory limit"));
    // A budget below one texture refuses even the first (its memory was held only while it was measured).
    clearTextureCache();
    CHECK(loadTextures({job("budget-d", 64)}, one - 1)[0].overLimit);
    // A decoder's LimitError (a claimed size) is overLimit too; any other failure is not.
    const std::vector<TextureResult> limits = loadTextures(
        {TextureJob{"limit-x", "huge.tga", [] () -> RgbaImage { throw LimitError("huge.tga", "image", 0, "60000x60000"); }},
         TextureJob{"limit-y", "bad.tga", [] () -> RgbaImage { throw DecodeError("bad.tga", "image", 0, "damaged"); }}});
    CHECK(limits[0].overLimit);
    CHECK_FALSE(limits[1].overLimit);
    clearTextureCache();
}

TEST_CASE("serve parts: connections per address and the render token bucket", "[serve_parts]") {
    ConnectionCounts counts(2);
    CHECK(counts.open("10.0.0.1"));
    CHECK(counts.open("10.0.0.1"));
    CHECK_FALSE(counts.open("10.0.0.1"));  // the third from one address
    CHECK(counts.open("10.0.0.2"));        // another address has its own count
    CHECK(counts.openFrom("10.0.0.1") == 2);
    counts.close("10.0.0.1");
    CHECK(counts.open("10.0.0.1"));
    counts.close("10.0.0.2");
    CHECK(counts.openFrom("10.0.0.2") == 0);

    // 0.5 renders a second, bursts of 2: two at once, then one every 2 s; the wait is rounded up to seconds.
    RenderRateLimit limit(0.5, 2);
    using std::chrono::milliseconds;
    const auto t0 = RenderRateLimit::Clock::time_point() + std::chrono::hours(1);
    int retry = 0;
    CHECK(limit.take("a", t0, retry));
    CHECK(limit.take("a", t0, retry));
    CHECK_FALSE(limit.take("a", t0, retry));
    CHECK(retry == 2);  // a whole token takes 2 s
    CHECK_FALSE(limit.take("a", t0 + milliseconds(1500), retry));
    CHECK(retry == 1);  // 0.75 of a token there: 0.5 s more, rounded up
    CHECK(limit.take("a", t0 + milliseconds(2000), retry));
    CHECK(limit.take("b", t0 + milliseconds(2000), retry));  // its own bucket
    // A bucket that has refilled is forgotten (after burst / rate = 4 s without use).
    CHECK(limit.addresses() == 2);
    CHECK(limit.take("c", t0 + milliseconds(10000), retry));
    CHECK(limit.addresses() == 1);
    RenderRateLimit off(0, 0);
    for (int i = 0; i < 100; ++i) CHECK(off.take("a", t0, retry));
}

TEST_CASE("serve parts: form bodies as browsers and curl send them", "[serve_parts]") {
    CHECK(formBoundary("multipart/form-data; boundary=----WebKitFormBoundaryx7") == "----WebKitFormBoundaryx7");
    CHECK(formBoundary("Multipart/Form-Data;boundary=\"a b\"") == "a b");
    CHECK_FALSE(formBoundary("application/octet-stream"));
    CHECK_FALSE(formBoundary("multipart/form-data"));  // no boundary
    CHECK_FALSE(formBoundary("multipart/form-data; boundary=" + std::string(71, 'x')));  // past RFC 2046's 70

    // A preamble, a text field, a file with binary bytes (CR LF and a near-boundary inside), the closing line.
    const std::string file = std::string("IBSP\0\r\n--b0und\r\n-", 17);
    const std::string body = "preamble\r\n--b0undary\r\nContent-Disposition: form-data; name=\"size\"\r\n\r\n64x36\r\n"
                             "--b0undary\r\nContent-Disposition: form-data; name=\"map\"; filename=\"my \\\"room\\\".bsp\"\r\n"
                             "Content-Type: application/octet-stream\r\n\r\n" + file + "\r\n--b0undary--\r\nepilogue";
    const auto parts = parseForm(body, "b0undary");
    REQUIRE(parts);
    REQUIRE(parts->size() == 2);
    CHECK((*parts)[0].name == "size");
    CHECK((*parts)[0].content == "64x36");
    CHECK((*parts)[1].name == "map");
    CHECK((*parts)[1].fileName == "my \"room\".bsp");
    CHECK((*parts)[1].content == file);
    // Broken framing: no boundary at all, no closing boundary, a header block without its blank line.
    CHECK_FALSE(parseForm("just bytes", "b0undary"));
    CHECK_FALSE(parseForm("--b0undary\r\nContent-Disposition: form-data; name=\"map\"\r\n\r\nabc", "b0undary"));
    CHECK_FALSE(parseForm("--b0undary\r\nContent-Disposition: form-data; name=\"map\"\r\n--b0undary--", "b0undary"));
    const auto none = parseForm("--b0undary--\r\n", "b0undary");
    REQUIRE(none);
    CHECK(none->empty());
}

TEST_CASE("serve parts: a rescan reads again only the files that changed", "[serve_parts]") {
    const std::string dir = test::tempDir("serve-rescan-parts");
    test::writeTextFile(dir + "/a.bsp", test::roomMap(1));
    test::writeTextFile(dir + "/b.bsp", test::roomMap(2));
    const Catalogue first = buildCatalogue({dir}, {});
    REQUIRE(first.maps.size() == 2);
    REQUIRE(first.find("a"));
    const std::string hashA = first.find("a")->hash, hashB = first.find("b")->hash;
    CHECK(hashA != hashB);
    // Rewritten with other bytes of the same length: the stamp changes, the new hash is read.
    REQUIRE(test::roomMap(2).size() == test::roomMap(1).size());
    test::writeTextFile(dir + "/a.bsp", test::roomMap(2));
    const Catalogue second = buildCatalogue({dir}, {}, &first);
    CHECK(second.find("a")->hash == hashB);
    CHECK(second.find("b")->hash == hashB);
    // An unchanged stamp keeps the earlier reading, without reading the file: a reading planted in `previous`
    // under b's real stamp comes back.
    Catalogue planted = second;
    planted.maps[planted.byName.at("b")].hash = "planted";
    CHECK(buildCatalogue({dir}, {}, &planted).find("b")->hash == "planted");
}

TEST_CASE("serve parts: request targets are split and percent-decoded", "[serve_parts]") {
    // The path: %20 is a space, '+' stays (only forms turn '+' into a space), %2F is a slash inside a segment.
    const RequestTarget a = parseRequestTarget("/maps/My%20Maps/q3+dm1%2Fx.bsp/thumb.png?size=64x36&camera=best");
    CHECK(a.path == "/maps/My Maps/q3+dm1/x.bsp/thumb.png");
    REQUIRE(a.params.size() == 2);
    CHECK(a.params.find("size")->second == "64x36");
    CHECK(a.params.find("camera")->second == "best");
    // The query: '+' and %20 are spaces, %3D an '=' inside a value, a key without '=' has an empty value, an
    // empty key is dropped, repeated keys are kept in order.
    const RequestTarget b = parseRequestTarget("/x?styles=0%3DW&a+b=c%20d&flag&=v&k=1&k=2");
    CHECK(b.path == "/x");
    CHECK(b.params.find("styles")->second == "0=W");
    CHECK(b.params.find("a b")->second == "c d");
    CHECK(b.params.find("flag")->second == "");
    CHECK(b.params.count("") == 0);
    const auto [first, last] = b.params.equal_range("k");
    REQUIRE(std::distance(first, last) == 2);
    CHECK(first->second == "1");
    CHECK(std::next(first)->second == "2");
    // No query, an empty query, a stray '%' left as it is.
    CHECK(parseRequestTarget("/healthz").params.empty());
    CHECK(parseRequestTarget("/healthz?").path == "/healthz");
    CHECK(parseRequestTarget("/a%zz").path == "/a%zz");
}
