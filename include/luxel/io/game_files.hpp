#pragma once
// A game's virtual file system: a search path of mounts (loose directories, pk3/zip and id PACK (.pak)
// archives, a Source map's in-memory pakfile, VPK archives), highest precedence first, so materials find
// textures and shader scripts the way the engine would. Paths are '/'-separated and compared
// case-insensitively, as Quake 3's and Source's file systems do (Windows-made pk3s mix cases and backslashes).
//
// Mounting reads directories only (a directory tree, a zip's central directory, a pak's directory, a VPK's
// tree), never file contents.
// After mounting, every const member may be called from many threads at once.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "luxel/io/map_source.hpp"

namespace luxel {

// The canonical form lookups use: backslashes become '/', ASCII lower case, empty and "." components
// dropped (so a leading '/' is ignored, as Quake 3's FS_FOpenFileRead does). nullopt for a path that
// could leave a mount or name no file: a ".." component, a ':' (drive letters), a NUL, nothing left.
std::optional<std::string> normalizeGamePath(const std::string& path);

// The *.pk3 files directly in `dir` in the engine's load order, lowest precedence first: names compared
// case-insensitively (Quake 3's paksort), so a later one overrides an earlier one (pak8 beats pak0).
// Throws UsageError when dir is not a directory.
std::vector<std::string> quake3PakFiles(const std::string& dir);

// The Quake 1 / Quake 2 archives directly in `dir`: pak0.pak, pak1.pak, ... (N as the engines' "pak%i.pak"
// writes it: no leading zero; the name in any case, one file per N) in rising N, lowest precedence first, so a
// later one overrides an earlier one (pak1 beats pak0), as COM_AddGameDirectory / FS_AddGameDirectory mount
// them. Every N present is taken: Quake 1 stops at the first missing N and Quake 2 looks at pak0-pak9 only,
// which select the same files in an installed game (numbered from 0 without gaps). Other *.pak names are not
// mounted, as the engines do not. Throws UsageError when dir is not a directory.
std::vector<std::string> quakePakFiles(const std::string& dir);
// N of a file name quakePakFiles takes ("pak0.pak" 0, "PAK12.PAK" 12); nullopt for any other name ("pak01.pak",
// "maps.pak").
std::optional<uint32_t> quakePakNumber(const std::string& fileName);

// Where a game path was found: the kind of mount, the mount as given (a directory, an archive's path, the
// pakfile's display name) and the file in it as stored there.
struct FileOrigin {
    enum class Kind { Loose, Archive, Pakfile, Vpk };
    Kind kind = Kind::Loose;
    std::string mount;
    std::string member;
};
// "loose", "archive", "pakfile", "vpk".
const char* fileOriginKindName(FileOrigin::Kind kind);

// A file read through the search path, and where it came from.
struct GameFile {
    Bytes bytes;
    FileOrigin origin;
};

class Archive;

class GameFiles {
public:
    GameFiles();
    ~GameFiles();
    GameFiles(GameFiles&&) noexcept;
    GameFiles& operator=(GameFiles&&) noexcept;

    // Each add* appends a mount below the ones already added.
    // Loose files under dir, symlinks followed; UsageError when dir is not a directory.
    void addDirectory(const std::string& dir);
    // An archive on disk, a PACK when its name ends in .pak, else a zip: UsageError when missing, DecodeError
    // naming it when it is damaged.
    void addArchive(const std::string& path);
    // A zip in memory (a Source map's pakfile lump), called `displayName` in messages.
    void addArchiveBytes(std::string displayName, Bytes zipBytes);
    // A VPK directory file (NAME_dir.vpk, or a single-file NAME.vpk): UsageError when missing, DecodeError
    // when its tree is bad. `strict`: a CRC mismatch on read is a DecodeError instead of a warning.
    void addVpk(const std::string& dirPath, bool strict = false);
    // A Quake 3 game directory as the engine searches it: loose files first, then its pk3s with the
    // later one in quake3PakFiles order first.
    void addQuake3GameDir(const std::string& dir);
    // A Quake 1 / Quake 2 game directory as those engines search it: its paks first, the highest-numbered
    // first (quakePakFiles, later first), then its loose files: in the id engines a pak overrides a loose
    // file of the same name (source ports such as QuakeSpasm and Yamagi Quake 2 changed that; luxel follows
    // the original engines). A damaged pak is its DecodeError and leaves the search path as it was.
    void addQuakeGameDir(const std::string& dir);

    // The file from the first mount that has it, and where it came from; nullopt when none has it or the
    // path is rejected. Throws DecodeError when the archive member is corrupt or over kMaxFileBytes (a VPK
    // entry: its archive missing or too short, or a CRC mismatch under `strict`).
    std::optional<GameFile> open(const std::string& path) const;
    // open() without the origin.
    std::optional<Bytes> read(const std::string& path) const;
    // Where open() would find a path, without reading it.
    std::optional<FileOrigin> origin(const std::string& path) const;
    bool exists(const std::string& path) const;
    // Every distinct file path (normalised) under `dir` whose name ends in `ext` ("shader" or ".shader";
    // empty for all), sorted, each once. `recursive` false keeps files directly in dir only, as Quake 3
    // loads scripts/*.shader.
    std::vector<std::string> list(const std::string& dir, const std::string& ext, bool recursive = true) const;
    // Where a path resolves, for messages: "<dir>/textures/x.tga" or "<dir>/pak0.pk3:textures/X.tga"
    // (the directory or archive as mounted, the file as stored).
    std::optional<std::string> describe(const std::string& path) const;
    // Names the file a path resolves to, equal across GameFiles that reach the same file (a loose file's
    // canonical path; an archive's canonical path or, in memory, a hash of its bytes; plus the member),
    // for caching decoded images across maps.
    std::optional<std::string> identity(const std::string& path) const;

    size_t mountCount() const { return mounts_.size(); }
    // Each mount as given, highest precedence first.
    std::vector<FileOrigin> mounts() const;
    // What the archives found wrong so far (VPK entries left out or unreadable, CRC mismatches), in mount
    // order.
    std::vector<std::string> warnings() const;

private:
    struct Mount;
    struct Found;
    std::optional<Found> find(const std::string& path) const;
    static std::unique_ptr<Mount> archiveMount(const std::string& path, std::shared_ptr<const Archive> archive);
    // Mounts archives given lowest precedence first, the last one first.
    void addArchivesInLoadOrder(const std::vector<std::string>& paths);
    std::vector<std::unique_ptr<Mount>> mounts_;
};

}  // namespace luxel
