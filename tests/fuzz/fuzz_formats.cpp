// libFuzzer entry point for the text and archive readers in front of the map decoders (built with
// -DLUXEL_FUZZ=ON, run by tools/fuzz.sh). The first byte of an input picks the reader (mod 5) and the rest is the
// file: a scene file (TOML), a zip / pk3 (its central directory and up to 16 members), a Quake 3 .map source (the
// light entities' parser), a BSP entity lump (the entity lexer, then what each map decoder's entities stage derives
// from it: viewpoints, Quake 2 lights, the Source sky camera; the lump targets leave the entity lump to this one)
// or a Source gameinfo.txt (its search paths).
// DecodeError and UsageError are the expected answers to bad bytes; any other exception, crash, sanitizer
// report, hang or huge allocation is a finding.
#include <tbb/global_control.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "../../src/io/zip_archive.hpp"
#include "luxel/bsp/entities.hpp"
#include "luxel/bsp/viewpoints.hpp"
#include "luxel/io/source_game.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/light/q3_lights.hpp"
#include "luxel/scene/scene.hpp"
#include "luxel/util/error.hpp"

namespace {

template <class F>
void expectRefusal(F&& read) {
    try {
        read();
    } catch (const luxel::DecodeError&) {
    } catch (const luxel::UsageError&) {
    }
}

// A game folder of this process's own for gameinfo.txt (sourceSearchPaths reads a game folder), alone in a parent
// of its own: gameinfo paths are relative to the parent and may hold wildcards, which under /tmp itself listed
// thousands of entries per input (the campaign fell from 1,300 to 300 inputs a second) and reached other files.
const std::string& gameDir() {
    static const std::string dir = [] {
        static const std::filesystem::path parent =
            std::filesystem::temp_directory_path() / ("luxel-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(parent / "game");
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(parent, ec);
        });
        return (parent / "game").string();
    }();
    return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const tbb::global_control oneThread(tbb::global_control::max_allowed_parallelism, 1);
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    switch (data[0] % 5) {
        case 0:  // a folder that does not exist: scene inputs resolve against it, so nothing outside is read
            expectRefusal([&] { (void)luxel::parseScene(std::string(text), "fuzz.toml", "/nonexistent-luxel-fuzz"); });
            break;
        case 1:
            expectRefusal([&] {
                const luxel::ZipArchive zip("fuzz.zip", std::vector<uint8_t>(data + 1, data + size));
                size_t read = 0;
                for (const luxel::ZipEntry& e : zip.entries()) {
                    if (read++ == 16) break;
                    expectRefusal([&] { (void)zip.read(e.index, e.name); });
                    (void)zip.locate(e.name);
                }
            });
            break;
        case 2: expectRefusal([&] { (void)luxel::parseQuake3MapEntities(text, "fuzz.map"); }); break;
        case 3:
            expectRefusal([&] {
                luxel::World w;
                w.entities = luxel::parseEntities(text, "fuzz.bsp", 0);
                for (const luxel::MapFormat format : {luxel::MapFormat::Quake3, luxel::MapFormat::Quake2, luxel::MapFormat::Source}) {
                    w.format = format;
                    (void)luxel::findViewpoints(w);
                }
                (void)luxel::findSkyCamera(w);
                for (const auto compiler : {luxel::Q2LightCompiler::Qrad3, luxel::Q2LightCompiler::Ericw})
                    (void)luxel::quake2Lights(w.entities, compiler, &w.problems);
            });
            break;
        default:
            expectRefusal([&] {
                {
                    std::ofstream out(gameDir() + "/gameinfo.txt", std::ios::binary | std::ios::trunc);
                    out.write(text.data(), std::streamsize(text.size()));
                }
                std::vector<std::string> warnings;
                (void)luxel::sourceSearchPaths(gameDir(), warnings);
            });
    }
    return 0;
}
