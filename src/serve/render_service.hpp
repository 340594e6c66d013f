#pragma once
// The work behind an image request: admission (WorkGate), the decoded map (MapStore, or an upload), the view
// (renderView, as `luxel render` draws it), the encoded bytes (encodeImage) and the image cache. The deadline
// is checked between these stages; the per-request memory limit bounds the decoded map, its textures and the
// frame. Knows no HTTP.
#include <memory>
#include <string>
#include <vector>

#include "catalogue.hpp"
#include "lru_cache.hpp"
#include "luxel/serve/serve.hpp"
#include "map_store.hpp"
#include "metrics.hpp"
#include "request_limits.hpp"
#include "view_query.hpp"

namespace luxel::serve {

struct EncodedImage {
    Bytes bytes;
    std::string contentType;  // image/png, image/jpeg, image/webp
    std::string etag;         // quoted
    std::string timing;       // Server-Timing value of the request that drew it: where its time went
    std::string mapKey;       // CatalogueEntry::key() of the listed map it shows (empty for an upload)
};

// The ETag of a picture: the map's content hash (plus the archive member of an upload), the canonical
// options and luxel's version, hashed; quoted as HTTP wants it.
std::string makeEtag(const std::string& contentHash, const std::string& optionsKey);
// Whether an If-None-Match header value names `etag` ("*", a comma-separated list, weak tags compared weakly as
// RFC 9110 says).
bool matchesEtag(const std::string& header, const std::string& etag);

class RenderService {
public:
    RenderService(const ServeOptions& options, Metrics& metrics);

    std::shared_ptr<const EncodedImage> cachedImage(const std::string& etag) { return images_.get(etag); }
    // A map of the catalogue, drawn once `ticket` (admitted by gate()) starts. Throws ServeError (503, 504, 422,
    // 400) or lets DecodeError / UsageError through.
    std::shared_ptr<const EncodedImage> renderListed(const CatalogueEntry& entry, const ViewQuery& query,
                                                     const std::string& etag, const Deadline& deadline,
                                                     WorkGate::Ticket& ticket);
    // An uploaded map (UploadedMap's rules).
    std::shared_ptr<const EncodedImage> renderUpload(Bytes body, const std::string& fileName, const std::string& member,
                                                     const ViewQuery& query, const std::string& etag,
                                                     const Deadline& deadline, WorkGate::Ticket& ticket);
    // Drops the decoded map and every cached picture of a listed map that changed or went away (requests
    // still drawing it keep their copy); how many pictures were dropped.
    size_t forget(const CatalogueEntry& entry);
    WorkGate& gate() { return gate_; }
    CacheFigures mapFigures() const { return maps_.figures(); }
    CacheFigures imageFigures() const { return images_.figures(); }

private:
    MaterialOptions materialOptions(const std::vector<std::string>& gameDirs) const;
    void checkMapMemory(const LoadedMap& map, const ViewQuery& query) const;
    // `allTextures`: load every material's textures first (a map drawn again: later views then skip finding
    // out which textures their camera shows).
    std::shared_ptr<const EncodedImage> draw(LoadedMap& map, const ViewQuery& query, const std::string& etag,
                                             const std::string& mapKey, const Deadline& deadline, bool allTextures);

    const ServeOptions& options_;
    Metrics& metrics_;
    WorkGate gate_;
    MapStore maps_;
    ByteLru<EncodedImage> images_;
};

}  // namespace luxel::serve
