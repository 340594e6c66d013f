#include "uploads.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <stdlib.h>

#include "../io/zip_archive.hpp"
#include "luxel/io/map_listing.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/scene/work_list.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "request_limits.hpp"

namespace luxel::serve {
namespace fs = std::filesystem;

namespace {

bool startsWith(const Bytes& b, std::string_view magic) {
    return b.size() >= magic.size() && std::equal(magic.begin(), magic.end(), b.begin());
}

std::string shortText(std::string_view s) {
    std::string out;
    for (char c : s.substr(0, 60)) out += (c >= 32 && c < 127) ? c : '?';
    return out;
}

}  // namespace

UploadedMap::~UploadedMap() {
    if (dir_.empty()) return;
    forgetMaterialSources(archive_);
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

std::string UploadedMap::clean(const std::string& line) const {
    if (dir_.empty()) return line;
    std::string out = line;
    const std::string prefix = dir_ + "/";
    for (size_t at; (at = out.find(prefix)) != std::string::npos;) out.erase(at, prefix.size());
    return out;
}

UploadedMap openUpload(Bytes body, const std::string& fileName, const std::string& member, const UploadLimits& limits) {
    UploadedMap up;
    if (body.empty()) throw ServeError(400, "upload: no map sent (POST a .bsp, .pk3 or .zip as the body or a form field 'map')");
    const bool bsp = startsWith(body, "IBSP") || startsWith(body, "VBSP");
    const bool zip = startsWith(body, "PK\x03\x04") || startsWith(body, "PK\x05\x06");
    if (!bsp && !zip)
        throw ServeError(415, "upload: neither a map (IBSP / VBSP) nor a zip archive (magic bytes '" +
                                  shortText(std::string_view(reinterpret_cast<const char*>(body.data()), std::min<size_t>(body.size(), 4))) + "')");
    if (bsp) {
        std::string name = sanitizeFileName(fs::path(fileName).stem().string());
        if (fileName.empty()) name = "upload";
        up.source.displayName = "upload:" + name + ".bsp";
        up.source.mapName = name;
        up.source.bytes = std::move(body);
        up.source.openRelated = [](const std::string&) { return std::optional<Bytes>(); };
        return up;
    }
    std::string dir = (fs::temp_directory_path() / "luxel-upload-XXXXXX").string();
    if (!::mkdtemp(dir.data())) throw ServeError(500, "upload: cannot make a private temporary folder");
    up.dir_ = dir;
    up.archive_ = dir + "/upload.pk3";
    writeFileAtomic(up.archive_, body);
    body.clear();
    body.shrink_to_fit();
    std::vector<MapLocation> maps;
    try {
        const ZipArchive archive(up.archive_);
        uint64_t total = 0;
        for (const ZipEntry& e : archive.entries()) {
            if (e.size > limits.memberBytes)
                throw ServeError(413, fmt::format("upload.pk3:{}: claims {} bytes uncompressed, over the limit of {} MiB",
                                                  shortText(e.name), e.size, limits.memberBytes >> 20));
            total += e.size;
            if (total > limits.totalBytes)
                throw ServeError(413, fmt::format("upload.pk3: its members claim more than {} MiB uncompressed together",
                                                  limits.totalBytes >> 20));
        }
        maps = mapsInArchive(up.archive_);
    } catch (const ServeError&) {
        throw;
    } catch (const std::exception& e) {
        throw ServeError(422, up.clean(e.what()));
    }
    if (maps.empty()) throw ServeError(422, "upload.pk3: holds no maps/*.bsp");
    const MapLocation* chosen = maps.size() == 1 && member.empty() ? &maps.front() : nullptr;
    for (const MapLocation& m : maps)
        if (!member.empty() && equalsIgnoreCase(m.name, member)) chosen = &m;
    if (!chosen) {
        std::string names;
        for (const MapLocation& m : maps) names += (names.empty() ? "" : ", ") + shortText(m.name);
        throw ServeError(400, (member.empty() ? "upload.pk3: holds several maps; choose one with map=NAME: "
                                              : "upload.pk3: has no map '" + shortText(member) + "': ") + names);
    }
    try {
        up.source = openMapPath(chosen->spec);
    } catch (const std::exception& e) {
        throw ServeError(422, up.clean(e.what()));
    }
    return up;
}

}  // namespace luxel::serve
