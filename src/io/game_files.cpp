#include "luxel/io/game_files.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include "luxel/io/vpk_archive.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/text.hpp"
#include "archive.hpp"
#include "zip_archive.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

// A directory mount is indexed whole at mount time; these bound a mistaken mount of "/" or a tree whose
// symlinks fan out, which would otherwise take minutes and gigabytes.
constexpr int kMaxDirectoryDepth = 32;
constexpr size_t kMaxLooseFiles = size_t(1) << 20;


// normalizeGamePath without rejecting the empty result, which list() takes as the root.
std::optional<std::string> normalizeAllowEmpty(const std::string& path) {
    if (path.find_first_of(std::string(":\0", 2)) != std::string::npos) return std::nullopt;
    std::string out;
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find_first_of("/\\", start);
        if (end == std::string::npos) end = path.size();
        const std::string part = path.substr(start, end - start);
        if (part == "..") return std::nullopt;
        if (!part.empty() && part != ".") {
            if (!out.empty()) out += '/';
            out += toLowerAscii(part);
        }
        start = end + 1;
    }
    return out;
}

// FNV-1a: names an in-memory archive by its content, so equal pakfiles of two maps share cache entries.
std::string contentHash(const Bytes& bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

std::string canonicalOr(const std::string& path) {
    std::error_code ec;
    const fs::path canon = fs::canonical(path, ec);
    return ec ? path : canon.string();
}

// A loose file's member is its path below the mounted directory.
FileOrigin originOf(FileOrigin::Kind kind, const std::string& mount, const std::string& stored) {
    if (kind != FileOrigin::Kind::Loose) return {kind, mount, stored};
    return {kind, mount, fs::path(stored).lexically_relative(mount).generic_string()};
}

struct Entry {
    std::string stored;  // loose: the file's path on disk; archive: the member's name as stored
    uint64_t index = 0;  // archive member index
};
using FileIndex = std::map<std::string, Entry>;  // normalised path -> entry; ordered for list()

// Children are visited in sorted name order so that, of names equal but for case, the same one wins
// on every machine. `ancestors` holds the canonical directories above: a symlink back to one is a cycle.
void indexTree(const fs::path& dir, const std::string& prefix, int depth, std::vector<fs::path>& ancestors,
               const std::string& root, FileIndex& files) {
    std::error_code ec;
    const fs::path canon = fs::canonical(dir, ec);
    if (ec || std::find(ancestors.begin(), ancestors.end(), canon) != ancestors.end()) return;
    std::vector<fs::directory_entry> children;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) children.push_back(*it);
    std::sort(children.begin(), children.end(),
              [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
    ancestors.push_back(canon);
    for (const fs::directory_entry& child : children) {
        const std::string rel = prefix + child.path().filename().string();
        if (child.is_directory(ec)) {
            if (depth + 1 < kMaxDirectoryDepth) indexTree(child.path(), rel + "/", depth + 1, ancestors, root, files);
        } else if (child.is_regular_file(ec)) {
            if (auto key = normalizeAllowEmpty(rel); key && !key->empty())
                files.emplace(std::move(*key), Entry{child.path().string(), 0});
            if (files.size() > kMaxLooseFiles)
                throw UsageError(root + ": more than " + std::to_string(kMaxLooseFiles) +
                                 " files; mount a smaller directory");
        }
    }
    ancestors.pop_back();
}

FileIndex indexArchive(const Archive& archive) {
    FileIndex files;
    for (ArchiveEntry& e : archive.entries()) {
        // Hostile names ("../x", "c:/x") are left out: no lookup can reach them.
        auto key = normalizeAllowEmpty(e.name);
        if (key && !key->empty()) files.emplace(std::move(*key), Entry{std::move(e.name), e.index});
    }
    return files;
}

}  // namespace

struct GameFiles::Mount {
    FileOrigin::Kind kind = FileOrigin::Kind::Loose;
    std::string name;                 // the directory or archive as given
    // archives: "zip:<canonical path>", "pak:<canonical path>", "mem:<content hash>" or "vpk:<canonical path>"
    std::string identityBase;
    std::shared_ptr<const Archive> archive;  // zip and PACK archives, and pakfiles
    std::unique_ptr<VpkArchive> vpk;  // VPK archives, indexed by VpkArchive::index()
    FileIndex files;
};

const char* fileOriginKindName(FileOrigin::Kind kind) {
    switch (kind) {
        case FileOrigin::Kind::Loose: return "loose";
        case FileOrigin::Kind::Archive: return "archive";
        case FileOrigin::Kind::Pakfile: return "pakfile";
        case FileOrigin::Kind::Vpk: return "vpk";
    }
    return "?";
}

struct GameFiles::Found {
    const Mount* mount = nullptr;
    const std::string* stored = nullptr;  // Entry::stored, or a VPK entry's path
    uint64_t index = 0;                   // Entry::index, or the VPK entry's
};

std::optional<std::string> normalizeGamePath(const std::string& path) {
    auto out = normalizeAllowEmpty(path);
    if (!out || out->empty()) return std::nullopt;
    return out;
}

std::vector<std::string> quake3PakFiles(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw UsageError(dir + ": not a directory");
    std::vector<fs::path> paks;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        std::error_code fileEc;
        if (it->is_regular_file(fileEc) && toLowerAscii(it->path().extension().string()) == ".pk3")
            paks.push_back(it->path());
    }
    if (ec) throw UsageError(dir + ": cannot list (" + ec.message() + ")");
    std::sort(paks.begin(), paks.end(), [](const fs::path& a, const fs::path& b) {
        const std::string an = a.filename().string(), bn = b.filename().string();
        const std::string al = toLowerAscii(an), bl = toLowerAscii(bn);
        return al != bl ? al < bl : an < bn;  // byte order only breaks ties, for determinism
    });
    std::vector<std::string> out;
    for (const fs::path& p : paks) out.push_back(p.string());
    return out;
}

std::optional<uint32_t> quakePakNumber(const std::string& fileName) {
    const std::string lower = toLowerAscii(fileName);
    // "pak" digits ".pak", the digits as %i writes them: no leading zero, and at most 9 of them here.
    if (lower.size() < 8 || lower.size() > 16 || !lower.starts_with("pak") || !lower.ends_with(".pak"))
        return std::nullopt;
    const std::string digits = lower.substr(3, lower.size() - 7);
    if (digits.find_first_not_of("0123456789") != std::string::npos || (digits.size() > 1 && digits[0] == '0'))
        return std::nullopt;
    return uint32_t(std::stoul(digits));
}

std::vector<std::string> quakePakFiles(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw UsageError(dir + ": not a directory");
    std::map<uint32_t, fs::path> byNumber;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const std::optional<uint32_t> number = quakePakNumber(name);
        std::error_code fileEc;
        if (!number || !it->is_regular_file(fileEc)) continue;
        // Of spellings of one number, the engine's own ("pak0.pak") first, then the first in byte order.
        auto [at, inserted] = byNumber.emplace(*number, it->path());
        const std::string held = at->second.filename().string(), lower = toLowerAscii(name);
        if (!inserted && held != lower && (name == lower || name < held)) at->second = it->path();
    }
    if (ec) throw UsageError(dir + ": cannot list (" + ec.message() + ")");
    std::vector<std::string> out;
    for (const auto& [number, path] : byNumber) out.push_back(path.string());
    return out;
}

GameFiles::GameFiles() = default;
GameFiles::~GameFiles() = default;
GameFiles::GameFiles(GameFiles&&) noexcept = default;
GameFiles& GameFiles::operator=(GameFiles&&) noexcept = default;

void GameFiles::addDirectory(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw UsageError(dir + ": not a directory");
    auto mount = std::make_unique<Mount>();
    mount->name = dir;
    std::vector<fs::path> ancestors;
    indexTree(dir, "", 0, ancestors, dir, mount->files);
    mounts_.push_back(std::move(mount));
}

std::unique_ptr<GameFiles::Mount> GameFiles::archiveMount(const std::string& path,
                                                          std::shared_ptr<const Archive> archive) {
    auto mount = std::make_unique<Mount>();
    mount->name = path;
    mount->kind = FileOrigin::Kind::Archive;
    mount->archive = std::move(archive);
    mount->identityBase = (isPakPath(path) ? "pak:" : "zip:") + canonicalOr(path);
    mount->files = indexArchive(*mount->archive);
    return mount;
}

void GameFiles::addArchive(const std::string& path) { mounts_.push_back(archiveMount(path, openArchive(path))); }

void GameFiles::addVpk(const std::string& dirPath, bool strict) {
    auto mount = std::make_unique<Mount>();
    mount->name = dirPath;
    mount->kind = FileOrigin::Kind::Vpk;
    mount->vpk = std::make_unique<VpkArchive>(dirPath, strict);
    mount->identityBase = "vpk:" + canonicalOr(dirPath);
    mounts_.push_back(std::move(mount));
}

void GameFiles::addArchiveBytes(std::string displayName, Bytes zipBytes) {
    auto mount = std::make_unique<Mount>();
    mount->name = displayName;
    mount->kind = FileOrigin::Kind::Pakfile;
    mount->identityBase = "mem:" + contentHash(zipBytes);
    mount->archive = std::make_shared<const ZipArchive>(std::move(displayName), std::move(zipBytes));
    mount->files = indexArchive(*mount->archive);
    mounts_.push_back(std::move(mount));
}

void GameFiles::addArchivesInLoadOrder(const std::vector<std::string>& paths) {
    // The archives' directories are read and indexed in parallel, then mounted highest precedence (last) first;
    // the first of them (in that order) that cannot be opened is the error raised.
    const std::vector<OpenedArchive> opened = openArchives(paths);
    std::vector<std::unique_ptr<Mount>> archives(paths.size());
    tbb::parallel_for(size_t(0), paths.size(), [&](size_t i) {
        if (opened[i].archive) archives[i] = archiveMount(paths[i], opened[i].archive);
    });
    for (size_t i = paths.size(); i-- > 0;) {
        if (opened[i].error) std::rethrow_exception(opened[i].error);
        mounts_.push_back(std::move(archives[i]));
    }
}

void GameFiles::addQuake3GameDir(const std::string& dir) {
    // Staged so that a bad pk3 leaves this search path as it was.
    GameFiles staged;
    const std::vector<std::string> paks = quake3PakFiles(dir);
    staged.addDirectory(dir);
    staged.addArchivesInLoadOrder(paks);
    for (auto& m : staged.mounts_) mounts_.push_back(std::move(m));
}

void GameFiles::addQuakeGameDir(const std::string& dir) {
    // id's COM_AddGameDirectory (Quake 1) and FS_AddGameDirectory (Quake 2) put the directory at the head of
    // the search path and then each pakN.pak, in rising N, at the head in turn: pakN is searched first, pak0
    // last of the archives, and the loose files after every pak. Staged so that a bad pak leaves this search
    // path as it was.
    GameFiles staged;
    staged.addArchivesInLoadOrder(quakePakFiles(dir));
    staged.addDirectory(dir);
    for (auto& m : staged.mounts_) mounts_.push_back(std::move(m));
}

std::optional<GameFiles::Found> GameFiles::find(const std::string& path) const {
    const auto key = normalizeGamePath(path);
    if (!key) return std::nullopt;
    for (const auto& m : mounts_) {
        if (m->vpk) {
            if (auto it = m->vpk->index().find(*key); it != m->vpk->index().end())
                return Found{m.get(), &m->vpk->entries()[it->second].path, it->second};
        } else if (auto it = m->files.find(*key); it != m->files.end()) {
            return Found{m.get(), &it->second.stored, it->second.index};
        }
    }
    return std::nullopt;
}

std::optional<GameFile> GameFiles::open(const std::string& path) const {
    const auto found = find(path);
    if (!found) return std::nullopt;
    const Mount& m = *found->mount;
    GameFile file;
    if (m.archive) file.bytes = m.archive->read(found->index, *found->stored);
    else if (m.vpk) file.bytes = m.vpk->read(size_t(found->index));
    else file.bytes = readFile(*found->stored);
    file.origin = originOf(m.kind, m.name, *found->stored);
    return file;
}

std::optional<Bytes> GameFiles::read(const std::string& path) const {
    std::optional<GameFile> file = open(path);
    if (!file) return std::nullopt;
    return std::move(file->bytes);
}

std::optional<FileOrigin> GameFiles::origin(const std::string& path) const {
    const auto found = find(path);
    if (!found) return std::nullopt;
    return originOf(found->mount->kind, found->mount->name, *found->stored);
}

std::vector<FileOrigin> GameFiles::mounts() const {
    std::vector<FileOrigin> out;
    for (const auto& m : mounts_) out.push_back({m->kind, m->name, {}});
    return out;
}

std::vector<std::string> GameFiles::warnings() const {
    std::vector<std::string> out;
    for (const auto& m : mounts_)
        if (m->vpk)
            for (std::string& w : m->vpk->warnings()) out.push_back(std::move(w));
    return out;
}

bool GameFiles::exists(const std::string& path) const { return find(path).has_value(); }

std::vector<std::string> GameFiles::list(const std::string& dir, const std::string& ext, bool recursive) const {
    const auto base = normalizeAllowEmpty(dir);
    if (!base) return {};
    const std::string prefix = base->empty() ? std::string() : *base + "/";
    std::string suffix = toLowerAscii(ext);
    if (!suffix.empty() && suffix.front() != '.') suffix.insert(suffix.begin(), '.');
    std::set<std::string> names;
    auto collect = [&](const auto& index) {
        for (auto it = index.lower_bound(prefix); it != index.end() && it->first.starts_with(prefix); ++it) {
            const std::string_view rest = std::string_view(it->first).substr(prefix.size());
            if (!recursive && rest.find('/') != std::string_view::npos) continue;
            if (rest.ends_with(suffix)) names.insert(it->first);
        }
    };
    for (const auto& m : mounts_) {
        if (m->vpk) collect(m->vpk->index());
        else collect(m->files);
    }
    return {names.begin(), names.end()};
}

std::optional<std::string> GameFiles::describe(const std::string& path) const {
    const auto found = find(path);
    if (!found) return std::nullopt;
    if (found->mount->kind != FileOrigin::Kind::Loose) return found->mount->name + ":" + *found->stored;
    return *found->stored;
}

std::optional<std::string> GameFiles::identity(const std::string& path) const {
    const auto found = find(path);
    if (!found) return std::nullopt;
    if (found->mount->kind != FileOrigin::Kind::Loose) return found->mount->identityBase + ":" + *found->stored;
    return "file:" + canonicalOr(*found->stored);
}

}  // namespace luxel
