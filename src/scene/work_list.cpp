#include "luxel/scene/work_list.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "luxel/io/map_source.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

// Absolute and normal, so one file reached two ways is one job and every shard names it alike.
std::string absolutePath(const std::string& path) {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    if (ec) p = path;
    return p.lexically_normal().string();
}

std::string absoluteSpec(const std::string& spec) {
    if (auto split = splitArchiveMember(spec)) return absolutePath(split->archive) + ":" + split->member;
    return absolutePath(spec);
}

std::vector<std::string> globMatches(const std::string& pattern) {
    glob_t g{};
    const int rc = ::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &g);
    std::vector<std::string> out;
    if (rc == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
    globfree(&g);
    std::sort(out.begin(), out.end());
    return out;
}

bool isMemberSpec(const std::string& path) { return splitArchiveMember(path).has_value(); }

}  // namespace

std::string sanitizeFileName(const std::string& name) {
    std::string out;
    for (unsigned char c : name) {
        if (out.size() >= 80) break;
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                        c == '-' || c == '.';
        out += ok ? char(c) : '_';
    }
    while (!out.empty() && out.front() == '.') out.erase(out.begin());
    return out.empty() ? "map" : out;
}

std::vector<MapLocation> expandMapInput(const std::string& path, SceneMapInput::Kind kind, const std::string& where) {
    using K = SceneMapInput::Kind;
    auto fail = [&](const std::string& what) -> std::vector<MapLocation> {
        throw UsageError(where + ": '" + path + "': " + what);
    };
    std::error_code ec;
    if (kind == K::Glob || (kind == K::Auto && !isMemberSpec(path) && path.find_first_of("*?[") != std::string::npos &&
                            !fs::exists(path, ec))) {
        const std::vector<std::string> matches = globMatches(path);
        if (matches.empty()) return fail("the pattern matches no file");
        std::vector<MapLocation> out;
        for (const std::string& m : matches) {
            const bool dir = fs::is_directory(m, ec);
            if (!dir && !endsWithIgnoreCase(m, ".bsp") && !isArchivePath(m)) continue;  // *.txt beside the maps
            for (MapLocation& loc : expandMapInput(m, K::Auto, where)) out.push_back(std::move(loc));
        }
        return out;
    }
    if (kind == K::Auto && isMemberSpec(path)) kind = K::File;
    if (kind == K::Auto) {
        if (fs::is_directory(path, ec))
            kind = looksLikeGameDir(path) ? K::GameDir : K::Directory;
        else
            kind = isArchivePath(path) ? K::Archive : K::File;
    }
    switch (kind) {
        case K::File: {
            const auto split = splitArchiveMember(path);
            if (!split) {
                if (!fs::is_regular_file(path, ec)) return fail("no such map file");
                return {{path, fs::path(path).stem().string(), {}}};
            }
            if (!fs::is_regular_file(split->archive, ec)) return fail("no such archive");
            try {
                if (!archiveHasMember(split->archive, split->member))
                    return fail("the archive has no member " + split->member);
            } catch (const DecodeError&) {
                // An unreadable archive fails when the map is opened, as that map's own error.
            }
            return {{path, fs::path(split->member).stem().string(), {}}};
        }
        case K::Archive:
            if (!fs::is_regular_file(path, ec)) return fail("no such archive");
            return mapsInArchive(path);
        case K::GameDir:
            if (!fs::is_directory(path, ec)) return fail("no such game directory");
            return mapsInGameDir(path);
        case K::Directory:
            if (!fs::is_directory(path, ec)) return fail("no such directory");
            return mapsUnderDirectory(path);
        default: return fail("cannot tell what this is");
    }
}

std::vector<MapJob> expandScene(const Scene& scene) {
    std::vector<MapJob> jobs;
    for (const SceneMapInput& in : scene.maps) {
        const std::string where = in.location.text();
        for (MapLocation& loc : expandMapInput(in.path, in.kind, where)) {
            MapJob job;
            job.source = absoluteSpec(loc.spec);
            job.name = loc.name;
            job.error = loc.error;
            job.gameDirs = in.gameDirs.value_or(scene.gameDirs);
            // A game directory's maps find their textures there, as the engine would.
            std::error_code ec;
            if (in.kind == SceneMapInput::Kind::GameDir ||
                (in.kind == SceneMapInput::Kind::Auto && fs::is_directory(in.path, ec) && looksLikeGameDir(in.path))) {
                const std::string dir = absolutePath(in.path);
                bool listed = false;
                for (const std::string& d : job.gameDirs) listed = listed || absolutePath(d) == dir;
                if (!listed) job.gameDirs.push_back(in.path);
            }
            job.ldr = in.ldr.value_or(scene.ldr);
            job.palette = in.palette.value_or(scene.palette);
            for (const SceneView& v : scene.views)
                if (!in.views || std::find(in.views->begin(), in.views->end(), v.name) != in.views->end())
                    job.views.push_back(v);
            job.output = scene.output;
            job.origin = where;
            jobs.push_back(std::move(job));
        }
    }
    return jobs;
}

void finalizeWorkList(std::vector<MapJob>& jobs) {
    std::stable_sort(jobs.begin(), jobs.end(), [](const MapJob& a, const MapJob& b) {
        const std::string la = toLowerAscii(a.name), lb = toLowerAscii(b.name);
        return la != lb ? la < lb : a.source < b.source;
    });
    std::set<std::string> seen;
    std::vector<MapJob> unique;
    for (MapJob& job : jobs)
        if (seen.insert(job.source).second) unique.push_back(std::move(job));
    jobs = std::move(unique);
    // Output names compared case-insensitively: two maps must not share a folder on case-folding file systems.
    std::set<std::string> taken;
    for (MapJob& job : jobs) {
        const std::string base = sanitizeFileName(job.name);
        std::string name = base;
        for (int n = 2; !taken.insert(toLowerAscii(name)).second; ++n) name = base + "-" + std::to_string(n);
        job.outputName = name;
    }
}

}  // namespace luxel
