// libFuzzer entry point for the readers of game content a map leans on (built with -DLUXEL_FUZZ=ON, run by
// tools/fuzz.sh): every input is tried as a VTF, a PCX (image and palette), a WAL, a JPEG, a VMT, a KeyValues file
// (gameinfo.txt) and a Quake 3 shader script.
// A DecodeError is the expected answer to bad bytes; any other exception, crash, sanitizer report, hang or
// huge allocation is a finding.
#include <tbb/global_control.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "luxel/io/keyvalues.hpp"
#include "luxel/material/jpeg.hpp"
#include "luxel/material/pcx.hpp"
#include "luxel/material/q3_shader.hpp"
#include "luxel/material/vmt.hpp"
#include "luxel/material/vtf.hpp"
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
    const std::vector<uint8_t> bytes(data, data + size);
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    expectDecodeErrorOnly([&] { (void)luxel::readVtfInfo(bytes, "fuzz.vtf"); });
    expectDecodeErrorOnly([&] { (void)luxel::decodeVtf(bytes, "fuzz.vtf"); });
    expectDecodeErrorOnly([&] { (void)luxel::decodeVtf(bytes, "fuzz.vtf", 3); });
    expectDecodeErrorOnly([&] { (void)luxel::decodePcx(bytes, "fuzz.pcx"); });
    luxel::Palette palette{};
    expectDecodeErrorOnly([&] { palette = luxel::readPcxPalette(bytes, "fuzz.pcx"); });
    expectDecodeErrorOnly([&] { (void)luxel::decodeWal(bytes, "fuzz.wal", palette, 0, true); });
    expectDecodeErrorOnly([&] { (void)luxel::decodeWal(bytes, "fuzz.wal", palette, 3); });
    expectDecodeErrorOnly([&] { (void)luxel::decodeJpegRgba(bytes, "fuzz.jpg"); });
    expectDecodeErrorOnly([&] { (void)luxel::parseVmt(text, "fuzz.vmt"); });
    expectDecodeErrorOnly([&] { (void)luxel::parseKeyValues(text, "gameinfo.txt"); });
    expectDecodeErrorOnly([&] {
        std::vector<std::string> warnings;
        for (const luxel::Q3Shader& shader : luxel::parseShaderScript(text, "fuzz.shader", &warnings)) {
            (void)luxel::drawKind(shader);
            (void)luxel::engineSort(shader);
            (void)luxel::unevaluatedFeatures(shader);
        }
    });
    return 0;
}
