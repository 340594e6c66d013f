#include "support/decode_helpers.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "luxel/bsp/decode.hpp"
#include "luxel/material/vtf.hpp"

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
float leF32(const Bytes& b, size_t at) {
    const uint32_t v = le32(b, at);
    float f;
    std::memcpy(&f, &v, 4);
    return f;
}

void requireSameGeometryAndLight(const World& a, const World& b) {
    REQUIRE(a.surfaces.size() == b.surfaces.size());
    REQUIRE(a.vertices.size() == b.vertices.size());
    for (size_t i = 0; i < a.vertices.size(); ++i) {
        REQUIRE(a.vertices[i].position == b.vertices[i].position);
        REQUIRE(a.vertices[i].lightmapUV.x == b.vertices[i].lightmapUV.x);
        REQUIRE(a.vertices[i].lightmapUV.y == b.vertices[i].lightmapUV.y);
        REQUIRE(a.vertices[i].color.w == b.vertices[i].color.w);
    }
    REQUIRE(a.indices == b.indices);
    REQUIRE(a.lightmaps.size() == b.lightmaps.size());
    for (size_t i = 0; i < a.lightmaps.size(); ++i) REQUIRE(a.lightmaps[i].rgb == b.lightmaps[i].rgb);
    REQUIRE(a.leaves.size() == b.leaves.size());
    REQUIRE(a.pvs.rows == b.pvs.rows);
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
