#include "support/q1_view.hpp"

#include "luxel/render/map_view.hpp"
#include "support/decode_helpers.hpp"

namespace luxel::test {

Image q1TopDownView(const Q1MapBuilder& map, const std::string& mode, float fov, int size) {
    LoadedMap loaded = loadMap(memorySource(map.build(), "top.bsp"), {}, {{}, "", 0});
    ViewRequest r;
    r.pos = Vec3{32, 16, 300};
    r.angles = Vec3{90, 0, 0};
    r.fov = fov;
    r.width = r.height = size;
    r.mode = mode;
    r.look = Look::Engine;
    r.ldrOutput = false;
    return renderView(loaded, r).image;
}

void moveFloorFaceToFuncWall(Q1MapBuilder& map, const std::string& wallKeys) {
    Q1Model wall = map.models[0];
    map.models[0].firstFace = 1, map.models[0].numFaces = 1;
    wall.firstFace = 0, wall.numFaces = 1, wall.visLeaves = 0;
    map.models.push_back(wall);
    map.entities += "{\n\"classname\" \"func_wall\"\n\"model\" \"*1\"\n" + wallKeys + "}\n";
}

}  // namespace luxel::test
