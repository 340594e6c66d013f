// WAD2 / WAD3 texture archives: the directory, and each miptex lump's header through the miptex decoder.
#include "luxel/material/wad3.hpp"

#include "luxel/io/reader.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {

namespace {

constexpr size_t kEntryBytes = 32;
constexpr uint8_t kWad3Miptex = 0x43, kWad2Miptex = 0x44;

}  // namespace

Wad readWad(Bytes bytes, const std::string& file) {
    Wad wad;
    wad.file = file;
    ByteReader r(bytes, file, "header", 0);
    if (bytes.size() < 12) r.fail(0, "file of " + std::to_string(bytes.size()) + " bytes is too small for a WAD header");
    const std::string magic = r.fixedString(4);
    if (magic != "WAD3" && magic != "WAD2") r.fail(0, "not a WAD2 or WAD3 file (magic \"" + magic + "\")");
    wad.halfLife = magic == "WAD3";
    const int32_t count = r.i32();
    const int32_t directory = r.i32();
    if (count < 0 || directory < 0 || uint64_t(directory) > bytes.size() ||
        uint64_t(count) * kEntryBytes > bytes.size() - uint64_t(directory))
        r.fail(4, "directory of " + std::to_string(count) + " entries at byte " + std::to_string(directory) +
                      " does not fit in the " + std::to_string(bytes.size()) + "-byte file");
    const uint8_t miptexType = wad.halfLife ? kWad3Miptex : kWad2Miptex;
    ByteReader d = r.sub(uint64_t(directory), uint64_t(count) * kEntryBytes, "directory");
    for (int32_t i = 0; i < count; ++i) {
        const size_t at = d.position();
        const int32_t filepos = d.i32(), disksize = d.i32();
        d.skip(4);  // the uncompressed size: luxel reads uncompressed lumps only, whose disksize is it
        const uint8_t type = d.u8(), compression = d.u8();
        d.skip(2);
        WadTexture t;
        t.name = d.fixedString(16);
        if (type != miptexType) continue;  // pictures, fonts, palettes: not textures
        t.entryOffset = d.absolute(at);
        t.offset = uint64_t(uint32_t(filepos)), t.size = uint64_t(uint32_t(disksize));
        if (compression != 0)
            t.problem = "compressed (method " + std::to_string(compression) + "), which luxel does not read";
        else if (filepos < 0 || disksize < 0 || t.offset > bytes.size() || t.size > bytes.size() - t.offset)
            t.problem = std::to_string(disksize) + " bytes at byte " + std::to_string(filepos) + " lie past the end of the " +
                        std::to_string(bytes.size()) + "-byte file";
        wad.textures.push_back(std::move(t));
    }
    wad.bytes = std::make_shared<const Bytes>(std::move(bytes));
    return wad;
}

const WadTexture* findWadTexture(const Wad& wad, const std::string& name) {
    const std::string want = toLowerAscii(name);
    for (const WadTexture& t : wad.textures)
        if (toLowerAscii(t.name) == want) return &t;
    return nullptr;
}

std::string wadLumpPart(const WadTexture& lump) { return lump.name; }

std::span<const uint8_t> wadLumpBytes(const Wad& wad, const WadTexture& lump) {
    if (!lump.problem.empty()) throw DecodeError(wad.file, "directory", lump.entryOffset, "lump " + lump.name + ": " + lump.problem);
    return std::span<const uint8_t>(*wad.bytes).subspan(size_t(lump.offset), size_t(lump.size));
}

MiptexEntry readWadMiptex(const Wad& wad, const WadTexture& lump) {
    MiptexEntry e = readMiptexHeader(wadLumpBytes(wad, lump), wad.file, wadLumpPart(lump), lump.offset);
    if (!e.embedded)
        throw DecodeError(wad.file, wadLumpPart(lump), lump.offset + 24, "texture " + e.name + " has no pixels (mip offset 0)");
    return e;
}

}  // namespace luxel
