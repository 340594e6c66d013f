#pragma once
// What the Quake 1 decoder tests share: decoding a written map, expecting a DecodeError, how the World holds a
// stored light byte, and one luxel of a block.
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "luxel/bsp/decode.hpp"
#include "luxel/bsp/world.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q1_writer.hpp"

namespace luxel::test {

inline bool quake(Q1Variant v) { return v != Q1Variant::HalfLife; }

inline World decodeQ1(const Q1MapBuilder& b, std::map<std::string, Bytes> related = {},
               std::vector<std::string>* opened = nullptr) {
    return decodeMap(memorySource(b.build(), "test.bsp", std::move(related), opened));
}

// `run` must throw a DecodeError in lump `lump` whose message mentions `mentions`.
inline void expectDecodeError(const std::function<void()>& run, const std::string& lump, const std::string& mentions) {
    INFO("expected a DecodeError in lump " << lump << " mentioning '" << mentions << "'");
    try {
        run();
        FAIL("no error");
    } catch (const DecodeError& e) {
        INFO(e.what());
        CHECK(e.lump() == lump);
        CHECK_THAT(std::string(e.what()), Catch::Contains(mentions));
    }
}
inline void expectDecodeError(const Bytes& file, const std::string& lump, const std::string& mentions,
                       std::map<std::string, Bytes> related = {}) {
    expectDecodeError([&] { decodeMap(memorySource(file, "test.bsp", related)); }, lump, mentions);
}


inline size_t miptexHeader(const Bytes& file, int slot) {
    const uint32_t lump = q1LumpRange(file, kQ1Textures).first;
    return lump + le32(file, lump + 4 + 4 * size_t(slot));
}

// A stored light byte as the World holds it: QuakeSpasm's style 'm' (264) over 256, as a fraction of 255; Half-Life's
// GoldSrc also scales by its lightscale at lightgamma 2.5, (int)(2^0.4 x 256 + 0.5) = 338, over 256.
inline float stored(uint8_t b, bool halfLife = false) {
    return float(double(b) * 264.0 / 256.0 * (halfLife ? 338.0 / 256.0 : 1.0) / 255.0);
}

// Luxel (i, j) of surface s's block in style slot `slot`.
inline Vec3 luxelAt(const World& w, int slot, const Surface& s, int i, int j) {
    REQUIRE(s.lightmapPage >= 0);
    const LightmapPage& page =
        slot == 0 ? w.lightmaps.at(size_t(s.lightmapPage)) : w.extraLightmapSlots[size_t(slot - 1)].at(size_t(s.lightmapPage));
    const size_t x = size_t(s.lightmapRect[0] + i), y = size_t(s.lightmapRect[1] + j);
    const float* t = page.rgb.data() + (y * size_t(page.width) + x) * 3;
    return {t[0], t[1], t[2]};
}

// A face the decoder gave one black luxel because it has no light of its own (R_BuildLightMap's cleared block).
inline bool darkBlock(const World& w, const Surface& s) {
    return s.lightmapPage >= 0 && s.lightmapRect[2] == 1 && s.lightmapRect[3] == 1 && luxelAt(w, 0, s, 0, 0) == Vec3{0, 0, 0};
}

}  // namespace luxel::test
