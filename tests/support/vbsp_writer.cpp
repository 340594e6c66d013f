#include "support/vbsp_writer.hpp"

#include <lzma.h>

#include <cstring>
#include <stdexcept>

#include "support/decode_helpers.hpp"

namespace luxel::test {

namespace {

void pad4(Bytes& b) {
    while (b.size() % 4) b.push_back(0);
}

}  // namespace

VbspFile readVbsp(const Bytes& file, bool l4d2Layout) {
    VbspFile m;
    if (file.size() < 1036 || std::memcmp(file.data(), "VBSP", 4) != 0) throw std::runtime_error("not a VBSP file");
    m.version = int32_t(le32(file, 4));
    m.mapRevision = int32_t(le32(file, 1032));
    for (size_t i = 0; i < 64; ++i) {
        const size_t e = 8 + 16 * i;
        const uint32_t a = le32(file, e), b = le32(file, e + 4), c = le32(file, e + 8);
        const uint32_t offset = l4d2Layout ? b : a, length = l4d2Layout ? c : b;
        m.lumpVersions[i] = int32_t(l4d2Layout ? a : c);
        if (uint64_t(offset) + length > file.size()) throw std::runtime_error("lump outside file");
        m.lumps[i].assign(file.begin() + offset, file.begin() + offset + length);
    }
    const Bytes& gl = m.lumps[35];
    if (gl.size() >= 4) {
        const uint32_t n = le32(gl, 0);
        for (uint32_t k = 0; k < n; ++k) {
            const size_t e = 4 + 16 * size_t(k);
            VbspGameLump g;
            g.id = le32(gl, e);
            const uint32_t fv = le32(gl, e + 4);
            g.flags = uint16_t(fv), g.version = uint16_t(fv >> 16);
            const uint32_t offset = le32(gl, e + 8), length = le32(gl, e + 12);
            if (g.id == 0 && length == 0) continue;
            if (uint64_t(offset) + length > file.size()) throw std::runtime_error("game lump outside file");
            g.data.assign(file.begin() + offset, file.begin() + offset + length);
            m.gameLumps.push_back(std::move(g));
        }
    }
    return m;
}

Bytes lzmaFrame(const Bytes& raw) {
    lzma_options_lzma opt;
    if (lzma_lzma_preset(&opt, 6)) throw std::runtime_error("lzma preset");
    opt.dict_size = 1u << 16;  // Valve's tools use small dictionaries
    // LZMA1EXT without LZMA_LZMA1EXT_ALLOW_EOPM writes no end marker, as Valve's streams have none.
    opt.ext_flags = 0;
    lzma_filter filters[2] = {{LZMA_FILTER_LZMA1EXT, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
    uint8_t props[5];
    lzma_filter propFilter{LZMA_FILTER_LZMA1, &opt};
    if (lzma_properties_encode(&propFilter, props) != LZMA_OK) throw std::runtime_error("lzma props");
    Bytes out(raw.size() + raw.size() / 2 + 1024);
    size_t outPos = 0;
    if (lzma_raw_buffer_encode(filters, nullptr, raw.data(), raw.size(), out.data(), &outPos, out.size()) != LZMA_OK)
        throw std::runtime_error("lzma encode");
    Bytes framed = {'L', 'Z', 'M', 'A'};
    append32(framed, uint32_t(raw.size()));
    append32(framed, uint32_t(outPos));
    framed.insert(framed.end(), props, props + 5);
    framed.insert(framed.end(), out.begin(), out.begin() + long(outPos));
    return framed;
}

Bytes writeVbsp(const VbspFile& map, const VbspWriteOptions& options) {
    Bytes f(1036, 0);
    std::memcpy(f.data(), "VBSP", 4);
    put32(f, 4, uint32_t(map.version));
    put32(f, 1032, uint32_t(map.mapRevision));
    auto setEntry = [&](size_t i, uint32_t offset, uint32_t length, uint32_t fourCC) {
        const size_t e = 8 + 16 * i;
        const uint32_t version = uint32_t(map.lumpVersions[i]);
        if (options.l4d2Layout) {
            put32(f, e, version), put32(f, e + 4, offset), put32(f, e + 8, length);
        } else {
            put32(f, e, offset), put32(f, e + 4, length), put32(f, e + 8, version);
        }
        put32(f, e + 12, fourCC);
    };
    for (size_t i = 0; i < 64; ++i) {
        if (i == 35) continue;
        pad4(f);
        const Bytes& raw = map.lumps[i];
        const bool pack = options.lzmaLumps.count(int(i)) && !raw.empty();
        const Bytes data = pack ? lzmaFrame(raw) : raw;
        setEntry(i, data.empty() ? 0 : uint32_t(f.size()), uint32_t(data.size()), pack ? uint32_t(raw.size()) : 0);
        f.insert(f.end(), data.begin(), data.end());
    }
    // Game lumps: payloads first, then the directory (whose offsets are file-absolute).
    std::vector<std::pair<uint32_t, Bytes>> payloads;
    for (const auto& g : map.gameLumps) {
        pad4(f);
        const Bytes data = options.lzmaGameLumps ? lzmaFrame(g.data) : g.data;
        payloads.push_back({uint32_t(f.size()), data});
        f.insert(f.end(), data.begin(), data.end());
    }
    pad4(f);
    Bytes dir;
    const size_t entries = map.gameLumps.size() + (options.lzmaGameLumps ? 1 : 0);
    append32(dir, uint32_t(entries));
    for (size_t k = 0; k < map.gameLumps.size(); ++k) {
        const auto& g = map.gameLumps[k];
        append32(dir, g.id);
        append16(dir, uint16_t(options.lzmaGameLumps ? (g.flags | 1) : g.flags));
        append16(dir, g.version);
        append32(dir, payloads[k].first);
        append32(dir, uint32_t(g.data.size()));
    }
    if (options.lzmaGameLumps) {  // Valve ends a compressed directory with an empty dummy entry
        append32(dir, 0), append32(dir, 0), append32(dir, uint32_t(f.size())), append32(dir, 0);
    }
    setEntry(35, uint32_t(f.size()), uint32_t(dir.size()), 0);
    f.insert(f.end(), dir.begin(), dir.end());
    return f;
}

}  // namespace luxel::test
