#include "support/material_fixtures.hpp"

#include <catch2/catch.hpp>

#include "luxel/image/image.hpp"

namespace luxel::test {

void writePng(const std::filesystem::path& path, int w, int h, const Texels& rgba) {
    std::filesystem::create_directories(path.parent_path());
    Image img(w, h, 4);
    for (size_t i = 0; i < rgba.size(); ++i)
        for (size_t c = 0; c < 4; ++c) img.pixels[i * 4 + c] = float(rgba[i][c]) / 255.0f;
    writeImage(path.string(), img);
}

Texels level0(const Texture& t) {
    Texels out;
    const RgbaImage m = textureLevel(t, 0);
    for (size_t i = 0; i + 3 < m.rgba.size(); i += 4) out.push_back({m.rgba[i], m.rgba[i + 1], m.rgba[i + 2], m.rgba[i + 3]});
    return out;
}

const Texture& textureOf(const MaterialSet& set, size_t material) {
    const int32_t t = set.looks.at(material).texture;
    REQUIRE(t >= 0);
    REQUIRE(size_t(t) < set.textures.size());
    return *set.textures[size_t(t)];
}

const Texels kWall = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {10, 20, 30, 255}};
const Texels kPhoto = {{1, 2, 3, 255}, {250, 251, 252, 255}, {0, 0, 0, 255}, {128, 127, 126, 255}};
const Texels kPic = {{200, 100, 50, 0}, {1, 2, 3, 128}, {4, 5, 6, 127}, {7, 8, 9, 255}};

}  // namespace luxel::test
