// Scene files (src/scene/scene_file.cpp): every key of the schema lands in its field, relative paths are
// resolved against the scene's folder, and every error names the file, the line and the key.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "luxel/scene/scene.hpp"
#include "luxel/util/error.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;
namespace fs = std::filesystem;

namespace {

void touch(const std::string& path, const std::string& content = "x") {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << content;
}

// A folder with the files the scenes below name (parseScene checks that map inputs exist).
std::string sceneFolder() {
    static const std::string dir = [] {
        const std::string d = tempDir("scene");
        touch(d + "/a.bsp");
        touch(d + "/sub/b.bsp");
        touch(d + "/p.pk3");
        fs::create_directories(d + "/gd1/maps");
        fs::create_directories(d + "/gd2");
        return d;
    }();
    return dir;
}

Scene parse(const std::string& text) { return parseScene(text, "s.toml", sceneFolder()); }

// The UsageError message of parsing `text`, or "" when it parses.
std::string errorOf(const std::string& text) {
    try {
        parse(text);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The checkout: this file is tests/scene_test.cpp in it.
fs::path sourceDir() { return fs::path(__FILE__).parent_path().parent_path(); }

}  // namespace

TEST_CASE("scene: every top-level, map and output key lands in the struct", "[scene]") {
    const std::string d = sceneFolder();
    const Scene s = parse(R"(maps = [
  "a.bsp",
  { path = "sub/b.bsp", game_dirs = ["gd1", "gd2"], views = ["one"], ldr = false, palette = "pal/colormap.pcx" },
  { file = "a.bsp" },
  { glob = "sub/*.bsp" },
  { dir = "sub" },
  { archive = "p.pk3" },
  { game_dir = "gd1", game_dirs = "gd2", ldr = true },
]
game_dirs = ["gd1", "gd2"]
ldr = true
palette = "colormap.pcx"

[output]
dir = "out"
pattern = "{map}-{view}.{ext}"
format = "JPG"
whole_textures = true

[[view]]
name = "one"
)");
    CHECK(s.file == "s.toml");
    CHECK(s.folder == d);
    REQUIRE(s.maps.size() == 7);
    using K = SceneMapInput::Kind;
    CHECK(s.maps[0].kind == K::Auto);
    CHECK(s.maps[0].path == d + "/a.bsp");
    CHECK_FALSE(s.maps[0].gameDirs);
    CHECK_FALSE(s.maps[0].views);
    CHECK_FALSE(s.maps[0].ldr);
    CHECK_FALSE(s.maps[0].palette);
    CHECK(s.maps[0].location.line == 2);
    CHECK(s.maps[0].location.key == "maps[0]");

    CHECK(s.maps[1].kind == K::Auto);
    CHECK(s.maps[1].path == d + "/sub/b.bsp");
    REQUIRE(s.maps[1].gameDirs);
    CHECK(*s.maps[1].gameDirs == std::vector<std::string>{d + "/gd1", d + "/gd2"});
    REQUIRE(s.maps[1].views);
    CHECK(*s.maps[1].views == std::vector<std::string>{"one"});
    REQUIRE(s.maps[1].ldr);
    CHECK(*s.maps[1].ldr == false);
    REQUIRE(s.maps[1].palette);
    CHECK(*s.maps[1].palette == d + "/pal/colormap.pcx");
    CHECK(s.maps[1].location.line == 3);

    CHECK(s.maps[2].kind == K::File);
    CHECK(s.maps[2].path == d + "/a.bsp");
    CHECK(s.maps[3].kind == K::Glob);
    CHECK(s.maps[3].path == d + "/sub/*.bsp");
    CHECK(s.maps[4].kind == K::Directory);
    CHECK(s.maps[4].path == d + "/sub");
    CHECK(s.maps[5].kind == K::Archive);
    CHECK(s.maps[5].path == d + "/p.pk3");
    CHECK(s.maps[6].kind == K::GameDir);
    CHECK(s.maps[6].path == d + "/gd1");
    REQUIRE(s.maps[6].gameDirs);  // a single string is a one-element list
    CHECK(*s.maps[6].gameDirs == std::vector<std::string>{d + "/gd2"});
    REQUIRE(s.maps[6].ldr);
    CHECK(*s.maps[6].ldr == true);
    CHECK(s.maps[6].location.line == 8);

    CHECK(s.gameDirs == std::vector<std::string>{d + "/gd1", d + "/gd2"});
    CHECK(s.ldr == true);
    CHECK(s.palette == d + "/colormap.pcx");
    CHECK(s.output.dir == d + "/out");
    CHECK(s.output.pattern == "{map}-{view}.{ext}");
    CHECK(s.output.format == "jpg");  // lower-cased
    CHECK(s.output.wholeTextures);
    REQUIRE(s.views.size() == 1);
    CHECK(s.views[0].name == "one");
}

TEST_CASE("scene: defaults when keys are absent", "[scene]") {
    const Scene s = parse("maps = [\"a.bsp\"]\n");
    CHECK(s.gameDirs.empty());
    CHECK(s.ldr == false);
    CHECK(s.palette.empty());
    CHECK(s.output.dir.empty());
    CHECK(s.output.pattern == "{map}/{view}.{ext}");
    CHECK(s.output.format == "png");
    CHECK_FALSE(s.output.wholeTextures);
    REQUIRE(s.views.size() == 1);  // one default view when the file has none
    const SceneView& v = s.views[0];
    CHECK(v.name == "thumb");
    CHECK(v.camera == "best");
    CHECK(v.width == 512);
    CHECK(v.height == 288);
    CHECK(v.mode == "auto");
    CHECK(v.spp == 1);
    CHECK_FALSE(v.pos);
    CHECK_FALSE(v.flares);
    CHECK_FALSE(v.sky);
    CHECK_FALSE(v.transparent);

    // A second [[view]] without a name gets "view1".
    const Scene two = parse("maps = [\"a.bsp\"]\n[[view]]\ncamera = \"overview\"\n[[view]]\ncamera = \"spawn:2\"\n");
    REQUIRE(two.views.size() == 2);
    CHECK(two.views[0].name == "thumb");
    CHECK(two.views[0].camera == "overview");
    CHECK(two.views[1].name == "view1");
    CHECK(two.views[1].camera == "spawn:2");
}

TEST_CASE("scene: every view key lands in the view, with the line it came from", "[scene]") {
    const Scene s = parse(R"(maps = ["a.bsp"]
[[view]]
name = "pinned"
camera = "spawn:1"
pos = [1, -2.5, 300]
angles = [10, -135, 0]
fov = 75.5
size = "640x360"
mode = "lightmap"
look = "linear"
styles = "rest"
time = 2.5
spp = 4
flares = true
sky = false
transparent = true
world_only = true
no_pvs = true

[[view]]
name = "small"
size = [320, 200]
look = "engine"
unlit = "black"
flares = false
sky = true
)");
    REQUIRE(s.views.size() == 2);
    const SceneView& v = s.views[0];
    CHECK(v.name == "pinned");
    CHECK(v.camera == "spawn:1");
    REQUIRE(v.pos);
    CHECK(*v.pos == std::vector<float>{1.0f, -2.5f, 300.0f});
    REQUIRE(v.angles);
    CHECK(*v.angles == std::vector<float>{10.0f, -135.0f, 0.0f});
    CHECK(v.fov == 75.5f);
    CHECK(v.width == 640);
    CHECK(v.height == 360);
    CHECK(v.mode == "lightmap");
    CHECK(v.look == "linear");
    CHECK(v.styles == "rest");
    CHECK(v.time == 2.5f);
    CHECK(v.spp == 4);
    REQUIRE(v.flares);
    CHECK(*v.flares == true);
    REQUIRE(v.sky);
    CHECK(*v.sky == false);
    CHECK(v.transparent == true);
    CHECK(v.worldOnly == true);
    CHECK(v.noPvs == true);
    CHECK_FALSE(s.views[1].worldOnly);
    CHECK_FALSE(s.views[1].noPvs);
    // Where each key was set: line and "view[0].key".
    REQUIRE(v.where.count("fov"));
    CHECK(v.where.at("fov").line == 7);
    CHECK(v.where.at("fov").key == "view[0].fov");
    CHECK(v.where.at("fov").file == "s.toml");
    CHECK(v.where.at("transparent").line == 16);
    CHECK(v.where.count("name") == 1);
    CHECK(v.where.size() == 16);  // all 16 keys were present

    const SceneView& w = s.views[1];
    CHECK(w.name == "small");
    CHECK(w.width == 320);
    CHECK(w.height == 200);
    CHECK(w.look == "engine");
    CHECK(w.unlit == "black");
    REQUIRE(w.flares);
    CHECK(*w.flares == false);
    REQUIRE(w.sky);
    CHECK(*w.sky == true);
    CHECK(w.camera == "best");
    CHECK(w.where.size() == 6);
    CHECK(w.where.count("camera") == 0);
    CHECK(w.where.at("size").line == 22);  // the second view starts two lines lower with world_only and no_pvs
}

TEST_CASE("scene: relative paths resolve against the folder, absolute ones stay", "[scene]") {
    // Globs are not checked for existence, so the folder need not exist for them.
    const Scene s = parseScene("maps = [\"../maps/*.bsp\", \"/abs/q3/*.bsp\", { glob = \"./x/../y/*.bsp\" }]\n",
                               "scenes/a.toml", "some/scenes");
    REQUIRE(s.maps.size() == 3);
    CHECK(s.maps[0].path == "some/maps/*.bsp");
    CHECK(s.maps[1].path == "/abs/q3/*.bsp");
    CHECK(s.maps[2].path == "some/scenes/y/*.bsp");

    // An empty folder means the current directory.
    const Scene here = parseScene("maps = [\"q/*.bsp\"]\n", "a.toml", "");
    CHECK(here.folder == ".");
    CHECK(here.maps[0].path == "q/*.bsp");

    // loadScene resolves against the scene file's own folder.
    const std::string d = sceneFolder();
    touch(d + "/scenes/s.toml", "maps = [\"../a.bsp\"]\n[output]\ndir = \"../out\"\n");
    const Scene loaded = loadScene(d + "/scenes/s.toml");
    CHECK(loaded.file == d + "/scenes/s.toml");
    REQUIRE(loaded.maps.size() == 1);
    CHECK(loaded.maps[0].path == d + "/a.bsp");
    CHECK(loaded.output.dir == d + "/out");

    // An archive member: the archive must exist, the member is checked when opened.
    const Scene member = parse("maps = [\"p.pk3:maps/none.bsp\"]\n");
    CHECK(member.maps[0].path == d + "/p.pk3:maps/none.bsp");
    const std::string e = errorOf("maps = [\"nothere.pk3:maps/x.bsp\"]\n");
    CHECK(has(e, "s.toml:1:"));
    CHECK(has(e, "nothere.pk3"));
}

TEST_CASE("scene: isSceneFile is by extension", "[scene]") {
    CHECK(isSceneFile("scenes/a.toml"));
    CHECK(isSceneFile("A.TOML"));
    CHECK_FALSE(isSceneFile("a.bsp"));
    CHECK_FALSE(isSceneFile("toml"));
    CHECK_FALSE(isSceneFile("a.toml.bak"));
}

TEST_CASE("scene: unknown keys name file, line and key", "[scene]") {
    struct Case {
        const char* text;
        const char* where;  // "s.toml:LINE: key"
    };
    const Case cases[] = {
        {"maps = [\"a.bsp\"]\n\ncolour = 1\n", "s.toml:3: colour"},
        {"maps = [\"a.bsp\"]\n[[view]]\nname = \"x\"\nzoom = 2\n", "s.toml:4: view[0].zoom"},
        {"maps = [\"a.bsp\"]\n[output]\ndir = \"o\"\nbogus = \"b\"\n", "s.toml:4: output.bogus"},
        {"maps = [\n  \"a.bsp\",\n  { pth = \"a.bsp\" },\n]\n", "s.toml:3: maps[1].pth"},
    };
    for (const Case& c : cases) {
        const std::string e = errorOf(c.text);
        INFO(c.text << "\n -> " << e);
        CHECK(has(e, c.where));
        CHECK(has(e, "unknown key"));
    }
}

TEST_CASE("scene: wrong types name file, line and key", "[scene]") {
    struct Case {
        const char* text;
        const char* where;
    };
    const Case cases[] = {
        {"maps = [\"a.bsp\"]\n[[view]]\nfov = \"wide\"\n", "s.toml:3: view[0].fov"},
        {"maps = [\"a.bsp\"]\n[[view]]\nspp = 2.5\n", "s.toml:3: view[0].spp"},
        {"maps = [\"a.bsp\"]\n[[view]]\nflares = 1\n", "s.toml:3: view[0].flares"},
        {"maps = [\"a.bsp\"]\n[[view]]\ncamera = 3\n", "s.toml:3: view[0].camera"},
        {"maps = [\"a.bsp\"]\n[[view]]\npos = [1, 2]\n", "s.toml:3: view[0].pos"},
        {"maps = [\"a.bsp\"]\n[[view]]\nsize = [1, 2, 3]\n", "s.toml:3: view[0].size"},
        {"maps = [\"a.bsp\"]\nldr = \"yes\"\n", "s.toml:2: ldr"},
        {"maps = \"a.bsp\"\n", "s.toml:1: maps"},
        {"maps = [42]\n", "s.toml:1: maps[0]"},
        {"maps = [\"a.bsp\"]\ngame_dirs = [1]\n", "s.toml:2: game_dirs[0]"},
        {"maps = [\"a.bsp\"]\noutput = 3\n", "s.toml:2: output"},
        {"maps = [\"a.bsp\"]\n[output]\nformat = \"bmp\"\n", "s.toml:3: output.format"},
        {"maps = [\n { path = \"a.bsp\", ldr = \"no\" },\n]\n", "s.toml:2: maps[0].ldr"},
        {"maps = [\"a.bsp\"]\n[[view]]\nlook = \"filmic\"\n", "s.toml:3: view[0].look"},
        {"maps = [\"a.bsp\"]\n[[view]]\nname = \"../x\"\n", "s.toml:3: view[0].name"},
    };
    for (const Case& c : cases) {
        const std::string e = errorOf(c.text);
        INFO(c.text << "\n -> " << e);
        CHECK(has(e, c.where));
    }
    CHECK(has(errorOf("maps = [\"a.bsp\"]\n[[view]]\nfov = \"wide\"\n"), "expected a number, got a string"));
}

TEST_CASE("scene: values out of range name file, line and key", "[scene]") {
    struct Case {
        const char* text;
        const char* where;
    };
    const Case cases[] = {
        {"maps = [\"a.bsp\"]\n[[view]]\nfov = 0\n", "s.toml:3: view[0].fov"},
        {"maps = [\"a.bsp\"]\n[[view]]\nfov = 180\n", "s.toml:3: view[0].fov"},
        {"maps = [\"a.bsp\"]\n[[view]]\nspp = 100\n", "s.toml:3: view[0].spp"},
        {"maps = [\"a.bsp\"]\n[[view]]\nspp = 0\n", "s.toml:3: view[0].spp"},
        {"maps = [\"a.bsp\"]\n[[view]]\nsize = \"0x5\"\n", "s.toml:3: view[0].size"},
        {"maps = [\"a.bsp\"]\n[[view]]\nsize = \"64x\"\n", "s.toml:3: view[0].size"},
        {"maps = [\"a.bsp\"]\n[[view]]\nsize = \"64x36 \"\n", "s.toml:3: view[0].size"},
        {"maps = [\"a.bsp\"]\n[[view]]\nsize = [0, 5]\n", "s.toml:3: view[0].size"},
        {"maps = [\"a.bsp\"]\n[[view]]\nsize = [64, 20000]\n", "s.toml:3: view[0].size"},
        {"maps = [\"a.bsp\"]\n[[view]]\ntime = -1\n", "s.toml:3: view[0].time"},
    };
    for (const Case& c : cases) {
        const std::string e = errorOf(c.text);
        INFO(c.text << "\n -> " << e);
        CHECK(has(e, c.where));
    }
    // The edges of the ranges are accepted.
    const Scene s = parse("maps = [\"a.bsp\"]\n[[view]]\nfov = 179\nspp = 64\nsize = \"1x16384\"\n");
    CHECK(s.views[0].fov == 179.0f);
    CHECK(s.views[0].spp == 64);
    CHECK(s.views[0].width == 1);
    CHECK(s.views[0].height == 16384);
}

TEST_CASE("scene: bad output patterns are errors with file and line", "[scene]") {
    const char* patterns[] = {"{view}.{ext}", "../{map}.png", "{map}/../../x.png", "/abs/{map}.png",
                              "{map}/{bogus}.png", "{map}/{view"};
    for (const char* p : patterns) {
        const std::string text = std::string("maps = [\"a.bsp\"]\n[output]\n\npattern = \"") + p + "\"\n";
        const std::string e = errorOf(text);
        INFO(p << " -> " << e);
        CHECK(has(e, "s.toml:4: output.pattern"));
    }
    CHECK(has(errorOf("maps = [\"a.bsp\"]\n[output]\npattern = \"{map}/{bogus}.png\"\n"), "{bogus}"));
    // Every known field is fine.
    CHECK(parse("maps = [\"a.bsp\"]\n[output]\npattern = \"{format}/{map}/{view}.{ext}\"\n").output.pattern ==
          "{format}/{map}/{view}.{ext}");
}

TEST_CASE("scene: missing maps, duplicate views and unknown view names are errors with file and line", "[scene]") {
    std::string e = errorOf("# a comment\nmaps = [\n  \"a.bsp\",\n  \"nope.bsp\",\n]\n");
    INFO(e);
    CHECK(has(e, "s.toml:4: maps[1]"));
    CHECK(has(e, "nope.bsp"));

    e = errorOf("maps = [{ dir = \"nodir\" }]\n");
    CHECK(has(e, "s.toml:1: maps[0]"));
    CHECK(has(e, "nodir"));

    e = errorOf("maps = [\"a.bsp\"]\ngame_dirs = [\"gd1\", \"no-such-dir\"]\n");
    CHECK(has(e, "s.toml:2: game_dirs"));
    CHECK(has(e, "no-such-dir"));

    e = errorOf("maps = [\"a.bsp\"]\n[[view]]\nname = \"a\"\n\n[[view]]\nname = \"a\"\n");
    INFO(e);
    CHECK(has(e, "s.toml:5"));
    CHECK(has(e, "'a'"));
    // Two unnamed views do not collide ("thumb", "view1"), but an explicit "thumb" and a default one do.
    CHECK(errorOf("maps = [\"a.bsp\"]\n[[view]]\n[[view]]\n").empty());
    e = errorOf("maps = [\"a.bsp\"]\n[[view]]\n[[view]]\nname = \"thumb\"\n");
    CHECK(has(e, "s.toml:3"));

    e = errorOf("maps = [\n  \"a.bsp\",\n  { path = \"a.bsp\", views = [\"thumb\", \"nope\"] },\n]\n");
    INFO(e);
    CHECK(has(e, "s.toml:3: maps[1].views"));
    CHECK(has(e, "nope"));

    e = errorOf("maps = [{ path = \"a.bsp\", file = \"a.bsp\" }]\n");
    CHECK(has(e, "s.toml:1: maps[0]"));
    e = errorOf("maps = [{ views = [\"thumb\"] }]\n");
    CHECK(has(e, "s.toml:1: maps[0]"));
    e = errorOf("maps = [\"a.bsp\"]\n[[view]]\nangles = [0, 0, 0]\n");
    CHECK(has(e, "s.toml:2: view[0].angles"));
    e = errorOf("game_dirs = []\n");
    CHECK(has(e, "s.toml"));
    CHECK(has(e, "no maps"));
}

TEST_CASE("scene: TOML syntax errors name the line", "[scene]") {
    std::string e = errorOf("maps = [\"a.bsp\"]\n[[view]]\nfov = = 2\n");
    INFO(e);
    CHECK(has(e, "s.toml:3:"));
    e = errorOf("maps = [\"a.bsp\"]\n\n\n\n[output\n");
    INFO(e);
    CHECK(has(e, "s.toml:5:"));
    // A key given twice is a TOML error too.
    e = errorOf("maps = [\"a.bsp\"]\nldr = true\nldr = false\n");
    CHECK(has(e, "s.toml:3:"));
    // loadScene on a missing file names it.
    try {
        loadScene(sceneFolder() + "/missing.toml");
        FAIL("no error");
    } catch (const UsageError& ex) {
        CHECK(has(ex.what(), "missing.toml"));
    }
}

TEST_CASE("scene: the shipped scenes parse", "[scene]") {
    // They name absolute or ../shared paths that may be absent here, so only their syntax and schema are
    // checked: parse each with its map entries' existence errors as the only acceptable failure.
    for (const char* name : {"scenes/openarena.toml", "scenes/shared-maps.toml", "scenes/cameras-example.toml"}) {
        const fs::path path = sourceDir() / name;
        REQUIRE(fs::exists(path));
        try {
            const Scene s = loadScene(path.string());
            CHECK_FALSE(s.views.empty());
        } catch (const UsageError& e) {
            INFO(name << ": " << e.what());
            CHECK(has(e.what(), "no such file or directory"));
        }
    }
}

TEST_CASE("scene: scenes/README.md documents every key", "[scene]") {
    const fs::path readme = sourceDir() / "scenes" / "README.md";
    REQUIRE(fs::exists(readme));
    std::ifstream in(readme);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    for (const char* key : {"maps", "game_dirs", "ldr", "palette", "view", "output", "path", "file", "glob", "dir",
                            "archive", "game_dir", "views", "name", "camera", "pos", "angles", "fov", "size", "mode",
                            "look", "styles", "time", "spp", "flares", "sky", "transparent", "world_only", "no_pvs",
                            "pattern", "format", "whole_textures",
                            "{map}", "{view}", "{ext}"}) {
        INFO(key);
        CHECK(has(text, key));
    }
}
