// The .vvd vertex file, version 4 (studio.h, vertexFileHeader_t): LOD 0's vertices. With a fix-up table
// the file stores the vertices of all LODs interleaved and LOD 0 is rebuilt from the runs whose LOD is
// >= 0 (every run), as Studio_LoadVertexes does.
#include <cstring>

#include "luxel/model/studio.hpp"
#include "studio_read.hpp"

namespace luxel {
namespace {

constexpr size_t kVertexBytes = 48;  // bone weights (16), position, normal, uv
constexpr size_t kFixupBytes = 12;   // lod, source vertex, count

StudioVertex readVertex(ByteReader& r, size_t at) {
    r.seek(at + 16);
    StudioVertex v;
    v.position = {r.f32(), r.f32(), r.f32()};
    v.normal = {r.f32(), r.f32(), r.f32()};
    v.uv = {r.f32(), r.f32()};
    return v;
}

}  // namespace

VvdInfo readVvd(const Bytes& bytes, const std::string& name) {
    ByteReader r(bytes, name, "vvd");
    if (bytes.size() < 64 || std::memcmp(bytes.data(), "IDSV", 4) != 0) r.fail(0, "not a vertex file (no IDSV header)");
    r.seek(4);
    if (const int32_t version = r.i32(); version != 4)
        r.fail(4, "vertex file version " + std::to_string(version) + " is not supported (4)");
    VvdInfo info;
    info.checksum = r.u32();
    r.skip(4);  // LOD count
    const int32_t numLod0 = r.i32();
    r.seek(48);
    const int32_t numFixups = r.i32(), fixupStart = r.i32(), vertexStart = r.i32();
    if (numLod0 < 0) r.fail(16, "negative LOD 0 vertex count");
    studio::checkTable(r, 48, fixupStart, numFixups, kFixupBytes, "vertex fix-ups");
    if (vertexStart < 0 || uint64_t(vertexStart) > bytes.size()) r.fail(56, "vertex data offset outside the file");
    const size_t stored = (bytes.size() - size_t(vertexStart)) / kVertexBytes;
    auto vertexAt = [&](uint64_t index) { return size_t(vertexStart) + size_t(index) * kVertexBytes; };

    if (numFixups == 0) {
        studio::checkTable(r, 16, vertexStart, numLod0, kVertexBytes, "LOD 0 vertices");
        info.vertices.reserve(size_t(numLod0));
        for (int32_t i = 0; i < numLod0; ++i) info.vertices.push_back(readVertex(r, vertexAt(uint64_t(i))));
        return info;
    }
    // The fix-up runs select LOD 0's vertices out of those stored, each once: more than are stored means runs
    // that repeat a range, which could grow LOD 0 far past the file (numLod0 bounds nothing by itself).
    if (uint64_t(numLod0) > stored)
        r.fail(16, "LOD 0 has " + std::to_string(numLod0) + " vertices but the file stores " + std::to_string(stored));
    for (int32_t f = 0; f < numFixups; ++f) {
        const size_t at = size_t(fixupStart) + size_t(f) * kFixupBytes;
        r.seek(at);
        const int32_t lod = r.i32(), source = r.i32(), count = r.i32();
        if (lod < 0) continue;
        if (source < 0 || count < 0 || uint64_t(source) + uint64_t(count) > stored ||
            info.vertices.size() + size_t(count) > size_t(numLod0))
            r.fail(at, "vertex fix-up " + std::to_string(source) + " +" + std::to_string(count) +
                           " outside the file's " + std::to_string(stored) + " vertices or past LOD 0's " +
                           std::to_string(numLod0));
        for (int32_t i = 0; i < count; ++i) info.vertices.push_back(readVertex(r, vertexAt(uint64_t(source) + uint64_t(i))));
    }
    if (info.vertices.size() != size_t(numLod0))
        r.fail(48, "vertex fix-ups give " + std::to_string(info.vertices.size()) + " vertices, LOD 0 has " +
                       std::to_string(numLod0));
    return info;
}

}  // namespace luxel
