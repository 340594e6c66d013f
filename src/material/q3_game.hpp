#pragma once
// Internal to the Quake 3 material loaders: a game's mounted files with its shader scripts parsed, made once
// per set of mounts and shared (materials and the light decoder's shader reading use the same one).
#include <memory>
#include <string>
#include <vector>

#include "luxel/io/game_files.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/q3_shader.hpp"

namespace luxel::materials {

struct MountName {
    std::string name;  // as GameFiles::describe prefixes it
    bool archive = false;
};

struct Q3Files {
    GameFiles files;
    std::vector<MountName> mounts;  // highest precedence first, as mounted

    void addGameDir(const std::string& dir) {
        files.addQuake3GameDir(dir);
        std::string trimmed = dir;
        while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
        mounts.push_back({trimmed, false});
        const std::vector<std::string> paks = quake3PakFiles(dir);
        for (auto it = paks.rbegin(); it != paks.rend(); ++it) mounts.push_back({*it, true});
    }
    void addArchive(const std::string& path) {
        files.addArchive(path);
        mounts.push_back({path, true});
    }
    // Which mount a script resolves to (by its describe() text): the longest matching name, the first
    // one on a tie (GameFiles takes the first mount holding a path).
    size_t mountOf(const std::string& path) const {
        const std::string where = files.describe(path).value_or("");
        size_t best = mounts.size(), bestLength = 0;
        for (size_t i = 0; i < mounts.size(); ++i) {
            const std::string prefix = mounts[i].name + (mounts[i].archive ? ":" : "/");
            if (where.starts_with(prefix) && prefix.size() > bestLength) best = i, bestLength = prefix.size();
        }
        return best;
    }
};

// A set of mounts with its shader scripts parsed: shared by every map that mounts the same archives and
// directories (a batch over one game's maps parses its scripts once).
struct Q3Game {
    Q3Files f;
    Q3ShaderTable table;
    std::vector<std::string> warnings;
};

// The mounted game a map's materials come from (its archive, options.gameDirs, the folder it ships in),
// cached per process.
std::shared_ptr<const Q3Game> quake3Game(const MapSource& source, const MaterialOptions& options);
// Drops the cached mounts whose own archive is `archivePath`.
void forgetQuake3Games(const std::string& archivePath);

}  // namespace luxel::materials
