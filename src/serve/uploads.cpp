#include "uploads.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <stdlib.h>

#include "../io/pak_archive.hpp"
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
    if (body.empty()) throw ServeError(400, "upload: no map sent (POST a .bsp, .pk3, .zip or .pak as the body or a form field 'map')");
    const bool bsp = startsWith(body, "IBSP") || startsWith(body, "VBSP");
    const bool zip = startsWith(body, "PK\x03\x04") || startsWith(body, "PK\x05\x06");
    const bool pak = startsWith(body, "PACK");
    if (!bsp && !zip && !pak)
        throw ServeError(415, "upload: neither a map (IBSP / VBSP) nor a zip or PACK archive (magic bytes '" +
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
    // Named by its kind, so the map opener and the listing read it as one (isPakPath).
    const std::string name = pak ? "upload.pak" : "upload.pk3";
    up.archive_ = dir + "/" + name;
    writeFileAtomic(up.archive_, body);
    body.clear();
    body.shrink_to_fit();
    std::vector<MapLocation> maps;
    try {
        std::unique_ptr<const Archive> archive;
        if (pak) archive = std::make_unique<const PakArchive>(up.archive_);
        else archive = std::make_unique<const ZipArchive>(up.archive_);
        uint64_t total = 0;
        for (const ArchiveEntry& e : archive->entries()) {
            if (e.size > limits.memberBytes)
                throw ServeError(413, fmt::format("{}:{}: claims {} bytes uncompressed, over the limit of {} MiB", name,
                                                  shortText(e.name), e.size, limits.memberBytes >> 20));
            total += e.size;
            if (total > limits.totalBytes)
                throw ServeError(413, fmt::format("{}: its members claim more than {} MiB uncompressed together", name,
                                                  limits.totalBytes >> 20));
        }
        maps = mapsInArchive(up.archive_);
    } catch (const ServeError&) {
        throw;
    } catch (const std::exception& e) {
        throw ServeError(422, up.clean(e.what()));
    }
    if (maps.empty()) throw ServeError(422, name + ": holds no maps/*.bsp");
    const MapLocation* chosen = maps.size() == 1 && member.empty() ? &maps.front() : nullptr;
    for (const MapLocation& m : maps)
        if (!member.empty() && equalsIgnoreCase(m.name, member)) chosen = &m;
    if (!chosen) {
        std::string names;
        for (const MapLocation& m : maps) names += (names.empty() ? "" : ", ") + shortText(m.name);
        throw ServeError(400, name + (member.empty() ? ": holds several maps; choose one with map=NAME: "
                                                     : ": has no map '" + shortText(member) + "': ") + names);
    }
    try {
        up.source = openMapPath(chosen->spec);
    } catch (const std::exception& e) {
        throw ServeError(422, up.clean(e.what()));
    }
    return up;
}

}  // namespace luxel::serve
