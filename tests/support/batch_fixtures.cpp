#include "support/batch_fixtures.hpp"

#include <OpenImageIO/imageio.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "support/q3_writer.hpp"

namespace luxel::test {
namespace fs = std::filesystem;
using nlohmann::json;

std::string toString(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }

std::string roomMap(int variant) {
    RoomOptions o;
    const auto b = uint8_t(20 + 23 * variant);
    o.wallBytes[0] = {b, uint8_t(255 - b), uint8_t(b / 2)};
    o.wallBytes[3] = {uint8_t(b / 3), b, 90};
    return toString(makeRoomMap(o).build());
}

void stripKeys(json& j, const std::set<std::string>& keys) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end();)
            if (keys.count(it.key()))
                it = j.erase(it);
            else
                stripKeys(*it++, keys);
    } else if (j.is_array()) {
        for (json& e : j) stripKeys(e, keys);
    }
}

std::pair<int, int> imageSize(const std::string& path) {
    auto in = OIIO::ImageInput::open(path);
    if (!in) return {0, 0};
    const OIIO::ImageSpec spec = in->spec();
    in->close();
    return {spec.width, spec.height};
}

std::vector<std::string> filesBelow(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).string());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> listedOutputs(const json& manifest) {
    std::vector<std::string> out;
    for (const json& m : manifest["maps"])
        if (m.contains("views"))
            for (const json& v : m["views"]) out.push_back(v["output"].get<std::string>());
    return out;
}

}  // namespace luxel::test
