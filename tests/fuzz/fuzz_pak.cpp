// libFuzzer entry point for id PACK archives (.pak, src/io/pak_archive.cpp; built with -DLUXEL_FUZZ=ON, run by
// tools/fuzz.sh). The first byte of an input picks the path (mod 2) and the rest is the archive:
//   0: held in memory: its directory listed, every member (up to 64) read and looked up by name;
//   1: on disk as a Quake game folder's pak0.pak: mounted (GameFiles::addQuakeGameDir), its maps listed
//      (mapsInGameDir) and opened by name (openMapInGameDir), and every file the mount lists read.
// DecodeError (and UsageError for a map not found) are the expected answers to bad bytes; any other exception,
// crash, sanitizer report, hang or huge allocation is a finding, and so is a member whose bytes are not the
// size its entry states or a listed name that its own archive cannot find.
#include <tbb/global_control.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../../src/io/pak_archive.hpp"
#include "luxel/io/game_files.hpp"
#include "luxel/io/map_listing.hpp"
#include "luxel/io/map_source.hpp"
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

// A game folder of this process's own, removed at exit.
const std::string& gameDir() {
    static const std::string dir = [] {
        static const std::filesystem::path path =
            std::filesystem::temp_directory_path() / ("luxel-fuzz-pak-" + std::to_string(::getpid()));
        std::filesystem::create_directories(path);
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        });
        return path.string();
    }();
    return dir;
}

void inMemory(const uint8_t* data, size_t size) {
    const luxel::PakArchive pak("fuzz.pak", std::vector<uint8_t>(data, data + size));
    size_t read = 0;
    for (const luxel::ArchiveEntry& e : pak.entries()) {
        if (read++ == 64) break;
        if (pak.read(e.index, e.name).size() != e.size) std::abort();
        if (!pak.locate(e.name)) std::abort();
    }
}

void onDisk(const uint8_t* data, size_t size) {
    {
        std::ofstream out(gameDir() + "/pak0.pak", std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    }
    luxel::GameFiles files;
    files.addQuakeGameDir(gameDir());
    size_t read = 0;
    for (const std::string& path : files.list("", "")) {
        if (read++ == 64) break;
        if (!files.read(path)) std::abort();
    }
    for (const luxel::MapLocation& m : luxel::mapsInGameDir(gameDir())) {
        if (!m.error.empty()) continue;
        expectRefusal([&] { (void)luxel::openMapInGameDir(gameDir(), m.name); });
        if (read++ == 64) break;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const tbb::global_control oneThread(tbb::global_control::max_allowed_parallelism, 1);
    if (size == 0) return 0;
    if (data[0] % 2 == 0) expectRefusal([&] { inMemory(data + 1, size - 1); });
    else expectRefusal([&] { onDisk(data + 1, size - 1); });
    return 0;
}
