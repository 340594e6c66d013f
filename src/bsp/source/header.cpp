// VBSP header: ident, version, the 64-entry lump directory in either layout, map revision; LZMA lumps
// are decompressed here so every later part reads plain lump data.
#include <string>

#include "format.hpp"
#include "lzma.hpp"

namespace luxel::vbsp {

namespace {

// Standard entries are (offset, length, version, fourCC); Left 4 Dead 2 moved version first.
std::array<DirectoryEntry, kLumpCount> readEntries(ByteReader header, bool l4d2) {
    std::array<DirectoryEntry, kLumpCount> d;
    header.seek(8);
    for (auto& e : d) {
        const uint32_t a = header.u32(), b = header.u32(), c = header.u32();
        e.fourCC = header.u32();
        if (l4d2) {
            e.version = int32_t(a), e.offset = b, e.length = c;
        } else {
            e.offset = a, e.length = b, e.version = int32_t(c);
        }
    }
    return d;
}

// Lumps whose window lies after the header and inside the file (empty lumps always do).
int saneEntries(const std::array<DirectoryEntry, kLumpCount>& d, uint64_t fileSize) {
    int n = 0;
    for (const DirectoryEntry& e : d)
        n += e.length == 0 || (e.offset >= kHeaderBytes && uint64_t(e.offset) + e.length <= fileSize);
    return n;
}

}  // namespace

LumpDirectory readLumpDirectory(const ByteReader& file) {
    // The layout whose reading puts every lump inside the file wins; on a tie (every lump empty, or
    // both broken alike) the standard one, whose bad entry then fails where the lump is read.
    LumpDirectory d;
    const auto standard = readEntries(file, false), l4d2 = readEntries(file, true);
    d.l4d2 = saneEntries(l4d2, file.size()) > saneEntries(standard, file.size());
    d.entries = d.l4d2 ? l4d2 : standard;
    return d;
}

void decodeHeader(Context& c, World& w) {
    const MapSource& s = *c.source;
    ByteReader file(s.bytes, s.displayName, "header", 0);
    if (file.size() < kHeaderBytes)
        file.fail(0, "file too small for a VBSP header (" + std::to_string(file.size()) + " of " +
                         std::to_string(kHeaderBytes) + " bytes)");
    if (file.fixedString(4) != "VBSP") file.fail(0, "not a VBSP file");
    c.version = file.i32();
    w.version = c.version;
    if (c.version < 19 || c.version > 21)
        file.fail(4, "VBSP version " + std::to_string(c.version) + " is not supported (19-21)");
    file.seek(kHeaderBytes - 4);
    w.mapRevision = file.i32();

    const LumpDirectory directory = readLumpDirectory(file);
    const auto& dir = directory.entries;
    w.layoutName = directory.l4d2 ? "left4dead2" : "standard";

    c.lumps.reserve(kLumpCount);
    c.decompressed.resize(kLumpCount);
    w.lumps.reserve(kLumpCount);
    uint64_t decompressedTotal = 0;
    for (int i = 0; i < kLumpCount; ++i) {
        const DirectoryEntry& e = dir[size_t(i)];
        const char* name = kLumpNames[size_t(i)];
        if (e.length > 0 && e.offset < kHeaderBytes)
            throw DecodeError(s.displayName, name, 8 + 16 * uint64_t(i),
                              "lump offset " + std::to_string(e.offset) + " lies inside the header");
        // sub() throws naming the lump at its own offset when the window leaves the file.
        ByteReader raw = file.sub(e.length ? e.offset : 0, e.length, name);
        LumpInfo info{name, e.offset, e.length, e.version, false};
        // The pakfile is a zip (never LZMA-framed as a whole); game lumps are compressed one by one.
        if (i != kPakfile && isLzmaFramed(raw)) {
            Bytes& data = c.decompressed[size_t(i)];
            data = decompressLzma(raw, kMaxLumpBytes);
            decompressedTotal += data.size();
            if (decompressedTotal > kMaxDecompressedBytes)
                raw.fail(0, "LZMA lumps decompress to more than " + std::to_string(kMaxDecompressedBytes) +
                                " bytes in total");
            if (e.fourCC != data.size())
                w.problems.push_back(std::string("lump ") + name + ": directory says " + std::to_string(e.fourCC) +
                                     " uncompressed bytes, the LZMA header " + std::to_string(data.size()));
            info.compressed = true;
            // Offsets in errors point at the compressed lump's start: decompressed bytes have no file position.
            c.lumps.emplace_back(std::span<const uint8_t>(data), s.displayName, std::string(name) + " (decompressed)",
                                 uint64_t(e.offset));
        } else {
            c.lumps.push_back(raw);
        }
        w.lumps.push_back(std::move(info));
    }
}

void useLightingSet(Context& c, bool hdr) {
    c.useHdr = hdr;
    c.lightingLump = hdr ? kLightingHdr : kLighting;
    c.facesLump = hdr && c.lump(kFacesHdr).size() > 0 ? kFacesHdr : kFaces;
    if (c.facesLump == kFaces && c.lump(kFaces).size() == 0 && c.lump(kFacesHdr).size() > 0) c.facesLump = kFacesHdr;
}

}  // namespace luxel::vbsp
