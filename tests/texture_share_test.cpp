// Decoded textures shared between processes through files (batch --isolate's workers): a texture read back is
// the texture written, field for field; a damaged or foreign file is a miss, never a texture; and the cache of a
// second process (here: the same process with its cache cleared) takes what the first decoded without decoding.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "../src/material/texture_cache.hpp"
#include "../src/material/texture_share.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/texture_sample.hpp"
#include "support/render_fixtures.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using luxel::test::noiseImage;
using luxel::test::tempDir;
namespace fs = std::filesystem;

namespace {

void checkSame(const Texture& a, const Texture& b) {
    CHECK(a.name == b.name);
    CHECK(a.firstLevel == b.firstLevel);
    CHECK(a.hasAlpha == b.hasAlpha);
    REQUIRE(a.mips.size() == b.mips.size());
    for (size_t i = 0; i < a.mips.size(); ++i) {
        CHECK(a.mips[i].width == b.mips[i].width);
        CHECK(a.mips[i].height == b.mips[i].height);
    }
    CHECK(a.paddedLevels == b.paddedLevels);
    CHECK(a.alphaLevels == b.alphaLevels);
    CHECK(a.alphaCellRanges == b.alphaCellRanges);
}

std::vector<fs::path> filesIn(const std::string& dir, const std::string& extension) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == extension) files.push_back(entry.path());
    return files;
}

}  // namespace

TEST_CASE("a shared texture reads back as the texture written", "[texture][share]") {
    const std::string dir = tempDir("texture-share-roundtrip");
    const Texture translucent = makeTexture("textures/a/fence.tga", noiseImage(48, 20, 3u, false));
    const RgbaImage full = noiseImage(64, 32, 4u, true);
    const Texture reduced = makeTexture("textures/a/wall.jpg", textureLevel(makeTexture("w", full), 1), 1, 64, 32);
    REQUIRE(translucent.hasAlpha);
    REQUIRE(reduced.firstLevel == 1);
    CHECK(writeSharedTexture(dir, "key one", translucent) > 48 * 20 * 4);
    CHECK(writeSharedTexture(dir, "key two", reduced) > 0);
    const auto one = readSharedTexture(dir, "key one");
    const auto two = readSharedTexture(dir, "key two");
    REQUIRE(one);
    REQUIRE(two);
    checkSame(*one, translucent);
    checkSame(*two, reduced);
    CHECK_FALSE(readSharedTexture(dir, "key three"));
    // Only whole files are in the folder: no temporary file is left beside them.
    CHECK(filesIn(dir, ".tex").size() == 2);
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);

    writeSharedSize(dir, "sizes", {512, 256});
    writeSharedSize(dir, "not reducible", {0, 0});
    CHECK(readSharedSize(dir, "sizes") == std::pair<int32_t, int32_t>(512, 256));
    CHECK(readSharedSize(dir, "not reducible") == std::pair<int32_t, int32_t>(0, 0));
    CHECK_FALSE(readSharedSize(dir, "never written"));
}

TEST_CASE("a damaged or foreign shared file is a miss", "[texture][share]") {
    const std::string dir = tempDir("texture-share-damaged");
    const Texture t = makeTexture("t", noiseImage(16, 16, 5u, false));
    REQUIRE(writeSharedTexture(dir, "k", t) > 0);
    const fs::path file = filesIn(dir, ".tex").at(0);
    const auto size = fs::file_size(file);
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto rewrite = [&](const std::string& content) {
        std::ofstream(file, std::ios::binary | std::ios::trunc).write(content.data(), std::streamsize(content.size()));
    };
    // Cut anywhere, it is not read.
    for (const size_t keep : {size_t(0), size_t(7), size_t(20), size_t(size / 2), size_t(size - 1)}) {
        rewrite(bytes.substr(0, keep));
        CHECK_FALSE(readSharedTexture(dir, "k"));
    }
    // One byte more is not the file written either.
    rewrite(bytes + "x");
    CHECK_FALSE(readSharedTexture(dir, "k"));
    // A level count or size past what the file holds: the counts sit after the magic, key and name.
    std::string huge = bytes;
    const size_t mipsAt = 8 + 4 + 1 + 4 + 1 + 4 + 1;  // magic, "k", "t", firstLevel, hasAlpha
    for (size_t i = 0; i < 8; ++i) huge[mipsAt + i] = char(0xff);
    rewrite(huge);
    CHECK_FALSE(readSharedTexture(dir, "k"));
    rewrite(bytes);
    CHECK(readSharedTexture(dir, "k"));
    // A file under this key's name that holds another key (a hash collision) is not this key's texture.
    REQUIRE(writeSharedTexture(dir, "other", t) > 0);
    fs::path otherFile;
    for (const fs::path& p : filesIn(dir, ".tex"))
        if (p != file) otherFile = p;
    fs::rename(otherFile, file);
    CHECK_FALSE(readSharedTexture(dir, "k"));
    // A texture whose levels do not match its sizes (as no decoder makes one) is refused on reading.
    Texture bad = t;
    bad.paddedLevels[1].pop_back();
    REQUIRE(writeSharedTexture(dir, "bad", bad) > 0);
    CHECK_FALSE(readSharedTexture(dir, "bad"));
    Texture noAlpha = t;
    noAlpha.alphaCellRanges.pop_back();
    REQUIRE(writeSharedTexture(dir, "no alpha ranges", noAlpha) > 0);
    CHECK_FALSE(readSharedTexture(dir, "no alpha ranges"));
}

TEST_CASE("a second process's cache takes the textures the first shared, without decoding", "[texture][share][cache]") {
    const std::string dir = tempDir("texture-share-cache");
    clearTextureCache();
    shareTexturesThrough(dir, size_t(64) << 20);
    const RgbaImage full = noiseImage(64, 64, 6u, true);
    const Texture whole = makeTexture("whole", full);
    int decodes = 0;
    auto job = [&](const std::string& key, float footprint2) {
        TextureJob j{key, key, [&] { ++decodes; return full; }, footprint2, {}};
        j.decodeFrom = [&](float need) {
            ++decodes;
            const int32_t start = reducedStart(need, 64, 64);
            return LevelImage{textureLevel(whole, size_t(start)), start, 64, 64, true};
        };
        return j;
    };
    const float texel2 = 1.0f / (64.0f * 64.0f);
    const auto first = loadTextures({job("share-whole", 0), job("share-reduced", 16 * texel2)});
    REQUIRE(first[0].texture);
    REQUIRE(first[1].texture);
    CHECK(first[1].texture->firstLevel == 2);
    CHECK(decodes == 2);
    const size_t sharedBefore = textureCacheStats().sharedReads;

    clearTextureCache();  // the second process: nothing in its own cache
    const auto second = loadTextures({job("share-whole", 0), job("share-reduced", 64 * texel2)});
    CHECK(decodes == 2);
    CHECK(textureCacheStats().sharedReads == sharedBefore + 2);
    REQUIRE(second[0].texture);
    REQUIRE(second[1].texture);
    checkSame(*second[0].texture, *first[0].texture);
    checkSame(*second[1].texture, *first[1].texture);
    // A need at another level is another texture: decoded, and shared in turn.
    const auto finer = loadTextures({job("share-reduced", 2 * texel2)});
    CHECK(finer[0].texture->firstLevel == 1);
    CHECK(decodes == 3);
    CHECK(filesIn(dir, ".tex").size() == 3);

    // Past its byte limit a process shares nothing more (it still decodes and keeps what it needs).
    const std::string limitDir = tempDir("texture-share-limit");
    shareTexturesThrough(limitDir, 1);
    clearTextureCache();
    const auto limited = loadTextures({job("limit-a", 0)});
    const auto limitedMore = loadTextures({job("limit-b", 0)});
    CHECK(limited[0].texture);
    CHECK(limitedMore[0].texture);
    CHECK(filesIn(limitDir, ".tex").size() == 1);
    shareTexturesThrough("", 0);
    clearTextureCache();
}
