// Studio models read from a game's files, and the process-wide cache of them (studio_cache.hpp).
#include "luxel/model/studio_cache.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "luxel/model/props.hpp"
#include "luxel/util/error.hpp"
#include "studio_read.hpp"

namespace luxel {
namespace {

// The three files a model is read from, as game paths.
struct StudioPaths {
    std::string mdl, vvd, vtx;
};

StudioPaths studioPaths(const GameFiles& files, const std::string& mdlPath) {
    std::string base = studio::gamePathForm(mdlPath);
    if (base.ends_with(".mdl")) base.resize(base.size() - 4);
    StudioPaths p{base + ".mdl", base + ".vvd", {}};
    if (!files.exists(p.mdl)) throw UsageError(p.mdl + " not found");
    if (!files.exists(p.vvd)) throw UsageError(p.vvd + " not found");
    for (const char* ext : {".dx90.vtx", ".dx80.vtx", ".sw.vtx"})
        if (p.vtx.empty() && files.exists(base + ext)) p.vtx = base + ext;
    if (p.vtx.empty()) throw UsageError(base + ".dx90.vtx (or .dx80.vtx, .sw.vtx) not found");
    return p;
}

StudioModel readStudioModel(const GameFiles& files, const std::string& mdlPath, const StudioPaths& p) {
    auto read = [&](const std::string& path) {
        std::optional<Bytes> bytes = files.read(path);
        if (!bytes) throw UsageError(path + " not found");
        return std::make_pair(std::move(*bytes), files.describe(path).value_or(path));
    };
    const auto mdl = read(p.mdl), vvd = read(p.vvd), vtx = read(p.vtx);
    return buildStudioModel(mdlPath, readMdl(mdl.first, mdl.second), readVvd(vvd.first, vvd.second),
                            readVtx(vtx.first, vtx.second));
}

size_t modelBytes(const StudioModel& m) {
    size_t bytes = sizeof(StudioModel) + m.vertices.size() * sizeof(StudioVertex) + m.groupVertexCounts.size() * 4;
    for (const StudioMesh& mesh : m.meshes) bytes += sizeof(StudioMesh) + mesh.indices.size() * 4;
    for (const auto& g : m.groupVertices) bytes += sizeof(g) + g.size() * 4;
    for (const std::string& t : m.mdl.textures) bytes += sizeof(t) + t.size();
    return bytes;
}

// One model: decoded once by whichever caller gets its mutex first.
struct Slot {
    std::mutex mutex;
    bool done = false;
    std::shared_ptr<const StudioModel> model;
    std::exception_ptr error;
    size_t bytes = 0;  // counted in Cache::bytes (written under the cache's mutex); 0 while decoding
    uint64_t lastUse = 0;
};

struct Cache {
    std::mutex mutex;
    std::unordered_map<std::string, std::shared_ptr<Slot>> entries;
    size_t lookups = 0, hits = 0, decodes = 0, bytes = 0, budget = 0;
    uint64_t clock = 0;
};

Cache& cache() {
    static Cache c;
    return c;
}

// Drops the least recently used decoded models until the cache fits its budget (mutex held).
void evict(Cache& c) {
    if (c.budget == 0 || c.bytes <= c.budget) return;
    std::vector<std::pair<uint64_t, std::string>> byAge;
    for (const auto& [key, slot] : c.entries)
        if (slot->bytes) byAge.emplace_back(slot->lastUse, key);
    std::sort(byAge.begin(), byAge.end());
    for (const auto& [age, key] : byAge) {
        if (c.bytes <= c.budget) break;
        auto it = c.entries.find(key);
        c.bytes -= it->second->bytes;
        c.entries.erase(it);
    }
}

}  // namespace

StudioModel loadStudioModel(const GameFiles& files, const std::string& mdlPath) {
    return readStudioModel(files, mdlPath, studioPaths(files, mdlPath));
}

std::shared_ptr<const StudioModel> loadStudioModelShared(const GameFiles& files, const std::string& mdlPath) {
    const StudioPaths paths = studioPaths(files, mdlPath);
    std::string key;
    for (const std::string* p : {&paths.mdl, &paths.vvd, &paths.vtx}) key += files.identity(*p).value_or(*p) + "|";
    Cache& c = cache();
    std::shared_ptr<Slot> slot;
    {
        std::lock_guard lock(c.mutex);
        ++c.lookups;
        std::shared_ptr<Slot>& s = c.entries[key];
        if (s) ++c.hits;
        else s = std::make_shared<Slot>();
        s->lastUse = ++c.clock;
        slot = s;
    }
    bool decoded = false;
    size_t bytes = 0;
    {
        std::lock_guard lock(slot->mutex);
        if (!slot->done) {
            try {
                slot->model = std::make_shared<const StudioModel>(readStudioModel(files, mdlPath, paths));
                bytes = modelBytes(*slot->model);
            } catch (...) {
                slot->error = std::current_exception();
            }
            slot->done = decoded = true;
        }
    }
    if (decoded) {
        std::lock_guard lock(c.mutex);
        ++c.decodes;
        auto it = c.entries.find(key);
        if (it != c.entries.end() && it->second == slot) {  // else cleared meanwhile: not kept
            slot->bytes = bytes;
            c.bytes += bytes;
        }
        evict(c);
    }
    if (slot->error) std::rethrow_exception(slot->error);
    return slot->model;
}

StudioModelCacheStats studioModelCacheStats() {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    return {c.lookups, c.hits, c.decodes, c.entries.size(), c.bytes};
}

void setStudioModelCacheBudget(size_t bytes) {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    c.budget = bytes;
    evict(c);
}

void clearStudioModelCache() {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    c.entries.clear();
    c.bytes = 0;
}

}  // namespace luxel
