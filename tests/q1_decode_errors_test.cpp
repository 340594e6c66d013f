// The Quake 1 / Half-Life decoder on hostile input, written by tests/support/q1_writer and then damaged: a miptex
// claiming a huge size, malformed records and lumps (each a DecodeError naming what is wrong), truncations and
// byte flips.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "luxel/bsp/decode.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/miptex.hpp"
#include "luxel/material/quake_palette.hpp"
#include "luxel/util/error.hpp"
#include "support/decode_helpers.hpp"
#include "support/q1_checks.hpp"
#include "support/q1_writer.hpp"
#include "support/test_paths.hpp"

using namespace luxel;
using namespace luxel::test;

TEST_CASE("q1: a miptex claiming a huge size is refused by the texture reader, not the map decoder", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        Bytes file = makeQ1FloorMap(v).build();
        const size_t header = miptexHeader(file, 0);
        put32(file, header + 16, 65536);
        put32(file, header + 20, 65536);
        const MapSource source = memorySource(file);
        World w;
        REQUIRE_NOTHROW(w = decodeMap(source));  // the decoder reads names only
        CHECK(w.materials[0].name == "floor1");
        expectDecodeError([&] { readMiptexDirectory(w.embeddedTextures, "test.bsp"); }, "textures", "65536x65536");
        // The loader keeps the map: a warning, every texture missing.
        MaterialSet set;
        REQUIRE_NOTHROW(set = loadMaterials(w, source, {}));
        REQUIRE(set.warnings.size() == 1);
        CHECK_THAT(set.warnings[0], Catch::Contains("floor1") && Catch::Contains("65536x65536"));
        CHECK(set.looks[0].missing);

        // A size inside the limit whose pixels leave the lump.
        put32(file, header + 16, 4096);
        put32(file, header + 20, 4096);
        const World big = decodeMap(memorySource(file));
        const std::vector<MiptexEntry> dir = readMiptexDirectory(big.embeddedTextures, "test.bsp");
        expectDecodeError([&] { decodeMiptex(big.embeddedTextures, dir[0], {&defaultQuakePalette()}, "test.bsp"); },
                          "textures", "outside the lump");
    }
}

TEST_CASE("q1: malformed files are DecodeErrors that name what is wrong", "[q1]") {
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        const Q1MapBuilder base = makeQ1FloorMap(v);
        const Q1RecordBytes rec = q1RecordBytes(v);

        DYNAMIC_SECTION("a miptex directory count past the lump, " << q1VariantName(v)) {
            Bytes file = base.build();
            const uint32_t lump = q1LumpRange(file, kQ1Textures).first;
            put32(file, lump, 1000000);
            expectDecodeError(file, "textures", "miptex count 1000000");
            put32(file, lump, uint32_t(-3));
            expectDecodeError(file, "textures", "miptex count -3");
        }
        DYNAMIC_SECTION("a miptex offset past the lump, " << q1VariantName(v)) {
            Bytes file = base.build();
            const auto [lump, length] = q1LumpRange(file, kQ1Textures);
            put32(file, lump + 8, length - 20);
            expectDecodeError(file, "textures", "miptex 1 offset");
        }
        DYNAMIC_SECTION("a face lightmap past the lighting lump, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            // Face 1 needs 4 x 4 x 2 luxels (x 3 bytes in Half-Life) of the 47 (141).
            b.faces[1].lightOffset = quake(v) ? 16 : 48;
            expectDecodeError(b.build(), "faces", "face 1 lightmap (4x4 luxels x 2 styles");
        }
        DYNAMIC_SECTION("a negative lighting offset, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.faces[0].lightOffset = -5;
            expectDecodeError(b.build(), "faces", "negative lighting offset -5");
        }
        DYNAMIC_SECTION("a face lightmap too large to be real, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.texinfos[0].s = {1000, 0, 0, 0};
            expectDecodeError(b.build(), "faces", "at most 1024");
        }
        DYNAMIC_SECTION("a node child out of range, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.nodes[1].children[1] = 7;  // BSP29: an unsigned 7 past the node count is leaf 65535 - 7
            expectDecodeError(b.build(), "nodes", "node 1 child");
            b = base;
            b.nodes[1].children[0] = -10;
            expectDecodeError(b.build(), "nodes", "child -10");
            b = base;
            b.nodes[1].children[0] = 0;  // back up the tree
            expectDecodeError(b.build(), "nodes", "neither a later node");
        }
        DYNAMIC_SECTION("a leaf visofs past the visibility lump, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.pvs.reset();
            b.rawLumps[kQ1Visibility] = Bytes{0x01, 0x03};
            b.leaves[1].visOffset = 0;
            b.leaves[2].visOffset = 100;
            expectDecodeError(b.build(), "leafs", "visibility offset 100");
        }
        DYNAMIC_SECTION("a model's visible leaves past the leaves, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.models[0].visLeaves = 3;
            expectDecodeError(b.build(), "models", "visible leaves");
        }
        DYNAMIC_SECTION("a leaf's marksurfaces past the lump, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.leaves[2].numMarkSurfaces = 2;
            expectDecodeError(b.build(), "leafs", "marksurface range");
        }
        DYNAMIC_SECTION("a record lump of the wrong size, " << q1VariantName(v)) {
            Bytes file = base.build();
            const auto [offset, length] = q1LumpRange(file, kQ1Faces);
            setQ1LumpRange(file, kQ1Faces, offset, length - 1);
            expectDecodeError(file, "faces", "multiple of the record size " + std::to_string(rec.face));
        }
        DYNAMIC_SECTION("a BSPX directory with an out-of-range lump, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.addBspx("LMSHIFT", {4, 4});
            Bytes file = b.build();
            const size_t dir = q1BspxDirectory(file);
            REQUIRE(dir > 0);
            put32(file, dir + 8 + 24, uint32_t(file.size() - 1));
            expectDecodeError(file, "bspx", "BSPX lump LMSHIFT");
            expectDecodeError(file, "bspx", "lies outside");
            put32(file, dir + 4, 100000);
            expectDecodeError(file, "bspx", "BSPX directory of 100000 lumps");
        }
        DYNAMIC_SECTION("a BSPX lump listed twice, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.addBspx("LMSHIFT", {4, 4});
            b.addBspx("LMSHIFT", {4, 4});
            expectDecodeError(b.build(), "bspx", "LMSHIFT listed twice");
        }
        DYNAMIC_SECTION("BSPX per-face lumps of the wrong size or with bad values, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            b.addBspx("LMSHIFT", {4, 4, 4});
            expectDecodeError(b.build(), "LMSHIFT", "LMSHIFT holds 3 bytes");
            b = base;
            b.addBspx("LMSHIFT", {4, 11});
            expectDecodeError(b.build(), "LMSHIFT", "luxel shift 11");
            b = base;
            b.addBspx("DECOUPLED_LM", Bytes(79));
            expectDecodeError(b.build(), "DECOUPLED_LM", "DECOUPLED_LM holds 79 bytes");
            b = base;
            Q1Decoupled d{4, 4, 0, {{{NAN, 0, 0, 0}, {0, 1, 0, 0}}}};
            b.addBspx("DECOUPLED_LM", q1DecoupledLump({d, d}));
            expectDecodeError(b.build(), "DECOUPLED_LM", "non-finite");
            b = base;
            b.addBspx("LMSHIFT", {2, 4});  // face 0's 17x9 luxels do not fit the lump
            expectDecodeError(b.build(), "faces", "extends past");
        }
        if (!quake(v)) continue;
        DYNAMIC_SECTION("RGBLIGHTING of the wrong length, " << q1VariantName(v)) {
            Q1MapBuilder b = base;
            Bytes rgb = b.rgbLighting;
            rgb.pop_back();
            b.addBspx("RGBLIGHTING", rgb);
            expectDecodeError(b.build(), "RGBLIGHTING", "RGBLIGHTING holds 140 bytes, not 3 x the 47");
        }
        DYNAMIC_SECTION("a .lit of the wrong length, " << q1VariantName(v)) {
            Bytes lit = base.litFile();
            lit.resize(lit.size() - 3);
            expectDecodeError(base.build(), "lit", ".lit holds 138 bytes of light, not 3 x the 47", {{"test.lit", lit}});
            try {
                decodeMap(memorySource(base.build(), "test.bsp", {{"test.lit", lit}}));
            } catch (const DecodeError& e) {
                CHECK(e.file() == "test.lit");
            }
        }
        DYNAMIC_SECTION("a .lit with a bad header or version, " << q1VariantName(v)) {
            Bytes lit = base.litFile();
            lit[3] = 'X';
            expectDecodeError(base.build(), "lit", "QLIT", {{"test.lit", lit}});
            expectDecodeError(base.build(), "lit", "QLIT", {{"test.lit", Bytes{'Q', 'L', 'I', 'T'}}});
            expectDecodeError(base.build(), "lit", "version 2", {{"test.lit", q1LitFile(base.rgbLighting, 2)}});
        }
        DYNAMIC_SECTION("a face lightmap past an RGB source, " << q1VariantName(v)) {
            // A .lit that holds what the grey lump holds is read at 3 x the offset: a face's block must fit it.
            Q1MapBuilder b = base;
            b.faces[1].lightOffset = 16;
            expectDecodeError(b.build(), "faces", "extends past the .lit", {{"test.lit", b.litFile()}});
        }
    }
}

TEST_CASE("q1: truncated and corrupted maps are DecodeErrors or decode, never anything else", "[q1]") {
    std::mt19937 rng(29);
    for (const Q1Variant v : kQ1Variants) {
        INFO(q1VariantName(v));
        Q1FloorOptions o;
        o.lmShift = std::array<uint8_t, 2>{3, 4};
        o.bspxRgb = quake(v);
        const Q1MapBuilder b = makeQ1FloorMap(v, o);
        const Bytes file = b.build();
        size_t errors = 0, decoded = 0;
        auto attempt = [&](const Bytes& bytes, bool lit) {
            std::map<std::string, Bytes> related;
            if (lit) related["test.lit"] = b.litFile();
            try {
                const World w = decodeMap(memorySource(bytes, "test.bsp", related));
                ++decoded;
            } catch (const DecodeError&) {
                ++errors;
            }
        };
        for (size_t cut = 0; cut < file.size(); cut += 3) attempt(Bytes(file.begin(), file.begin() + long(cut)), false);
        for (int k = 0; k < 3000; ++k) {
            Bytes bytes = file;
            const int flips = 1 + int(rng() % 4);
            for (int f = 0; f < flips; ++f) {
                const size_t at = rng() % bytes.size();
                switch (rng() % 3) {
                    case 0: bytes[at] = uint8_t(rng()); break;
                    case 1: bytes[at] ^= uint8_t(1u << (rng() % 8)); break;
                    default: bytes[at] = rng() % 2 ? 0xff : 0x00; break;
                }
            }
            attempt(bytes, k % 2 == 1);
        }
        CHECK(errors > 0);
        CHECK(decoded > 0);
    }
}

// ---- The shared LibreQuake builds ----------------------------------------------------------------
