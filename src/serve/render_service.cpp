#include "render_service.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <thread>

#include "luxel/batch/batch.hpp"
#include "luxel/image/image.hpp"
#include "luxel/util/clock.hpp"
#include "luxel/util/error.hpp"
#include "uploads.hpp"

namespace luxel::serve {
namespace {

// Bytes a frame of this view holds while drawn: colour and depth per sample and the float image.
size_t frameBytes(const ViewQuery& q) {
    return size_t(q.view.width) * size_t(q.view.height) * (size_t(q.view.spp) * 32 + 16);
}

const char* contentType(const std::string& format) {
    return format == "jpg" ? "image/jpeg" : format == "webp" ? "image/webp" : "image/png";
}

}  // namespace

std::string makeEtag(const std::string& contentHash, const std::string& optionsKey) {
    const std::string text = contentHash + "\n" + optionsKey + "\n" + luxelVersionString();
    const XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
    return fmt::format("\"{:016x}{:016x}\"", h.high64, h.low64);
}

bool matchesEtag(const std::string& header, const std::string& etag) {
    size_t at = 0;
    while (at < header.size()) {
        size_t end = header.find(',', at);
        if (end == std::string::npos) end = header.size();
        std::string tag = header.substr(at, end - at);
        const size_t first = tag.find_first_not_of(" \t");
        const size_t last = tag.find_last_not_of(" \t");
        tag = first == std::string::npos ? std::string() : tag.substr(first, last - first + 1);
        if (tag.starts_with("W/")) tag = tag.substr(2);
        if (tag == "*" || tag == etag) return true;
        at = end + 1;
    }
    return false;
}

RenderService::RenderService(const ServeOptions& options, Metrics& metrics)
    : options_(options),
      metrics_(metrics),
      gate_(options.workers, options.queue),
      maps_(options.mapCacheBytes),
      images_(options.imageCacheBytes) {}

MaterialOptions RenderService::materialOptions(const std::vector<std::string>& gameDirs) const {
    MaterialOptions m;
    m.gameDirs = gameDirs;
    m.palette = options_.palette;
    return m;
}

void RenderService::checkMapMemory(const LoadedMap& map, const ViewQuery& query) const {
    const size_t need = approximateBytes(map) + frameBytes(query);
    if (need > options_.requestMemoryBytes)
        throw ServeError(422, fmt::format("{}: the decoded map and a {}x{} frame need {} MiB, over the request memory "
                                          "limit of {} MiB",
                                          map.displayName, query.view.width, query.view.height, need >> 20,
                                          options_.requestMemoryBytes >> 20));
}

std::shared_ptr<const EncodedImage> RenderService::draw(LoadedMap& map, const ViewQuery& query, const std::string& etag,
                                                        const std::string& mapKey, const Deadline& deadline,
                                                        bool allTextures) {
    checkMapMemory(map, query);
    // What the textures may take: the limit less the map and the frame (checked above to fit).
    map.materialOptions.textureBudget =
        std::max<size_t>(1, options_.requestMemoryBytes - approximateBytes(map) - frameBytes(query));
    if (options_.testDelayMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(options_.testDelayMs));
    deadline.check("before drawing");
    const double t0 = nowMs(), materialsBefore = map.materialsMs;
    const ViewRequest request = query.request();
    if (allTextures && (request.mode == "lit" || request.mode == "albedo" || request.mode == "auto"))
        (void)ensureMaterials(map, request.time);
    const RenderedView view = renderView(map, request);
    const double t1 = nowMs();
    metrics_.countRender();
    if (map.materials && !map.materials->overLimit.empty())
        throw ServeError(422, map.materials->overLimit.front() + fmt::format(" (request memory limit {} MiB)",
                                                                             options_.requestMemoryBytes >> 20));
    deadline.check("after drawing, before encoding");
    auto image = std::make_shared<EncodedImage>();
    image->bytes = encodeView("view." + query.format, view, viewMetadata(map, view));
    image->contentType = contentType(query.format);
    image->etag = etag;
    image->mapKey = mapKey;
    image->timing = fmt::format("materials;dur={:.1f}, camera;dur={:.1f}, frame;dur={:.1f}, view;dur={:.1f}, encode;dur={:.1f}",
                                map.materialsMs - materialsBefore, view.cameraMs, view.frameMs, t1 - t0, nowMs() - t1);
    images_.put(etag, image, image->bytes.size() + etag.size() + sizeof(EncodedImage));
    return image;
}

size_t RenderService::forget(const CatalogueEntry& entry) {
    const std::string key = entry.key();
    maps_.drop(key);
    return images_.eraseIf([&](const EncodedImage& image) { return image.mapKey == key; });
}

std::shared_ptr<const EncodedImage> RenderService::renderListed(const CatalogueEntry& entry, const ViewQuery& query,
                                                                const std::string& etag, const Deadline& deadline,
                                                                WorkGate::Ticket& ticket) {
    ticket.start(deadline);
    deadline.check("before decoding the map");
    const std::string key = entry.key();
    auto stored = maps_.get(
        key,
        [&] {
            MapSource source = openMapPath(entry.source);
            // The file may have changed since it was listed: its picture must not go out under the old ETag.
            if (batch::contentHash(source.bytes) != entry.hash)
                throw ServeError(503, entry.name + ": the map changed on disk since the roots were listed (SIGHUP or "
                                                   "--rescan lists them again)", 1);
            LoadedMap map = loadMap(std::move(source), {}, materialOptions(entry.gameDirs), {}, true);
            checkMapMemory(map, query);
            return map;
        },
        deadline);
    deadline.check("after decoding the map");
    std::unique_lock lock(stored->drawing, std::defer_lock);
    if (!lock.try_lock_until(deadline.at)) deadline.check("while another request drew the map");
    try {
        return draw(stored->map, query, etag, key, deadline, stored->views++ > 0);
    } catch (const ServeError& e) {
        // A map whose materials were cut short by the memory limit must not serve later views.
        if (e.status == 422) maps_.drop(key);
        throw;
    }
}

std::shared_ptr<const EncodedImage> RenderService::renderUpload(Bytes body, const std::string& fileName,
                                                                const std::string& member, const ViewQuery& query,
                                                                const std::string& etag, const Deadline& deadline,
                                                                WorkGate::Ticket& ticket) {
    ticket.start(deadline);
    metrics_.countUpload();
    UploadedMap up = openUpload(std::move(body), fileName, member,
                                {options_.requestMemoryBytes, options_.requestMemoryBytes * 4});
    deadline.check("before decoding the map");
    try {
        LoadedMap map = loadMap(std::move(up.source), {}, materialOptions(options_.gameDirs), {}, true);
        map.displayName = up.clean(map.displayName);  // the picture's metadata names no temporary folder
        deadline.check("after decoding the map");
        return draw(map, query, etag, "", deadline, false);
    } catch (const ServeError& e) {  // messages name the upload, not the private folder
        throw ServeError(e.status, up.clean(e.what()), e.retryAfter);
    } catch (const DecodeError& e) {
        throw ServeError(422, up.clean(e.what()));
    } catch (const UsageError& e) {
        throw ServeError(422, up.clean(e.what()));
    }
}

}  // namespace luxel::serve
