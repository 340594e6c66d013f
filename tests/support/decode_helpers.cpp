#include "support/decode_helpers.hpp"

#include <cmath>
#include <cstring>

#include "luxel/bsp/decode.hpp"

namespace luxel::test {

MapSource memorySource(std::vector<uint8_t> bytes, const std::string& name, std::map<std::string, Bytes> related,
                       std::vector<std::string>* opened) {
    MapSource s;
    s.displayName = name;
    s.mapName = name.substr(0, name.rfind('.'));
    s.bytes = std::move(bytes);
    s.openRelated = [related = std::move(related), opened](const std::string& rel) -> std::optional<Bytes> {
        if (opened) opened->push_back(rel);
        auto it = related.find(rel);
        if (it == related.end()) return std::nullopt;
        return it->second;
    };
    return s;
}

World decodeBytes(std::vector<uint8_t> bytes, const std::string& name) {
    return decodeMap(memorySource(std::move(bytes), name));
}

uint32_t le32(const Bytes& b, size_t at) {
    return uint32_t(b.at(at)) | (uint32_t(b.at(at + 1)) << 8) | (uint32_t(b.at(at + 2)) << 16) |
           (uint32_t(b.at(at + 3)) << 24);
}
uint16_t le16(const Bytes& b, size_t at) { return uint16_t(b.at(at) | (b.at(at + 1) << 8)); }
void put32(Bytes& b, size_t at, uint32_t v) {
    for (size_t k = 0; k < 4; ++k) b.at(at + k) = uint8_t(v >> (8 * k));
}
void put16(Bytes& b, size_t at, uint16_t v) { b.at(at) = uint8_t(v), b.at(at + 1) = uint8_t(v >> 8); }
void append32(Bytes& b, uint32_t v) {
    for (size_t k = 0; k < 4; ++k) b.push_back(uint8_t(v >> (8 * k)));
}
void append16(Bytes& b, uint16_t v) {
    b.push_back(uint8_t(v));
    b.push_back(uint8_t(v >> 8));
}
float leF32(const Bytes& b, size_t at) {
    const uint32_t v = le32(b, at);
    float f;
    std::memcpy(&f, &v, 4);
    return f;
}

bool near(Vec3 a, Vec3 b, float eps) {
    return std::fabs(a.x - b.x) <= eps && std::fabs(a.y - b.y) <= eps && std::fabs(a.z - b.z) <= eps;
}

void LeWriter::f32(float f) {
    uint32_t v;
    std::memcpy(&v, &f, 4);
    u32(v);
}

}  // namespace luxel::test
