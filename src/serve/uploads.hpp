#pragma once
// A map sent to POST /render: a .bsp (kept in memory) or a pk3/zip or id PACK (.pak) holding one plus its
// textures (written to a private temporary folder, mode 0700, never into a root, removed with everything the
// process cached from it when the request ends). Every archive member is checked before any is read: its claimed size against the
// request's memory limit, and (when read) its data against the claim, as the batch reads archives.
#include <memory>
#include <string>

#include "luxel/io/map_source.hpp"

namespace luxel::serve {

struct UploadLimits {
    size_t memberBytes = 0;  // largest uncompressed member (the request's memory limit)
    size_t totalBytes = 0;   // all members together
};

class UploadedMap {
public:
    UploadedMap() = default;
    UploadedMap(UploadedMap&&) noexcept = default;
    UploadedMap& operator=(UploadedMap&&) noexcept = default;
    ~UploadedMap();

    MapSource source;
    // Replaces the temporary folder's path in a message with nothing, so errors name "upload.pk3:maps/x.bsp"
    // ("upload.pak:maps/x.bsp").
    std::string clean(const std::string& line) const;

private:
    friend UploadedMap openUpload(Bytes body, const std::string& fileName, const std::string& member,
                                  const UploadLimits& limits);
    std::string dir_, archive_;
};

// The map in an upload. `fileName` (from a form, may be empty) names a bare map in messages; `member` picks
// one map of an archive holding several ("x" for maps/x.bsp). Throws ServeError: 415 for bytes that are neither
// a map nor a zip or PACK archive, 413 for a member past the limits, 400 for an archive with several maps and no
// choice, 422 for an archive without maps or one that cannot be read.
UploadedMap openUpload(Bytes body, const std::string& fileName, const std::string& member, const UploadLimits& limits);

}  // namespace luxel::serve
