// Zip archives of a batch's images (levelshots.pk3): gathered from the finished manifest, so a run that
// reuses up-to-date images and a merge of shards write the same archive as one full run.
#include <filesystem>
#include <map>

#include "batch_parts.hpp"
#include "luxel/io/zip_writer.hpp"

namespace luxel::batch {
namespace fs = std::filesystem;

void writeArchives(Json& manifest, const std::string& outDir) {
    std::map<std::string, std::vector<std::string>> members;  // archive -> image paths below outDir
    for (const Json& map : manifest["maps"]) {
        const std::string archive = map.value("archive", "");
        if (archive.empty()) continue;
        std::vector<std::string>& list = members[archive];  // an archive of no rendered map is still written
        if (map.value("status", "") != "ok" || !map.contains("views")) continue;
        for (const Json& v : map["views"]) list.push_back(v.value("output", ""));
    }
    if (members.empty()) return;
    manifest["archives"] = Json::array();
    for (const auto& [archive, paths] : members) {
        try {
            std::vector<ZipWriteMember> files;
            for (const std::string& path : paths)
                // Members are '/'-separated whatever the platform's separator, as the games look them up.
                files.push_back({fs::path(path).generic_string(), readFile((fs::path(outDir) / path).string())});
            writeZipArchive((fs::path(outDir) / archive).string(), files);
            manifest["archives"].push_back({{"file", archive}, {"members", files.size()}});
        } catch (const std::exception& e) {
            manifest["warnings"].push_back(archive + " not written: " + e.what());
        }
    }
}

}  // namespace luxel::batch
