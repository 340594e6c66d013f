// Hostile counts: every reader of untrusted files must refuse a count (or width, height, size) that its file
// cannot back before allocating anything near what it claims. Each case takes a small valid file from the
// tests' writers, sets one count field to the most the field allows (or repeats a table so parents share
// it) and requires a DecodeError (LimitError where a size limit is the documented answer) whose message names
// the field, while the largest single allocation stays near the file's size. The expected answers come from
// the formats: the counts are impossible for the bytes the files hold.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <functional>
#include <string>

#include "luxel/bsp/decode.hpp"
#include "luxel/image/image.hpp"
#include "luxel/io/vpk_archive.hpp"
#include "luxel/material/pcx.hpp"
#include "luxel/material/vtf.hpp"
#include "luxel/material/wal.hpp"
#include "luxel/model/studio.hpp"
#include "luxel/util/error.hpp"
#include "../src/io/zip_archive.hpp"
#include "support/allocation_probe.hpp"
#include "support/decode_helpers.hpp"
#include "support/q2_writer.hpp"
#include "support/q3_writer.hpp"
#include "support/studio_writer.hpp"
#include "support/test_paths.hpp"
#include "support/vbsp_writer.hpp"
#include "support/vpk_writer.hpp"
#include "support/vtf_writer.hpp"
#include "support/zip_writer.hpp"

using namespace luxel;
using luxel::test::append32;
using luxel::test::put16;
using luxel::test::put32;

namespace {

// What a reader did with a hostile file: whether it refused it (and with which error), and the largest
// single allocation it made meanwhile.
struct Refusal {
    bool decodeError = false, limitError = false;
    std::string message;
    size_t largest = 0;
};

Refusal attempt(const std::function<void()>& read) {
    Refusal out;
    out.largest = test::largestAllocationDuring([&] {
        try {
            read();
        } catch (const LimitError& e) {
            out.decodeError = out.limitError = true;
            out.message = e.what();
        } catch (const DecodeError& e) {
            out.decodeError = true;
            out.message = e.what();
        }
    });
    return out;
}

// A refusal as a DecodeError (a LimitError when `limit`) naming `names`, having allocated below `bound` bytes.
void requireRefused(const Refusal& r, const std::string& names, size_t bound, bool limit = false) {
    INFO(r.message);
    REQUIRE(r.decodeError);
    CHECK(r.limitError == limit);
    CHECK_THAT(r.message, Catch::Contains(names));
    CHECK(r.largest < bound);
}

// No reader below may allocate more than this many times its file for a refused count.
constexpr size_t kFileFactor = 64;

// ../shared/maps/source's small TF2 map with displacements, static props and an uncompressed directory.
std::optional<Bytes> sourceMap() {
    const auto maps = test::sharedMaps();
    if (!maps) return std::nullopt;
    const std::filesystem::path path = std::filesystem::path(*maps) / "source" / "bsptool_tf2_test2.bsp";
    if (!std::filesystem::exists(path)) return std::nullopt;
    const std::string text = test::readFileText(path);
    return Bytes(text.begin(), text.end());
}

// The lump directory entry of VBSP lump `lump` (standard layout): offset, length.
std::pair<uint32_t, uint32_t> vbspLump(const Bytes& file, int lump) {
    return {test::le32(file, 8 + 16 * size_t(lump)), test::le32(file, 8 + 16 * size_t(lump) + 4)};
}

constexpr uint32_t kStaticPropId = 0x73707270u;  // 'sprp'
constexpr int kVbspFaces = 7, kVbspPlanes = 1, kVbspDispInfo = 26, kVbspDispVerts = 33, kVbspGameLump = 35;

}  // namespace

TEST_CASE("hostile counts: Quake 3 maps", "[hostile][q3]") {
    SECTION("visdata: INT32_MAX rows of INT32_MAX bytes in a 9-byte lump") {
        test::Q3MapBuilder b = test::makeRoomMap();
        b.vis = test::Q3Vis{1, 1, {0x01}};
        Bytes file = b.build();
        const auto [offset, length] = test::q3LumpRange(file, test::kQ3VisData);
        REQUIRE(length == 9);
        put32(file, offset, 0x7fffffff);
        put32(file, offset + 4, 0x7fffffff);
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "visdata", file.size() * kFileFactor);
    }
    SECTION("meshverts: 1000 faces sharing one 30000-index list over 3 vertices") {
        // Each face's range lies inside the meshvert lump, but together they list 30 M indices (120 MB) from a
        // 0.3 MB file; the vertices bound them (kMaxIndicesPerVertex).
        test::Q3MapBuilder b = test::makeRoomMap();
        const int32_t firstVertex = int32_t(b.vertices.size()), firstMeshVert = int32_t(b.meshVerts.size());
        for (int k = 0; k < 3; ++k) b.vertices.push_back({Vec3{float(k), float(k * k), 1}, {}, {}, {0, 0, 1}});
        for (int k = 0; k < 30000; ++k) b.meshVerts.push_back(k % 3);
        for (int f = 0; f < 1000; ++f) {
            test::Q3Face face;
            face.type = test::kQ3Mesh;
            face.firstVertex = firstVertex, face.numVertices = 3;
            face.firstMeshVert = firstMeshVert, face.numMeshVerts = 30000;
            b.faces.push_back(face);
        }
        const Bytes file = b.build();
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "meshvert indices", file.size() * kFileFactor);
    }
    SECTION("lightvols: a gridsize of 0.001 makes 10^16 points that the lump does not hold") {
        // Not an error: the grid is dropped with a note, and nothing is sized from the point count.
        test::RoomOptions options;
        options.lightGrid = true;
        test::Q3MapBuilder b = test::makeRoomMap(options);
        const size_t at = b.entities.find("\"worldspawn\"");
        REQUIRE(at != std::string::npos);
        b.entities.insert(at + 12, "\n\"gridsize\" \"0.001 0.001 0.001\"");
        const Bytes file = b.build();
        World w;
        const size_t largest = test::largestAllocationDuring([&] { w = test::decodeBytes(file); });
        CHECK_FALSE(w.grid.has_value());
        bool noted = false;
        for (const std::string& p : w.problems) noted = noted || p.find("light grid") != std::string::npos;
        CHECK(noted);
        CHECK(largest < file.size() * kFileFactor);
    }
}

TEST_CASE("hostile counts: Quake 2 maps", "[hostile][q2]") {
    SECTION("visibility: INT32_MAX clusters in a map of 2 leaves") {
        Bytes file = test::makeQ2FloorMap().build();
        const auto [offset, length] = test::q2LumpRange(file, test::kQ2Visibility);
        REQUIRE(length >= 4);
        put32(file, offset, 0x7fffffff);
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "clusters", file.size() * kFileFactor);
    }
    SECTION("faces: 2000 faces sharing one face's surfedges") {
        test::Q2MapBuilder b = test::makeQ2FloorMap();
        const test::Q2Face face = b.faces.at(0);
        for (int k = 0; k < 2000; ++k) b.faces.push_back(face);
        const Bytes file = b.build();
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "surfedges", file.size() * kFileFactor);
    }
}

TEST_CASE("hostile counts: Source maps", "[hostile][vbsp]") {
    const std::optional<Bytes> real = sourceMap();
    if (!real) {
        WARN("SKIPPED: ../shared/maps/source/bsptool_tf2_test2.bsp not found (../shared beside the checkout)");
        return;
    }
    const test::VbspFile map = test::readVbsp(*real);

    SECTION("LZMA lump: an actual size of UINT32_MAX") {
        // Refused against kMaxLumpBytes before the output buffer is sized.
        Bytes file = test::writeVbsp(map, {false, {kVbspPlanes}, false});
        const uint32_t offset = vbspLump(file, kVbspPlanes).first;
        REQUIRE(std::memcmp(file.data() + offset, "LZMA", 4) == 0);
        put32(file, offset + 4, 0xffffffffu);
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "planes", file.size() * kFileFactor);
    }
    SECTION("game lump directory: INT32_MAX entries") {
        Bytes file = test::writeVbsp(map);
        put32(file, vbspLump(file, kVbspGameLump).first, 0x7fffffff);
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "game lumps do not fit",
                       file.size() * kFileFactor);
    }
    // Static prop lumps (version 6) whose name, leaf or prop count is INT32_MAX, 16 bytes after it.
    const auto withProps = [&](const std::vector<int32_t>& counts) {
        Bytes sprp;
        for (int32_t c : counts) append32(sprp, uint32_t(c));
        sprp.resize(sprp.size() + 16, 0);
        test::VbspFile m = map;
        m.gameLumps = {{kStaticPropId, 0, 6, sprp}};
        return test::writeVbsp(m);
    };
    SECTION("static props: INT32_MAX model names") {
        const Bytes file = withProps({0x7fffffff});
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "model names", file.size() * kFileFactor);
    }
    SECTION("static props: INT32_MAX leaves") {
        const Bytes file = withProps({0, 0x7fffffff});
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "prop leaves", file.size() * kFileFactor);
    }
    SECTION("static props: INT32_MAX props") {
        const Bytes file = withProps({0, 0, 0x7fffffff});
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "static props", file.size() * kFileFactor);
    }
    SECTION("displacements: faces sharing one dispinfo rebuild its grid past 4 times the dispverts") {
        test::VbspFile m = map;
        Bytes& faces = m.lumps[kVbspFaces];
        const size_t numDispVerts = m.lumps[kVbspDispVerts].size() / 20;
        REQUIRE(numDispVerts > 0);
        size_t disp = faces.size();
        for (size_t at = 0; at + 56 <= faces.size(); at += 56)
            if (int16_t(test::le16(faces, at + 12)) >= 0) {
                disp = at;
                break;
            }
        REQUIRE(disp < faces.size());
        const size_t info = size_t(int16_t(test::le16(faces, disp + 12))) * 176;
        const int32_t power = int32_t(test::le32(m.lumps[kVbspDispInfo], info + 20));
        const size_t side = (size_t(1) << power) + 1;
        Bytes copy(faces.begin() + ptrdiff_t(disp), faces.begin() + ptrdiff_t(disp + 56));
        put32(copy, 20, 0xffffffffu);  // unlit: the lighting lump's own sharing limit stays out of the way
        const size_t copies = 3 * numDispVerts / (side * side) + 1;
        for (size_t k = 0; k < copies; ++k) faces.insert(faces.end(), copy.begin(), copy.end());
        const Bytes file = test::writeVbsp(m);
        requireRefused(attempt([&] { (void)test::decodeBytes(file); }), "displacement vertices",
                       file.size() * kFileFactor);
    }
}

namespace {

test::SynthStudio quad() {
    test::SynthStudio m;
    for (int k = 0; k < 4; ++k) m.vertices.push_back({{float(k & 1), float(k >> 1), 0}, {0, 0, 1}, {0, 0}});
    m.meshTriangles = {{0, 1, 2, 2, 1, 3}};
    return m;
}

// The first strip group record of a classic-layout .vtx (body part 0, model 0, LOD 0, mesh 0).
size_t firstStripGroup(const Bytes& vtx) {
    size_t at = test::le32(vtx, 32);  // body part offset
    for (int level = 0; level < 4; ++level) at += test::le32(vtx, at + 4);  // model, LOD, mesh, group
    return at;
}

}  // namespace

TEST_CASE("hostile counts: studio models", "[hostile][model]") {
    const test::SynthFiles f = test::writeStudio(quad());
    SECTION("mdl: INT32_MAX body parts") {
        Bytes mdl = f.mdl;
        put32(mdl, 232, 0x7fffffff);
        requireRefused(attempt([&] { (void)readMdl(mdl, "parts.mdl"); }), "body parts", mdl.size() * kFileFactor);
    }
    SECTION("mdl: 1000 body parts sharing one model table") {
        Bytes mdl = f.mdl;
        const size_t part = test::le32(mdl, 236);
        const size_t modelAt = part + size_t(int32_t(test::le32(mdl, part + 12)));
        const size_t first = mdl.size();
        for (size_t k = 0; k < 1000; ++k) {
            const size_t at = mdl.size();
            for (uint32_t v : {0u, 1u, 0u, uint32_t(int32_t(modelAt) - int32_t(at))}) append32(mdl, v);
        }
        put32(mdl, 232, 1000);
        put32(mdl, 236, uint32_t(first));
        requireRefused(attempt([&] { (void)readMdl(mdl, "shared.mdl"); }), "tables together", mdl.size() * kFileFactor);
    }
    SECTION("vvd: INT32_MAX LOD 0 vertices without fix-ups") {
        const Bytes vvd = test::writeVvdWithFixups(1, quad().vertices, 0x7fffffff, {});
        requireRefused(attempt([&] { (void)readVvd(vvd, "lod0.vvd"); }), "LOD 0 vertices", vvd.size() * kFileFactor);
    }
    SECTION("vvd: 2000 fix-ups repeating all 100 stored vertices for INT32_MAX LOD 0 vertices") {
        // Each run lies inside the stored vertices, but together they would build 200,000 (6.4 MB from 30 KB).
        std::vector<StudioVertex> stored(100);
        const std::vector<std::array<int32_t, 3>> runs(2000, {0, 0, 100});
        const Bytes vvd = test::writeVvdWithFixups(1, stored, 0x7fffffff, runs);
        requireRefused(attempt([&] { (void)readVvd(vvd, "runs.vvd"); }), "LOD 0 has", vvd.size() * kFileFactor);
    }
    SECTION("vtx: INT32_MAX body parts") {
        Bytes vtx = f.vtx;
        put32(vtx, 28, 0x7fffffff);
        requireRefused(attempt([&] { (void)readVtx(vtx, "parts.vtx"); }), "body parts", vtx.size() * kFileFactor);
    }
    SECTION("vtx: INT32_MAX strip group vertices") {
        Bytes vtx = f.vtx;
        put32(vtx, firstStripGroup(vtx), 0x7fffffff);
        requireRefused(attempt([&] { (void)readVtx(vtx, "verts.vtx"); }), "strip group vertices",
                       vtx.size() * kFileFactor);
    }
    SECTION("vtx: 2000 body parts sharing one model table") {
        Bytes vtx = f.vtx;
        const size_t part = test::le32(vtx, 32);
        const size_t modelAt = part + test::le32(vtx, part + 4);
        const size_t first = vtx.size();
        for (size_t k = 0; k < 2000; ++k) {
            const size_t at = vtx.size();
            append32(vtx, 1);
            append32(vtx, uint32_t(int32_t(modelAt) - int32_t(at)));
        }
        put32(vtx, 28, 2000);
        put32(vtx, 32, uint32_t(first));
        requireRefused(attempt([&] { (void)readVtx(vtx, "shared.vtx"); }), "tables together", vtx.size() * kFileFactor);
    }
}

namespace {

// A 128-byte PCX header for a `width` x `height` window, 8 bits in one plane, then `data` and a palette.
Bytes pcx(uint16_t xmax, uint16_t ymax, uint16_t bytesPerLine, const Bytes& data) {
    Bytes b(128, 0);
    b[0] = 0x0a, b[1] = 5, b[2] = 1, b[3] = 8;
    put16(b, 8, xmax), put16(b, 10, ymax);
    b[65] = 1;
    put16(b, 66, bytesPerLine);
    b.insert(b.end(), data.begin(), data.end());
    b.push_back(0x0c);
    b.resize(b.size() + 768, 0);
    return b;
}

// A .wal header (100 bytes) of the given size with every mip at byte 100, then `data`.
Bytes wal(uint32_t width, uint32_t height, size_t data) {
    Bytes b(100, 0);
    put32(b, 32, width), put32(b, 36, height);
    for (size_t k = 0; k < 4; ++k) put32(b, 40 + 4 * k, 100);
    b.resize(b.size() + data, 7);
    return b;
}

}  // namespace

TEST_CASE("hostile counts: textures", "[hostile][texture_decode]") {
    SECTION("vtf: a 65535 x 65535 texture is over the size limit") {
        test::VtfSpec spec;
        spec.width = spec.height = 0xffff;
        const Bytes vtf = test::makeVtf(spec);
        requireRefused(attempt([&] { (void)decodeVtf(vtf, "side.vtf", 0); }), "texture size",
                       vtf.size() * kFileFactor, true);
    }
    SECTION("vtf: 65535 frames of a 4 x 4 RGBA texture in 64 bytes of data") {
        test::VtfSpec spec;
        spec.frames = 0xffff;
        spec.data.assign(4 * 4 * 4, 9);
        const Bytes vtf = test::makeVtf(spec);
        requireRefused(attempt([&] { (void)decodeVtf(vtf, "frames.vtf", 0); }), "65535 frames",
                       vtf.size() * kFileFactor);
    }
    SECTION("vtf 7.3: UINT32_MAX resources") {
        test::VtfSpec spec;
        spec.minor = 3;
        spec.data.assign(4 * 4 * 4, 9);
        Bytes vtf = test::makeVtf(spec);
        put32(vtf, 68, 0xffffffffu);
        requireRefused(attempt([&] { (void)decodeVtf(vtf, "resources.vtf", 0); }), "resources.vtf",
                       vtf.size() * kFileFactor);
    }
    SECTION("pcx: a 65536 x 65536 window is over the size limit") {
        const Bytes b = pcx(0xffff, 0xffff, 0xffff, {0});
        requireRefused(attempt([&] { (void)decodePcx(b, "window.pcx"); }), "image size", b.size() * kFileFactor, true);
    }
    SECTION("pcx: 8000 x 8000 from 4 bytes of image data") {
        // 64 MB of scanlines claimed; a byte of RLE decodes to at most 63.
        const Bytes b = pcx(7999, 7999, 8000, {0xff, 1, 0xff, 2});
        requireRefused(attempt([&] { (void)decodePcx(b, "short.pcx"); }), "image data ends", b.size() * kFileFactor);
    }
    SECTION("wal: UINT32_MAX x UINT32_MAX is over the size limit") {
        const Bytes b = wal(0xffffffffu, 0xffffffffu, 16);
        requireRefused(attempt([&] { (void)decodeWal(b, "side.wal", Palette{}, 0, false); }), "texture size",
                       b.size() * kFileFactor, true);
    }
    SECTION("wal: 8192 x 8192 texels from 64 bytes") {
        const Bytes b = wal(8192, 8192, 64);
        requireRefused(attempt([&] { (void)decodeWal(b, "short.wal", Palette{}, 0, false); }), "past end",
                       b.size() * kFileFactor);
    }
    SECTION("tga: a 16000 x 16000 header in an 18-byte file") {
        // Under the 16384 side limit, but 1 GB of float pixels from a 22-byte file: refused by the pixels a
        // byte can encode. OpenImageIO's reader keeps small buffers of its own; 1 MiB bounds them.
        Bytes tga = test::tga1x1(1, 2, 3);
        put16(tga, 12, 16000), put16(tga, 14, 16000);
        requireRefused(attempt([&] { (void)decodeImage(tga, "huge.tga"); }), "more pixels", size_t(1) << 20);
        requireRefused(attempt([&] { (void)decodeImageBytes(tga, "huge.tga"); }), "more pixels", size_t(1) << 20);
    }
}

TEST_CASE("hostile counts: archives", "[hostile][vpk][zip]") {
    const test::VpkBuild build = test::makeVpk({{"dir/a.txt", std::string(100, 'a')}}, 2);
    SECTION("vpk: a tree of UINT32_MAX bytes") {
        Bytes dir = build.directory;
        put32(dir, 8, 0xffffffffu);
        requireRefused(attempt([&] { VpkArchive a("tree_dir.vpk", dir); }), "tree of", dir.size() * kFileFactor);
    }
    SECTION("vpk: an entry of UINT32_MAX bytes") {
        Bytes dir = build.directory;
        uint64_t record = 0;
        {
            VpkArchive a("entry_dir.vpk", dir);
            REQUIRE(a.entries().size() == 1);
            record = a.entries()[0].recordOffset;
        }
        put32(dir, size_t(record) + 12, 0xffffffffu);  // crc, preload length, archive, offset, length
        VpkArchive a("entry_dir.vpk", dir);
        requireRefused(attempt([&] { (void)a.read(0); }), "run past the end", dir.size() * kFileFactor);
    }
    SECTION("zip: a deflated member claiming 4 GB") {
        Bytes zip = test::makeZip({{"a.txt", std::string(4000, 'a')}});
        // The uncompressed size in the local header (+22) and the central directory entry (+24).
        size_t patched = 0;
        for (size_t at = 0; at + 4 <= zip.size(); ++at) {
            const uint32_t sig = test::le32(zip, at);
            if (sig == 0x04034b50u) put32(zip, at + 22, 0xfffffff0u), ++patched;
            if (sig == 0x02014b50u) put32(zip, at + 24, 0xfffffff0u), ++patched;
        }
        REQUIRE(patched == 2);
        const Refusal r = attempt([&] {
            ZipArchive a("claims.zip", zip);
            (void)a.read(0, "a.txt");
        });
        // Deflate expands at most 1032:1, so the claim is refused before the member's buffer is sized.
        requireRefused(r, "claims.zip", zip.size() * kFileFactor);
    }
}
