#pragma once
// Where tests find the shared real maps and the luxel binary.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace luxel::test {

// ../shared/maps beside the checkout, or nullopt (tests then SKIP with a message).
inline std::optional<std::string> sharedMaps() {
    std::error_code ec;
    if (std::filesystem::is_directory(LUXEL_SHARED_MAPS, ec)) return std::string(LUXEL_SHARED_MAPS);
    return std::nullopt;
}

// ../shared/source-content beside the checkout (Source game content: VPKs, a game folder, models), or
// nullopt (tests then SKIP with a message).
inline std::optional<std::string> sharedSourceContent() {
    std::error_code ec;
    if (std::filesystem::is_directory(LUXEL_SHARED_SOURCE_CONTENT, ec)) return std::string(LUXEL_SHARED_SOURCE_CONTENT);
    return std::nullopt;
}

// Every file with extension `ext` in sharedMaps()/subdir, sorted.
std::vector<std::string> sharedMapFiles(const std::string& subdir, const std::string& ext = ".bsp");

// A fresh empty directory `name` (emptied when it exists) in this process's folder under the system temp dir; the
// folder is removed when the process exits normally.
std::string tempDir(const std::string& name);

// Writes bytes to path, creating its folders.
void writeFile(const std::filesystem::path& path, const std::vector<uint8_t>& bytes);
// Text as bytes, and written to a file the same way.
std::vector<uint8_t> bytesOf(std::string_view text);
void writeTextFile(const std::filesystem::path& path, std::string_view text);
// A whole file as a string, its bytes as they are ("" when it cannot be read).
std::string readFileText(const std::filesystem::path& path);
// The lines a command printed: its newlines.
size_t lineCount(std::string_view text);

// An uncompressed 1x1 32-bit TGA of one opaque colour.
std::vector<uint8_t> tga1x1(uint8_t r, uint8_t g, uint8_t b);

struct CommandResult {
    int exitCode = -1;
    std::string out, err;
};

// Runs the luxel binary with the given argument string (shell-quoted by the caller).
CommandResult runLuxel(const std::string& args);

// A JSON file a command wrote, parsed (throws when it is missing or malformed).
nlohmann::json readJson(const std::string& path);

// Debian's openarena-data (the OpenArena maps, textures and shaders).
inline const std::filesystem::path kOpenArenaDir = "/usr/share/games/openarena/baseoa";

}  // namespace luxel::test

#define LUXEL_REQUIRE_OPENARENA()                                                                  \
    do {                                                                                           \
        std::error_code openArenaError;                                                            \
        if (!std::filesystem::is_directory(::luxel::test::kOpenArenaDir, openArenaError)) {           \
            WARN("SKIPPED: " << ::luxel::test::kOpenArenaDir.string() << " not installed (openarena-data)"); \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define LUXEL_REQUIRE_SHARED_MAPS()                                                          \
    do {                                                                                     \
        if (!::luxel::test::sharedMaps()) {                                                  \
            WARN("SKIPPED: ../shared/maps not found beside the checkout (" LUXEL_SHARED_MAPS ")"); \
            return;                                                                          \
        }                                                                                    \
    } while (0)

#define LUXEL_REQUIRE_SOURCE_CONTENT()                                                                     \
    do {                                                                                                   \
        if (!::luxel::test::sharedSourceContent()) {                                                       \
            WARN("SKIPPED: ../shared/source-content not found beside the checkout (" LUXEL_SHARED_SOURCE_CONTENT ")"); \
            return;                                                                                        \
        }                                                                                                  \
    } while (0)
