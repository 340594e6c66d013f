// `luxel serve` driven over real HTTP: a real server process on an ephemeral port (support/serve_process),
// requests from cpp-httplib's client. What is checked comes from outside the server: the bytes `luxel render`
// writes for the same options, hashes computed here, HTTP's rules for ETags, the limits it was started with.
#include <catch2/catch.hpp>
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <xxhash.h>

#include <filesystem>
#include <fmt/format.h>
#include <future>
#include <thread>

#include "luxel/image/image.hpp"
#include "support/batch_fixtures.hpp"
#include "support/pak_writer.hpp"
#include "support/q3_writer.hpp"
#include "support/serve_process.hpp"
#include "support/test_paths.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string hashOf(const std::string& bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

// A folder of two synthetic maps (a root that is no game folder: no maps/ and no pk3 directly in it) and,
// beside it, a map that a symlink inside the root leads out to.
struct Root {
    std::string dir, outside;
    Root() {
        const std::string base = tempDir("serve-root");
        dir = base + "/root";
        outside = base + "/outside";
        writeTextFile(dir + "/set/room-a.bsp", roomMap(1));
        writeTextFile(dir + "/set/room-b.bsp", roomMap(2));
        writeTextFile(outside + "/secret.bsp", roomMap(3));
        fs::create_symlink(outside + "/secret.bsp", dir + "/set/secret.bsp");
    }
};

std::string error(const httplib::Result& r) {
    const json body = json::parse(r->body, nullptr, false);
    return body.is_object() && body.contains("error") ? body["error"].get<std::string>() : "(no JSON error: " + r->body + ")";
}

int status(const httplib::Result& r) { return r ? r->status : -1; }

// A TGA header claiming width x height, 24 bits, and a few bytes of pixels.
std::string tgaClaiming(int width, int height) {
    std::string t(18, '\0');
    t[2] = 2;  // uncompressed true-colour
    t[12] = char(width & 255), t[13] = char(width >> 8);
    t[14] = char(height & 255), t[15] = char(height >> 8);
    t[16] = 24;
    return t + std::string(64, '\x40');
}

}  // namespace

TEST_CASE("serve: endpoints, ETag and 304, path escapes, the same bytes as luxel render", "[serve]") {
    const Root root;
    std::vector<std::string> args = {root.dir};
    const auto shared = sharedMaps();
    if (shared) args.push_back(*shared + "/q3");
    else WARN("SKIPPED (real-map part): ../shared/maps not found beside the checkout");
    ServeProcess server(args);
    auto http = server.client();

    auto health = http->Get("/healthz");
    REQUIRE(status(health) == 200);
    CHECK(json::parse(health->body)["status"] == "ok");

    // The listing: names, formats, and the content hash of each file's bytes (XXH3-128, computed here).
    auto listing = http->Get("/maps");
    REQUIRE(status(listing) == 200);
    CHECK(listing->get_header_value("Content-Type") == "application/json");
    std::map<std::string, json> maps;
    const json listed = json::parse(listing->body);
    for (const json& m : listed["maps"]) maps[m["name"].get<std::string>()] = m;
    REQUIRE(maps.count("room-a"));
    REQUIRE(maps.count("room-b"));
    CHECK_FALSE(maps.count("secret"));  // its file lies outside the root once the symlink is resolved
    CHECK(maps["room-a"]["format"] == "Quake 3 IBSP v46");
    CHECK(maps["room-a"]["hash"] == hashOf(roomMap(1)));
    CHECK(maps["room-b"]["hash"] == hashOf(roomMap(2)));

    // An image, then the file `luxel render` writes for the same map and options: byte for byte.
    const std::string out = tempDir("serve-render");
    struct Case {
        std::string url, map, renderArgs, ext;
    };
    std::vector<Case> cases = {
        {"/maps/room-a.png?size=96x54", root.dir + "/set/room-a.bsp", "--size 96x54", "png"},
        {"/maps/room-b.jpg?size=64x36&mode=lightmap", root.dir + "/set/room-b.bsp", "--size 64x36 --mode lightmap", "jpg"},
        {"/maps/room-a.webp?size=80x45&camera=overview", root.dir + "/set/room-a.bsp", "--size 80x45 --camera overview", "webp"},
    };
    if (shared) {
        const std::string real = *shared + "/q3/oa088_aggressor.bsp";
        cases.push_back({"/maps/oa088_aggressor.png?size=320x180&camera=spawn:1", real, "--size 320x180 --camera spawn:1", "png"});
    }
    for (const Case& c : cases) {
        INFO(c.url);
        auto r = http->Get(c.url.c_str());
        REQUIRE(status(r) == 200);
        CHECK(r->get_header_value("Content-Type") == (c.ext == "jpg" ? "image/jpeg" : "image/" + c.ext));
        const std::string file = out + "/view." + c.ext;
        // The catalogue names maps by their absolute path, made lexically normal (symlinks kept, as the batch's work
        // list does): so must the command, since that path is in the image's metadata.
        const std::string path = fs::absolute(c.map).lexically_normal().string();
        const auto rendered = runLuxel("render " + q(path) + " -o " + q(file) + " " + c.renderArgs);
        REQUIRE(rendered.exitCode == 0);
        CHECK(r->body == readFileText(file));
    }

    // ETag and If-None-Match (RFC 9110: a list, weak comparison, "*").
    auto first = http->Get("/maps/room-a.png?size=96x54");
    REQUIRE(status(first) == 200);
    const std::string etag = first->get_header_value("ETag");
    CHECK(etag.size() > 2);
    CHECK(etag.front() == '"');
    CHECK(first->get_header_value("Cache-Control").find("max-age") != std::string::npos);
    auto again = http->Get("/maps/room-a.png?size=96x54");
    CHECK(again->get_header_value("ETag") == etag);
    CHECK(again->body == first->body);
    for (const std::string& header : {etag, "W/" + etag, "\"other\", " + etag, std::string("*")}) {
        auto r = http->Get("/maps/room-a.png?size=96x54", {{"If-None-Match", header}});
        INFO(header);
        CHECK(status(r) == 304);
        CHECK(r->body.empty());
        CHECK(r->get_header_value("ETag") == etag);
    }
    CHECK(status(http->Get("/maps/room-a.png?size=96x54", {{"If-None-Match", "\"other\""}})) == 200);
    // The same options in another order or spelling: the same picture, the same tag; other options: another tag.
    CHECK(http->Get("/maps/room-a.png?size=96x54&camera=best&mode=auto")->get_header_value("ETag") == etag);
    CHECK(http->Get("/maps/room-a.png?size=96x55")->get_header_value("ETag") != etag);
    CHECK(http->Get("/maps/room-b.png?size=96x54")->get_header_value("ETag") != etag);

    // Names resolve only in the catalogue: escapes, absolute paths, NULs and encodings get 404 or 400.
    for (const char* path : {"/maps/..%2F..%2Fetc%2Fpasswd.png", "/maps/%2e%2e%2fsecret.png", "/maps/..%2Foutside%2Fsecret.png",
                             "/maps/%2Fetc%2Fpasswd.png", "/maps/secret.png", "/maps/room-a.png/../../../etc/passwd",
                             "/maps/%252e%252e%252fsecret.png", "/../../etc/passwd", "/maps/room-a%00.png",
                             "/maps/room-a%00/../x.png", "/maps/room-a.gif", "/maps/ROOM-A.png"}) {
        INFO(path);
        auto r = http->Get(path);
        REQUIRE(r);
        CHECK((r->status == 404 || r->status == 400));
        CHECK_THAT(error(r), Catch::StartsWith("luxel: error: "));
    }
    // Bad options: 400 with the CLI's words.
    for (const char* path : {"/maps/room-a.png?camera=nowhere", "/maps/room-a.png?size=99999x10", "/maps/room-a.png?mode=x",
                             "/maps/room-a.png?size=64", "/maps/room-a.png?colour=1", "/maps/room-a.png?time=-1"}) {
        INFO(path);
        auto r = http->Get(path);
        CHECK(status(r) == 400);
        CHECK_THAT(error(r), Catch::StartsWith("luxel: error: query: "));
    }

    // The page: a thumbnail per map, an upload form, nothing loaded from elsewhere.
    auto page = http->Get("/");
    REQUIRE(status(page) == 200);
    CHECK(page->body.find("data-src=\"/maps/room-a.jpg") != std::string::npos);
    CHECK(page->body.find("<form id=\"upload\"") != std::string::npos);
    CHECK(page->body.find("src=\"http") == std::string::npos);
    CHECK(page->body.find("href=\"http") == std::string::npos);
    CHECK(page->body.find("url(http") == std::string::npos);

    // Metrics in Prometheus' text format, with what this test did.
    auto metrics = http->Get("/metrics");
    REQUIRE(status(metrics) == 200);
    const std::string& m = metrics->body;
    for (const char* family : {"luxel_http_requests_total{code=\"200\"}", "luxel_http_requests_total{code=\"304\"}",
                               "luxel_http_requests_total{code=\"404\"}", "luxel_http_request_duration_seconds_bucket{le=\"+Inf\"}",
                               "luxel_render_queue_depth", "luxel_cache_bytes{cache=\"maps\"}", "luxel_cache_bytes{cache=\"textures\"}",
                               "luxel_cache_bytes{cache=\"images\"}", "luxel_cache_hit_ratio{cache=\"images\"}",
                               "luxel_maps_loaded", "# TYPE luxel_http_request_duration_seconds histogram"})
        CHECK(m.find(family) != std::string::npos);
    // Two maps decoded (three with the real one) and kept; the images cache has answered repeats.
    CHECK(m.find(shared ? "luxel_maps_loaded 3" : "luxel_maps_loaded 2") != std::string::npos);
    CHECK(m.find("luxel_cache_hits_total{cache=\"images\"} 0\n") == std::string::npos);

    // The access log holds the NUL request escaped, and no raw control byte at all.
    CHECK(server.terminate() == 0);
    const std::string log = server.log();
    CHECK(log.find("room-a\\x00") != std::string::npos);
    const size_t raw = size_t(std::count_if(log.begin(), log.end(), [](char c) { return c != '\n' && (c < 32 || c >= 127); }));
    CHECK(raw == 0);
}

TEST_CASE("serve: hostile uploads get their 4xx in bounded time and memory; good ones render", "[serve]") {
    const Root root;
    ServeProcess server({root.dir, "--upload-limit-mb", "2", "--request-memory-mb", "64"});
    auto http = server.client();
    auto post = [&](const std::string& body, const std::string& query = "") {
        return http->Post(("/render?size=64x36" + query).c_str(), body, "application/octet-stream");
    };
    const std::string room = roomMap(1);

    // A map, a pk3 holding one, and a form upload as the page sends it: the pictures of the listed map.
    auto listed = http->Get("/maps/room-a.png?size=64x36");
    REQUIRE(status(listed) == 200);
    const Image expected = decodeImage(bytesOf(listed->body), "listed.png");
    auto samePixels = [&](const httplib::Result& r) {
        REQUIRE(status(r) == 200);
        const Image got = decodeImage(bytesOf(r->body), "upload.png");
        CHECK(got.width == expected.width);
        CHECK(got.pixels == expected.pixels);
    };
    samePixels(post(room));
    samePixels(post(toString(makeZip({{"maps/room.bsp", room}}))));
    samePixels(post(toString(makePak({{"textures/x.wal", "x"}, {"maps/room.bsp", room}}))));  // a Quake .pak
    httplib::MultipartFormDataItems form = {{"map", room, "room.bsp", "application/octet-stream"}};
    samePixels(http->Post("/render?size=64x36", form));
    // Two maps in one archive: choose with map=.
    const std::string two = toString(makeZip({{"maps/one.bsp", room}, {"maps/two.bsp", roomMap(2)}}));
    auto ambiguous = post(two);
    CHECK(status(ambiguous) == 400);
    CHECK_THAT(error(ambiguous), Catch::Contains("one, two"));
    samePixels(post(two, "&map=one"));

    struct Hostile {
        const char* what;
        std::string body;
        int status;
        const char* says;
    };
    std::vector<Hostile> hostile;
    hostile.push_back({"not a map", "hello, world\n", 415, "neither a map"});
    hostile.push_back({"empty", "", 400, "no map sent"});
    hostile.push_back({"truncated map", room.substr(0, 200), 422, "upload:upload.bsp"});
    std::string pastEnd = room;  // the first lump's offset moved past the end of the file
    const uint32_t far = uint32_t(room.size() + 4096);
    std::memcpy(pastEnd.data() + 8, &far, 4);
    hostile.push_back({"lump past the end", pastEnd, 422, "upload:upload.bsp"});
    hostile.push_back({"over the upload limit", std::string(3 << 20, 'x'), 413, "upload limit"});
    // A decompression bomb: 80 MiB of zeros deflate to ~80 KiB, past the 64 MiB request memory.
    hostile.push_back({"decompression bomb", toString(makeZip({{"maps/room.bsp", room}, {"textures/bomb.tga", std::string(80 << 20, '\0')}})),
                       413, "over the limit of 64 MiB"});
    // A member whose directory entry lies about its size: the map's own bytes fail their check.
    {
        Bytes zip = makeZip({{"maps/room.bsp", room, true}});
        for (size_t i = zip.size() - 4; i-- > 0;)
            if (zip[i] == 0x50 && zip[i + 1] == 0x4b && zip[i + 2] == 1 && zip[i + 3] == 2) {
                const uint32_t lie = uint32_t(room.size() + 1000);
                std::memcpy(zip.data() + i + 24, &lie, 4);  // central header: uncompressed size
                break;
            }
        hostile.push_back({"lying zip sizes", toString(zip), 422, "upload.pk3:maps/room.bsp"});
    }
    hostile.push_back({"zip without maps", toString(makeZip({{"readme.txt", "hi"}})), 422, "holds no maps/*.bsp"});
    hostile.push_back({"truncated zip", toString(makeZip({{"maps/room.bsp", room}})).substr(0, 300), 422, "upload.pk3"});
    hostile.push_back({"truncated pak", toString(makePak({{"maps/room.bsp", room}})).substr(0, 300), 422,
                       "upload.pak: lump pak header at byte 4: the directory (64 bytes at byte"});
    hostile.push_back({"pak without maps", toString(makePak({{"readme.txt", "hi"}})), 422, "upload.pak: holds no maps/*.bsp"});
    // A texture claiming 60000x60000 (14 GB of RGBA): refused before any of it is allocated; the request gets 422.
    hostile.push_back({"60000x60000 texture", toString(makeZip({{"maps/room.bsp", room}, {"textures/luxel/wall.tga", tgaClaiming(60000, 60000)}})),
                       422, "60000x60000"});
    for (const Hostile& h : hostile) {
        INFO(h.what);
        const auto t0 = std::chrono::steady_clock::now();
        auto r = post(h.body, "&mode=lit");
        REQUIRE(r);
        CHECK(r->status == h.status);
        CHECK_THAT(error(r), Catch::StartsWith("luxel: error: ") && Catch::Contains(h.says));
        CHECK(error(r).find('\n') == std::string::npos);
        CHECK(error(r).find("/tmp/") == std::string::npos);  // the private folder is not named
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60));
    }
    // Still serving, and no upload left a file behind or a root changed.
    CHECK(status(http->Get("/healthz")) == 200);
    CHECK(status(http->Get("/maps/room-b.png?size=64x36")) == 200);
    size_t files = 0;
    for (auto it = fs::recursive_directory_iterator(root.dir); it != fs::recursive_directory_iterator(); ++it) ++files;
    CHECK(files == 4);  // set/, room-a, room-b, the symlink
    for (const auto& e : fs::directory_iterator(fs::temp_directory_path()))
        CHECK_FALSE(e.path().filename().string().starts_with("luxel-upload-"));
    CHECK(server.terminate() == 0);
}

TEST_CASE("serve: a full queue answers 503, a time limit 504, SIGTERM finishes what is in flight", "[serve]") {
    const Root root;
    SECTION("503 and SIGTERM") {
        // One worker, no queue, each render held 1.5 s.
        ServeProcess server({root.dir, "--workers", "1", "--queue", "0", "--test-delay-ms", "1500"});
        auto slow = std::async(std::launch::async, [&] { return status(server.client()->Get("/maps/room-a.png?size=64x36")); });
        auto http = server.client();
        auto running = [&] { return http->Get("/metrics")->body.find("luxel_renders_running 1\n") != std::string::npos; };
        for (int i = 0; i < 500 && !running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        REQUIRE(running());
        auto busy = http->Get("/maps/room-b.png?size=64x36");
        REQUIRE(busy);
        CHECK(busy->status == 503);
        CHECK(busy->get_header_value("Retry-After") == "1");
        CHECK_THAT(error(busy), Catch::Contains("busy"));
        // SIGTERM while the first is drawn: it still gets its picture, then the service exits 0.
        ::kill(server.pid(), SIGTERM);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        auto late = http->Get("/healthz");
        CHECK((!late || late->status == 503));  // refused: a 503 on an open connection, or no connection
        CHECK(slow.get() == 200);
        CHECK(server.terminate() == 0);
        CHECK_THAT(server.log(), Catch::Contains("SIGTERM received"));
    }
    SECTION("504") {
        ServeProcess server({root.dir, "--request-timeout", "0.5", "--test-delay-ms", "1000"});
        auto r = server.client()->Get("/maps/room-a.png?size=64x36");
        REQUIRE(r);
        CHECK(r->status == 504);
        CHECK_THAT(error(r), Catch::Contains("limit of 0.5 s") && Catch::Contains("abandoned before drawing"));
        CHECK(status(server.client()->Get("/healthz")) == 200);
    }
}

TEST_CASE("serve: the page shows every thumbnail in headless Chromium", "[serve]") {
    if (std::system("command -v chromium >/dev/null 2>&1") != 0) {
        WARN("SKIPPED: chromium is not installed (tools/setup.sh installs it)");
        return;
    }
    const Root root;
    ServeProcess server({root.dir});
    const std::string dir = tempDir("serve-chromium");
    // The page's script counts the thumbnails that loaded and decoded into <body data-loaded>, and those that
    // failed into data-failed. Virtual time stands still while a fetch is pending but not while an image decodes:
    // on a loaded machine the budget can run out with a thumbnail fetched and still decoding (seen once: loaded 1,
    // failed 0). Such a run, where nothing failed, is taken again (at most three times); a failure is not.
    std::string dom;
    for (int attempt = 0; attempt < 3; ++attempt) {
        const std::string command = fmt::format(
            "chromium --headless --no-sandbox --disable-gpu --user-data-dir={0}/profile-{2} --virtual-time-budget=30000 "
            "--dump-dom http://127.0.0.1:{1}/ > {0}/dom.html 2> {0}/chromium.log",
            dir, server.port(), attempt);
        REQUIRE(std::system(command.c_str()) == 0);
        dom = readFileText(dir + "/dom.html");
        REQUIRE_THAT(dom, Catch::Contains("data-failed=\"0\""));
        if (dom.find("data-loaded=\"2\"") != std::string::npos) break;
        WARN("chromium's virtual time ran out before every thumbnail was shown; again (attempt " << attempt + 2 << ")");
    }
    CHECK_THAT(dom, Catch::Contains("data-loaded=\"2\"") && Catch::Contains("data-failed=\"0\""));
    CHECK_THAT(dom, Catch::Contains("2 of 2 thumbnails loaded"));
    CHECK_THAT(dom, Catch::Contains("src=\"blob:"));
}
