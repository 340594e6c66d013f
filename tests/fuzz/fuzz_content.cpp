// libFuzzer entry point for the readers of game content a map leans on (built with -DLUXEL_FUZZ=ON, run by
// tools/fuzz.sh). The first byte of an input picks the reader (mod 10) and the rest is the file: a VTF, a PCX (image
// and palette), a WAL or a WAD (WAD2 / WAD3: its directory and every texture), a JPEG, a VMT, a KeyValues file (gameinfo.txt), a PNG, a TGA, a WebP or a Quake 3 shader
// script. One reader per
// input: trying every input as every format spent most of the time parsing large binary textures as shader text.
// A DecodeError is the expected answer to bad bytes; any other exception, crash, sanitizer report, hang or
// huge allocation is a finding.
#include <tbb/global_control.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../src/image/codecs.hpp"
#include "luxel/io/keyvalues.hpp"
#include "luxel/material/jpeg.hpp"
#include "luxel/material/pcx.hpp"
#include "luxel/material/q3_shader.hpp"
#include "luxel/material/vmt.hpp"
#include "luxel/material/vtf.hpp"
#include "luxel/material/wad3.hpp"
#include "luxel/material/wal.hpp"
#include "luxel/util/error.hpp"

namespace {

template <class F>
void expectDecodeErrorOnly(F&& read) {
    try {
        read();
    } catch (const luxel::DecodeError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // One thread: coverage then depends on the input alone.
    static const tbb::global_control oneThread(tbb::global_control::max_allowed_parallelism, 1);
    if (size == 0) return 0;
    const std::vector<uint8_t> bytes(data + 1, data + size);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    switch (data[0] % 10) {
        case 0:
            expectDecodeErrorOnly([&] { (void)luxel::readVtfInfo(bytes, "fuzz.vtf"); });
            expectDecodeErrorOnly([&] { (void)luxel::decodeVtf(bytes, "fuzz.vtf"); });
            expectDecodeErrorOnly([&] { (void)luxel::decodeVtf(bytes, "fuzz.vtf", 3); });
            break;
        case 1:
            expectDecodeErrorOnly([&] { (void)luxel::decodePcx(bytes, "fuzz.pcx"); });
            expectDecodeErrorOnly([&] { (void)luxel::readPcxPalette(bytes, "fuzz.pcx"); });
            break;
        case 2: {
            luxel::Palette palette{};  // a ramp, so colour lookups differ by index
            for (size_t i = 0; i < palette.size(); ++i) palette[i] = {uint8_t(i), uint8_t(255 - i), uint8_t(i * 7)};
            expectDecodeErrorOnly([&] { (void)luxel::decodeWal(bytes, "fuzz.wal", palette, 0, true); });
            expectDecodeErrorOnly([&] { (void)luxel::decodeWal(bytes, "fuzz.wal", palette, 3); });
            expectDecodeErrorOnly([&] {
                const luxel::Wad wad = luxel::readWad(bytes, "fuzz.wad");
                for (const luxel::WadTexture& t : wad.textures)
                    expectDecodeErrorOnly([&] {
                        const luxel::MiptexEntry e = luxel::readWadMiptex(wad, t);
                        luxel::MiptexDecode how;
                        how.palette = wad.halfLife ? nullptr : &palette;
                        how.fence = true;
                        (void)luxel::decodeMiptex(luxel::wadLumpBytes(wad, t), e, how, wad.file, luxel::wadLumpPart(t), t.offset);
                    });
            });
            break;
        }
        case 3: expectDecodeErrorOnly([&] { (void)luxel::decodeJpegRgba(bytes, "fuzz.jpg"); }); break;
        case 4: expectDecodeErrorOnly([&] { (void)luxel::parseVmt(text, "fuzz.vmt"); }); break;
        case 5: expectDecodeErrorOnly([&] { (void)luxel::parseKeyValues(text, "gameinfo.txt"); }); break;
        // The image codecs luxel runs itself (src/image/*_codec.cpp); the OpenImageIO module is not loaded here.
        case 6: expectDecodeErrorOnly([&] { (void)luxel::decodePng(bytes, "fuzz.png"); }); break;
        case 7:
            if (luxel::isOwnTga(bytes)) expectDecodeErrorOnly([&] { (void)luxel::decodeTga(bytes, "fuzz.tga"); });
            break;
        case 8:
            expectDecodeErrorOnly([&] { (void)luxel::decodeWebp(bytes, "fuzz.webp"); });
            expectDecodeErrorOnly([&] { (void)luxel::decodeJpegSamples(bytes, "fuzz.jpg"); });
            break;
        default:
            expectDecodeErrorOnly([&] {
                std::vector<std::string> warnings;
                for (const luxel::Q3Shader& shader : luxel::parseShaderScript(text, "fuzz.shader", &warnings)) {
                    (void)luxel::drawKind(shader);
                    (void)luxel::engineSort(shader);
                    (void)luxel::unevaluatedFeatures(shader);
                }
            });
    }
    return 0;
}
