// Levelshots (src/batch/levelshots.cpp, src/batch/archives.cpp, src/io/zip_writer.cpp, `luxel batch --preset
// levelshots`): ioquake3's R_LevelShot reduction against values worked out by hand on a synthetic frame, the
// size option, the pk3 read back with the project's zip reader, and batch runs on synthetic and shared maps.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

#include "../src/io/zip_archive.hpp"
#include "luxel/batch/levelshots.hpp"
#include "luxel/image/image.hpp"
#include "luxel/io/zip_writer.hpp"
#include "luxel/scene/scene.hpp"
#include "luxel/util/error.hpp"
#include "support/batch_fixtures.hpp"
#include "support/q3_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// 640x480, rows from the top: R = column mod 256, G = row mod 256, B = 7, alpha (when asked) 255.
ByteImage gradientFrame(int channels = 3) {
    ByteImage f;
    f.width = 640;
    f.height = 480;
    f.channels = channels;
    f.bytes.resize(size_t(640) * 480 * size_t(channels));
    for (int y = 0; y < 480; ++y)
        for (int x = 0; x < 640; ++x) {
            uint8_t* p = f.bytes.data() + (size_t(y) * 640 + size_t(x)) * size_t(channels);
            p[0] = uint8_t(x % 256);
            p[1] = uint8_t(y % 256);
            p[2] = 7;
            if (channels == 4) p[3] = 255;
        }
    return f;
}

uint8_t at(const ByteImage& image, int x, int y, int c) {
    return image.bytes[(size_t(y) * size_t(image.width) + size_t(x)) * size_t(image.channels) + size_t(c)];
}

// The zip's member names, in stored order.
std::vector<std::string> memberNames(const ZipArchive& zip) {
    std::vector<std::string> names;
    for (const ZipEntry& e : zip.entries()) names.push_back(e.name);
    return names;
}

// A one-room map with an intermission camera at (100, 0, 128) looking back along -X, 10 degrees down.
std::string roomWithIntermission() {
    Q3MapBuilder b = makeRoomMap();
    b.entities += "{\n\"classname\" \"info_player_intermission\"\n\"origin\" \"100 0 128\"\n\"angles\" \"10 180 0\"\n}\n";
    return toString(b.build());
}

}  // namespace

TEST_CASE("levelshot: R_LevelShot's 4x3 point samples on a 640x480 gradient, truncated, rows from the bottom",
          "[levelshot]") {
    const ByteImage shot = levelshotReduce(gradientFrame());
    REQUIRE(shot.width == 128);
    REQUIRE(shot.height == 128);
    REQUIRE(shot.channels == 3);
    // Columns: xScale = 640 / 512 = 1.25, so output column x samples int((4x + xx) * 1.25) = 5x + {0, 1, 2, 3}.
    // x = 0: columns 0..3, sum 6 per row, 18 over 3 rows, / 12 = 1.5 -> 1 (truncated, not rounded).
    CHECK(at(shot, 0, 64, 0) == 1);
    // x = 1: columns 5..8, sum 26, 78 over 3 rows -> 6.5 -> 6.
    CHECK(at(shot, 1, 64, 0) == 6);
    // x = 51: columns 255..258 are 255, 0, 1, 2 (mod 256): 258 x 3 = 774 -> 64.5 -> 64.
    CHECK(at(shot, 51, 64, 0) == 64);
    // x = 127: columns 635..638 are 123..126: 498 x 3 = 1494 -> 124.5 -> 124.
    CHECK(at(shot, 127, 64, 0) == 124);
    // Rows: yScale = 480 / 384 = 1.25, counted from the bottom as glReadPixels gives them. The top output
    // row is the engine's y = 127: rows int(381 * 1.25) = 476, int(382 * 1.25) = 477, int(383 * 1.25) = 478
    // from the bottom = rows 3, 2, 1 from the top; G sum 6 per column, 24 over 4 columns -> 2. (Counting from
    // the top would take rows 0, 1, 2 and give 1.)
    CHECK(at(shot, 0, 0, 1) == 2);
    CHECK(at(shot, 90, 0, 1) == 2);
    // The bottom output row (engine y = 0): rows 0, 1, 2 from the bottom = 479, 478, 477 = 223, 222, 221
    // (mod 256): 666 x 4 = 2664 -> 222.
    CHECK(at(shot, 5, 127, 1) == 222);
    // Output row 64 from the top (engine y = 63): rows 236, 237, 238 from the bottom = 243, 242, 241 from the
    // top: 726 x 4 = 2904 -> 242.
    CHECK(at(shot, 5, 64, 1) == 242);
    // A constant channel stays itself: 12 x 7 / 12.
    CHECK(at(shot, 77, 33, 2) == 7);

    // An alpha channel is not averaged into the colour.
    const ByteImage withAlpha = levelshotReduce(gradientFrame(4));
    CHECK(withAlpha.channels == 3);
    CHECK(withAlpha.bytes == shot.bytes);
}

TEST_CASE("levelshot: the size option keeps the 4x3 box on a (size*4)x(size*3) grid", "[levelshot]") {
    const ByteImage shot = levelshotReduce(gradientFrame(), 256);
    REQUIRE(shot.width == 256);
    REQUIRE(shot.height == 256);
    // xScale = yScale = 640 / 1024 = 480 / 768 = 0.625.
    // x = 0: columns 0, 0, 1, 1: 2 x 3 = 6 -> 0.
    CHECK(at(shot, 0, 100, 0) == 0);
    // x = 1: columns int(2.5) = 2, int(3.125) = 3, int(3.75) = 3, int(4.375) = 4: 12 x 3 = 36 -> 3.
    CHECK(at(shot, 1, 100, 0) == 3);
    // x = 255: columns 637, 638, 638, 639 = 125, 126, 126, 127: 504 x 3 = 1512 -> 126.
    CHECK(at(shot, 255, 100, 0) == 126);
    // Bottom output row (engine y = 0): rows 0, 0, 1 from the bottom = 479, 479, 478 = 223, 223, 222:
    // 668 x 4 = 2672 -> 222.67 -> 222.
    CHECK(at(shot, 3, 255, 1) == 222);
    // Top output row (engine y = 255): rows int(478.125) = 478, int(478.75) = 478, int(479.375) = 479 from the
    // bottom = 1, 1, 0 from the top: 2 x 4 = 8 -> 0.
    CHECK(at(shot, 3, 0, 1) == 0);

    // 64: scale 2.5; x = 1: columns int(10) = 10, int(12.5) = 12, int(15) = 15, int(17.5) = 17: 54 x 3 = 162
    // -> 13.5 -> 13.
    const ByteImage small = levelshotReduce(gradientFrame(), 64);
    REQUIRE(small.width == 64);
    CHECK(at(small, 1, 10, 0) == 13);
    CHECK_THROWS_AS(levelshotReduce(gradientFrame(), 0), UsageError);
}

TEST_CASE("levelshot: a rendered frame with coverage alpha is reduced by its RGB", "[levelshot]") {
    // The gradient as a 4-channel frame (transparent views carry coverage alpha): the alpha is not a colour.
    const ByteImage bytes = gradientFrame();
    ByteImage frame{640, 480, 4, std::vector<uint8_t>(size_t(640) * 480 * 4)};
    for (size_t i = 0, j = 0; i < bytes.bytes.size(); i += 3, j += 4) {
        for (int c = 0; c < 3; ++c) frame.bytes[j + size_t(c)] = bytes.bytes[i + size_t(c)];
        frame.bytes[j + 3] = 64;
    }
    const ByteImage shot = levelshotReduce(frame);
    REQUIRE(shot.width == 128);
    REQUIRE(shot.channels == 3);
    CHECK(shot.bytes[(size_t(64) * 128 + 1) * 3 + 0] == 6);    // as worked out above
    CHECK(shot.bytes[(size_t(127) * 128 + 5) * 3 + 1] == 222);
    CHECK(shot.bytes[(size_t(0) * 128 + 0) * 3 + 1] == 2);
    CHECK(shot.bytes == levelshotReduce(bytes).bytes);
}

TEST_CASE("levelshot: a pk3 written with libzip reads back with the zip reader, members stored in order",
          "[levelshot]") {
    const std::string d = tempDir("levelshot-zip");
    const Bytes a = bytesOf("first image"), b = bytesOf("second");
    const std::string path = (fs::path(d) / "levelshots.pk3").string();
    writeZipArchive(path, {{"levelshots/b_map.jpg", b}, {"levelshots/a_map.jpg", a}});
    const ZipArchive zip(path);
    CHECK(memberNames(zip) == std::vector<std::string>{"levelshots/b_map.jpg", "levelshots/a_map.jpg"});
    CHECK(zip.read("levelshots/a_map.jpg") == a);
    CHECK(zip.read("levelshots/b_map.jpg") == b);
    // No temporary left beside it, and the same members give the same bytes (no time stamp from the clock).
    CHECK(filesBelow(d) == std::vector<std::string>{"levelshots.pk3"});
    CHECK(zipArchiveBytes({{"x/y.jpg", a}}) == zipArchiveBytes({{"x/y.jpg", a}}));
    CHECK_THROWS_AS(zipArchiveBytes({{"same.jpg", a}, {"same.jpg", b}}), UsageError);
}

TEST_CASE("levelshot: batch --preset levelshots writes levelshots/NAME.jpg and levelshots.pk3", "[levelshot][cli]") {
    const std::string d = tempDir("levelshot-batch");
    writeTextFile(fs::path(d) / "in/alpha.bsp", roomWithIntermission());
    writeTextFile(fs::path(d) / "in/beta.bsp", roomMap(1));  // no intermission camera: spawn:0
    writeTextFile(fs::path(d) / "in/broken.bsp", "IBSP but nothing else");
    const std::string out = d + "/out";
    const CommandResult r = runLuxel("batch --preset levelshots -q " + q(d + "/in") + " -o " + q(out));
    CHECK(r.exitCode == 1);  // the broken map failed, the others rendered
    for (const std::string name : {"alpha", "beta"}) {
        const std::string file = out + "/levelshots/" + name + ".jpg";
        CHECK(imageSize(file) == std::make_pair(128, 128));
    }
    CHECK_FALSE(fs::exists(out + "/levelshots/broken.jpg"));

    const json m = readJson(out + "/manifest.json");
    std::map<std::string, json> views;
    for (const json& e : m["maps"])
        if (e.contains("views") && !e["views"].empty()) views[e["name"]] = e["views"][0];
    REQUIRE(views.count("alpha"));
    REQUIRE(views.count("beta"));
    CHECK(views["alpha"]["camera"]["used"] == "intermission");
    CHECK(views["alpha"]["camera"]["position"] == json::array({100.0, 0.0, 128.0}));
    CHECK(views["alpha"]["camera"]["fov"] == 90.0);
    CHECK(views["beta"]["camera"]["asked"] == "intermission");
    CHECK(views["beta"]["camera"]["used"] == "spawn:0");
    CHECK(views["alpha"]["levelshot_of"] == json::array({640, 480}));
    CHECK(views["alpha"]["width"] == 128);
    REQUIRE(m.contains("archives"));
    CHECK(m["archives"][0]["file"] == "levelshots.pk3");
    CHECK(m["archives"][0]["members"] == 2);

    // The pk3: exactly the rendered maps' levelshots, each the file beside it and a 128x128 RGB JPEG.
    const ZipArchive zip(out + "/levelshots.pk3");
    CHECK(memberNames(zip) == std::vector<std::string>{"levelshots/alpha.jpg", "levelshots/beta.jpg"});
    for (const std::string& member : memberNames(zip)) {
        const std::optional<Bytes> bytes = zip.read(member);
        REQUIRE(bytes);
        CHECK(*bytes == readFile(out + "/" + member));
        const ByteImage decoded = decodeImageBytes(*bytes, member);
        CHECK(decoded.width == 128);
        CHECK(decoded.height == 128);
        CHECK(decoded.channels == 3);
    }

    // A rerun reuses the images and writes the archive again when it is gone.
    fs::remove(out + "/levelshots.pk3");
    CHECK(runLuxel("batch --preset levelshots -q " + q(d + "/in") + " -o " + q(out)).exitCode == 1);
    CHECK(memberNames(ZipArchive(out + "/levelshots.pk3")).size() == 2);

    // --levelshot-size: the same box on a larger grid; other sizes of the frame stay the preset's.
    const std::string out64 = d + "/out64";
    CHECK(runLuxel("batch --preset levelshots --levelshot-size 64 -q " + q(d + "/in/alpha.bsp") + " -o " + q(out64))
              .exitCode == 0);
    CHECK(imageSize(out64 + "/levelshots/alpha.jpg") == std::make_pair(64, 64));
    CHECK(readJson(out64 + "/manifest.json")["maps"][0]["views"][0]["levelshot_of"] == json::array({640, 480}));
    // The size without the preset is a usage error.
    CHECK(runLuxel("batch --levelshot-size 64 -q " + q(d + "/in/alpha.bsp") + " -o " + q(d + "/x")).exitCode == 2);
}

TEST_CASE("levelshot: scene keys levelshot and output.archive are checked", "[levelshot][scene]") {
    const std::string d = tempDir("levelshot-scene");
    writeTextFile(fs::path(d) / "a.bsp", roomMap(0));
    const std::string base = "maps = [\"a.bsp\"]\n";
    const Scene s = parseScene(base + "[output]\narchive = \"shots.pk3\"\nformat = \"jpg\"\n[[view]]\nlevelshot = 96\n",
                               "s.toml", d);
    CHECK(s.output.archive == "shots.pk3");
    CHECK(s.views[0].levelshot == 96);
    CHECK_THROWS_WITH(parseScene(base + "[[view]]\nlevelshot = 0\n", "s.toml", d),
                      Catch::Contains("s.toml:3: view[0].levelshot: 0 is outside 1 to 4096"));
    CHECK_THROWS_WITH(parseScene(base + "[output]\narchive = \"../up.pk3\"\n", "s.toml", d),
                      Catch::Contains("output.archive"));
    CHECK_THROWS_WITH(parseScene(base + "[output]\narchive = \"shots.tar\"\n", "s.toml", d),
                      Catch::Contains("ending in .pk3 or .zip"));
    // The shipped scene parses (its game folder may be absent: then its map input is the error).
    try {
        const Scene shipped = loadScene((fs::path(__FILE__).parent_path().parent_path() / "scenes/levelshots.toml").string());
        CHECK(shipped.views.at(0).levelshot == 128);
        CHECK(shipped.views.at(0).camera == "intermission");
        CHECK(shipped.output.archive == "levelshots.pk3");
        CHECK(shipped.output.pattern == "levelshots/{map}.{ext}");
    } catch (const UsageError& e) {
        CHECK_THAT(e.what(), Catch::Contains("no such file or directory"));
    }
    // A levelshot is 8-bit: an EXR levelshot is refused before any map is read.
    writeTextFile(fs::path(d) / "exr.toml", base + "[output]\nformat = \"exr\"\n[[view]]\nlevelshot = 128\n");
    const CommandResult exr = runLuxel("batch -q " + q(d + "/exr.toml") + " -o " + q(d + "/out"));
    CHECK(exr.exitCode == 2);
    CHECK_THAT(exr.err, Catch::Contains("levelshot"));
}

TEST_CASE("levelshot: a shared Quake 3 map's levelshot is the reduction of its 640x480 intermission frame",
          "[levelshot][maps]") {
    LUXEL_REQUIRE_SHARED_MAPS();
    const std::string map = *sharedMaps() + "/q3/oa088_am_thornish.bsp";
    if (!fs::exists(map)) {
        WARN("SKIPPED: " << map << " not found");
        return;
    }
    const std::string d = tempDir("levelshot-shared");
    REQUIRE(runLuxel("batch --preset levelshots -q " + q(map) + " -o " + q(d + "/out")).exitCode == 0);
    // The same view as a plain batch thumbnail, a lossless PNG, reduced here.
    REQUIRE(runLuxel("batch -q " + q(map) +
                     " --camera intermission --fov 90 --size 640x480 --mode lit --look engine --format png -o " +
                     q(d + "/frame"))
                .exitCode == 0);
    const ByteImage frame =
        decodeImageBytes(readFile(d + "/frame/oa088_am_thornish/thumb.png"), "thumb.png");
    REQUIRE(frame.width == 640);
    const ByteImage expected = levelshotReduce(frame);
    const ZipArchive zip(d + "/out/levelshots.pk3");
    REQUIRE(memberNames(zip) == std::vector<std::string>{"levelshots/oa088_am_thornish.jpg"});
    const ByteImage shot = decodeImageBytes(*zip.read("levelshots/oa088_am_thornish.jpg"), "shot.jpg");
    REQUIRE(shot.width == 128);
    REQUIRE(shot.height == 128);
    // JPEG at quality 95 keeps the bytes within a few steps on average.
    double sum = 0;
    for (size_t i = 0; i < shot.bytes.size(); ++i) sum += std::abs(int(shot.bytes[i]) - int(expected.bytes[i]));
    CHECK(sum / double(shot.bytes.size()) < 2.0);
    // And the picture is no flat field: the reduction kept the frame's structure.
    std::set<uint8_t> values(expected.bytes.begin(), expected.bytes.end());
    CHECK(values.size() > 32);
}
