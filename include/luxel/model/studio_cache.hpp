#pragma once
// Decoded studio models shared by every map a process loads (a batch renders many maps placing the same
// props): keyed by GameFiles::identity of the three files a model is read from (.mdl, .vvd and the .vtx
// loadStudioModel picks), so one file reached from two maps is decoded once while two games' different files
// with one name are not confused. A model that fails to decode is cached as its error. Entries live until
// clearStudioModelCache or the budget drops them.
#include <cstddef>
#include <memory>
#include <string>

#include "luxel/io/game_files.hpp"
#include "luxel/model/studio.hpp"

namespace luxel {

// loadStudioModel through the cache: the same model, or the same exception, as decoding it. A model asked
// from many threads at once is decoded by one of them while the others wait. Missing files (UsageError) are
// looked up every time: a later map may mount them.
std::shared_ptr<const StudioModel> loadStudioModelShared(const GameFiles& files, const std::string& mdlPath);

struct StudioModelCacheStats {
    size_t lookups = 0, hits = 0, decodes = 0;
    size_t entries = 0, bytes = 0;
};
StudioModelCacheStats studioModelCacheStats();
// Caps the bytes of the models kept; past it the least recently used are dropped (maps still holding them
// keep them alive). 0: no cap (the default).
void setStudioModelCacheBudget(size_t bytes);
void clearStudioModelCache();

}  // namespace luxel
