// LZMA lump framing -> liblzma's .lzma ("alone") decoder: the 5 property bytes plus a 64-bit uncompressed
// size make the standard 13-byte header, so the decoder stops exactly at the actual size (Valve's streams
// carry no end marker).
#include "lzma.hpp"

#include <lzma.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>

namespace luxel::vbsp {

bool isLzmaFramed(const ByteReader& r) {
    const auto d = r.data();
    return d.size() >= kLzmaHeaderBytes && d[0] == 'L' && d[1] == 'Z' && d[2] == 'M' && d[3] == 'A';
}

Bytes decompressLzma(const ByteReader& window, uint64_t maxBytes) {
    ByteReader r = window;
    r.seek(0);
    if (r.fixedString(4) != "LZMA") r.fail(0, "not LZMA-framed data");
    const uint32_t actual = r.u32(), packed = r.u32();
    if (actual > maxBytes)
        r.fail(4, "LZMA actual size " + std::to_string(actual) + " bytes passes the limit of " +
                      std::to_string(maxBytes));
    if (uint64_t(packed) > r.size() - kLzmaHeaderBytes)
        r.fail(8, "LZMA compressed size " + std::to_string(packed) + " passes the end of the data (" +
                      std::to_string(r.size() - kLzmaHeaderBytes) + " bytes after the header)");
    const auto props = r.bytes(5);
    const auto payload = r.bytes(packed);

    // The standard 13-byte .lzma header (properties, 64-bit uncompressed size), then the stream.
    Bytes in(13 + payload.size());
    std::copy(props.begin(), props.end(), in.begin());
    for (int i = 0; i < 8; ++i) in[size_t(5 + i)] = uint8_t((uint64_t(actual) >> (8 * i)) & 0xff);
    std::copy(payload.begin(), payload.end(), in.begin() + 13);

    lzma_stream strm = LZMA_STREAM_INIT;
    // The dictionary is the only large allocation the decoder makes; 256 MiB covers every real encoder
    // setting (Valve's tools use 64 KiB - 16 MiB).
    if (lzma_alone_decoder(&strm, uint64_t(256) << 20) != LZMA_OK) r.fail(0, "cannot start the LZMA decoder");
    std::unique_ptr<lzma_stream, void (*)(lzma_stream*)> guard(&strm, lzma_end);

    Bytes out(size_t(std::min<uint64_t>(actual, std::max<uint64_t>(uint64_t(packed) * 8, 4096))));
    size_t produced = 0;
    strm.next_in = in.data();
    strm.avail_in = in.size();
    for (;;) {
        if (produced == out.size() && out.size() < actual)
            out.resize(size_t(std::min<uint64_t>(actual, uint64_t(out.size()) * 2)));
        strm.next_out = out.data() + produced;
        strm.avail_out = out.size() - produced;
        const lzma_ret ret = lzma_code(&strm, LZMA_FINISH);
        produced = out.size() - strm.avail_out;
        if (ret == LZMA_STREAM_END || ret == LZMA_BUF_ERROR) break;  // done, or no progress possible
        if (ret != LZMA_OK)
            r.fail(kLzmaHeaderBytes, "corrupt LZMA stream (liblzma error " + std::to_string(int(ret)) + ")");
    }
    if (produced != actual)
        r.fail(kLzmaHeaderBytes, "LZMA stream ends after " + std::to_string(produced) + " of " +
                                     std::to_string(actual) + " bytes");
    out.resize(produced);
    return out;
}

}  // namespace luxel::vbsp
