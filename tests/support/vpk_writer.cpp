#include "support/vpk_writer.hpp"

#include <zlib.h>

#include <cstdio>

#include "support/decode_helpers.hpp"
#include "support/test_paths.hpp"

namespace luxel::test {
namespace {

using Bytes = std::vector<uint8_t>;

void putString(Bytes& b, const std::string& s) {
    b.insert(b.end(), s.begin(), s.end());
    b.push_back(0);
}
void putBytes(Bytes& b, const std::string& s) { b.insert(b.end(), s.begin(), s.end()); }

}  // namespace

uint32_t crc32Of(const std::string& text) {
    return uint32_t(crc32_z(0, reinterpret_cast<const Bytef*>(text.data()), text.size()));
}

VpkBuild makeVpk(const std::vector<VpkFile>& files, int version) {
    // extension -> path -> files, each part " " when empty.
    std::map<std::string, std::map<std::string, std::vector<const VpkFile*>>> tree;
    for (const VpkFile& f : files) {
        const size_t slash = f.path.rfind('/');
        const std::string dir = slash == std::string::npos ? "" : f.path.substr(0, slash);
        const std::string file = f.path.substr(slash == std::string::npos ? 0 : slash + 1);
        const size_t dot = file.rfind('.');
        const std::string ext = dot == std::string::npos ? "" : file.substr(dot + 1);
        tree[ext.empty() ? " " : ext][dir.empty() ? " " : dir].push_back(&f);
    }
    VpkBuild build;
    Bytes treeBytes, data;
    for (const auto& [ext, dirs] : tree) {
        putString(treeBytes, ext);
        for (const auto& [dir, list] : dirs) {
            putString(treeBytes, dir);
            for (const VpkFile* f : list) {
                const std::string file = f->path.substr(f->path.rfind('/') == std::string::npos ? 0 : f->path.rfind('/') + 1);
                const size_t dot = file.rfind('.');
                putString(treeBytes, dot == std::string::npos ? file : file.substr(0, dot));
                const std::string preload = f->content.substr(0, f->preload);
                const std::string rest = f->content.substr(preload.size());
                Bytes& target = f->archive == 0x7fff ? data : build.archives[f->archive];
                append32(treeBytes, f->crc.value_or(crc32Of(f->content)));
                append16(treeBytes, uint32_t(preload.size()));
                append16(treeBytes, f->archive);
                append32(treeBytes, uint32_t(target.size()));
                append32(treeBytes, uint32_t(rest.size()));
                append16(treeBytes, 0xffff);
                putBytes(treeBytes, preload);
                putBytes(target, rest);
            }
            putString(treeBytes, "");
        }
        putString(treeBytes, "");
    }
    putString(treeBytes, "");

    Bytes& out = build.directory;
    append32(out, 0x55aa1234);
    append32(out, uint32_t(version));
    append32(out, uint32_t(treeBytes.size()));
    // Dummy trailing sections: one archive MD5 entry (28 bytes), the other MD5s (48), a signature (40).
    const uint32_t archiveMd5 = 28, otherMd5 = 48, signature = 40;
    if (version == 2) {
        append32(out, uint32_t(data.size()));
        append32(out, archiveMd5);
        append32(out, otherMd5);
        append32(out, signature);
    }
    out.insert(out.end(), treeBytes.begin(), treeBytes.end());
    out.insert(out.end(), data.begin(), data.end());
    if (version == 2) out.insert(out.end(), archiveMd5 + otherMd5 + signature, 0xab);
    return build;
}

std::string writeVpk(const std::filesystem::path& dir, const std::string& name, const VpkBuild& build) {
    const std::filesystem::path dirFile = dir / (name + "_dir.vpk");
    writeFile(dirFile, build.directory);
    for (const auto& [number, bytes] : build.archives) {
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "_%03u.vpk", unsigned(number));
        writeFile(dir / (name + suffix), bytes);
    }
    return dirFile.string();
}

}  // namespace luxel::test
