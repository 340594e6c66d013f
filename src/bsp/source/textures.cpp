// Source materials: texinfo (mapping + surface flags) -> one Material per texinfo, named and coloured by
// its texdata (name through the string table, reflectivity as the flat albedo).
#include <algorithm>
#include <cctype>
#include <cstring>

#include "format.hpp"

namespace luxel::vbsp {

namespace {

std::string upper(std::string s) {
    for (char& ch : s) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

// Tool textures vbsp may leave in the face lump (unlit maps keep many). The sky tools are drawn as sky,
// toolsblack is a real black material; every other tools/ material is invisible in game.
uint32_t toolFlags(const std::string& name) {
    const std::string n = upper(name);
    if (n.rfind("TOOLS/", 0) != 0) return 0;
    if (n == "TOOLS/TOOLSSKYBOX" || n == "TOOLS/TOOLSSKYBOX2D") return kMaterialSky | kMaterialNoLightmap;
    if (n == "TOOLS/TOOLSBLACK" || n == "TOOLS/TOOLSBLACK_NOPORTAL") return 0;
    return kMaterialNoDraw;
}

}  // namespace

void decodeMaterials(Context& c, World& w) {
    // String table: offsets into the NUL-separated string data.
    ByteReader& table = c.lump(kTexdataStringTable);
    const size_t numStrings = table.recordCount(kStringTableBytes);
    ByteReader& strings = c.lump(kTexdataStringData);
    auto nameAt = [&](size_t stringIndex) -> std::string {
        const size_t at = stringIndex * kStringTableBytes;
        table.seek(at);
        const uint32_t offset = table.u32();
        if (offset >= strings.size())
            table.fail(at, "texture name offset " + std::to_string(offset) + " outside the string data (" +
                               std::to_string(strings.size()) + " bytes)");
        const char* p = reinterpret_cast<const char*>(strings.data().data()) + offset;
        return std::string(p, strnlen(p, strings.size() - offset));
    };

    struct Texdata {
        Vec3 reflectivity;
        std::string name;
        int32_t width = 0, height = 0;
    };
    ByteReader& td = c.lump(kTexdata);
    c.numTexdata = td.recordCount(kTexdataBytes);
    std::vector<Texdata> texdata(c.numTexdata);
    for (auto& t : texdata) {
        const size_t at = td.position();
        t.reflectivity = readVec3(td);
        const int32_t nameId = td.i32();
        checkIndex(td, at + 12, nameId, numStrings, "texture name string");
        t.width = td.i32();
        t.height = td.i32();
        td.skip(8);  // view width / height
        t.name = nameAt(size_t(nameId));
    }

    ByteReader& r = c.lump(kTexinfo);
    c.numTexinfo = r.recordCount(kTexinfoBytes);
    c.texinfo.resize(c.numTexinfo);
    w.materials.resize(c.numTexinfo);
    for (size_t i = 0; i < c.numTexinfo; ++i) {
        Texinfo& t = c.texinfo[i];
        const size_t at = r.position();
        for (float& v : t.textureVecs) v = r.f32();
        for (float& v : t.lightmapVecs) v = r.f32();
        t.flags = r.u32();
        t.texdata = r.i32();
        checkIndex(r, at + 68, t.texdata, c.numTexdata, "texdata", true);
        Material& m = w.materials[i];
        m.nativeSurfaceFlags = t.flags;
        if (t.texdata >= 0) {
            const Texdata& d = texdata[size_t(t.texdata)];
            m.name = d.name;
            m.reflectivity = d.reflectivity;
            t.width = d.width;
            t.height = d.height;
        }
        if (t.flags & (kSurfSky | kSurfSky2D)) m.flags |= kMaterialSky | kMaterialNoLightmap;
        if (t.flags & (kSurfNoDraw | kSurfHint | kSurfSkip | kSurfTrigger)) m.flags |= kMaterialNoDraw;
        m.flags |= toolFlags(m.name);
    }
}

}  // namespace luxel::vbsp
