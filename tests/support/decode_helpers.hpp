#pragma once
// Helpers the decoder tests share: maps decoded from memory, little-endian field access for independent
// parsing of map bytes, and the little-endian writer the test map builders use.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"

namespace luxel::test {

// A map held in memory, called `name` in errors (mapName is its stem: "test.bsp" -> "test"). Files beside
// the map come from `related` by relative path, each request recorded in `opened` when given.
MapSource memorySource(std::vector<uint8_t> bytes, const std::string& name = "test.bsp",
                       std::map<std::string, Bytes> related = {}, std::vector<std::string>* opened = nullptr);

// decodeMap of the bytes as memorySource(bytes, name).
World decodeBytes(std::vector<uint8_t> bytes, const std::string& name = "test.bsp");

// Little-endian fields of a byte array (bounds-checked: std::out_of_range past the end).
uint32_t le32(const Bytes& b, size_t at);
uint16_t le16(const Bytes& b, size_t at);
float leF32(const Bytes& b, size_t at);
// The same fields written in place (bounds-checked), and appended, for tests that build or patch files.
void put32(Bytes& b, size_t at, uint32_t v);
void put16(Bytes& b, size_t at, uint16_t v);
void append32(Bytes& b, uint32_t v);
void append16(Bytes& b, uint16_t v);

bool near(Vec3 a, Vec3 b, float eps = 1e-5f);

// Two decodes of the same map data (re-packed, or rewritten elsewhere) agree on geometry, lightmaps and
// the tree: surface and vertex records, indices, lightmap texels, leaves and the PVS (Catch2 REQUIREs, in
// world_checks.cpp).
void requireSameGeometryAndLight(const World& a, const World& b);

// Appends little-endian records, for the test map builders.
struct LeWriter {
    std::vector<uint8_t> bytes;
    void u8(uint8_t v) { bytes.push_back(v); }
    void u16(uint16_t v) {
        u8(uint8_t(v));
        u8(uint8_t(v >> 8));
    }
    void i16(int16_t v) { u16(uint16_t(v)); }
    void u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) u8(uint8_t(v >> (8 * i)));
    }
    void i32(int32_t v) { u32(uint32_t(v)); }
    void f32(float f);
    void vec3(Vec3 v) {
        f32(v.x);
        f32(v.y);
        f32(v.z);
    }
    template <size_t N>
    void i16s(const std::array<int16_t, N>& a) {
        for (int16_t v : a) i16(v);
    }
    template <size_t N>
    void i32s(const std::array<int32_t, N>& a) {
        for (int32_t v : a) i32(v);
    }
    // The characters and a terminating NUL.
    void text(const std::string& s) {
        for (char c : s) u8(uint8_t(c));
        u8(0);
    }
    // A NUL-padded string field of n bytes (always NUL-terminated).
    void fixedString(const std::string& s, size_t n) {
        for (size_t i = 0; i < n; ++i) u8(i < s.size() && i + 1 < n ? uint8_t(s[i]) : 0);
    }
};

}  // namespace luxel::test
