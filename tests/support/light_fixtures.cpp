#include "support/light_fixtures.hpp"

namespace luxel::test {

Quake3LightSet lightsOfMap(const std::string& mapText) { return quake3Lights(World{}, {}, mapText); }

World polygonWorld(const std::vector<Vec3>& corners, Vec3 normal) {
    World w;
    w.materials.push_back({"textures/test/glow"});
    for (const Vec3& p : corners) {
        Vertex v;
        v.position = p;
        v.normal = normal;
        w.vertices.push_back(v);
    }
    for (uint32_t i = 1; i + 1 < corners.size(); ++i) w.indices.insert(w.indices.end(), {0, i, i + 1});
    Surface s;
    s.kind = SurfaceKind::Polygon;
    s.material = 0;
    s.numVertices = uint32_t(corners.size());
    s.numIndices = uint32_t(w.indices.size());
    w.surfaces.push_back(s);
    Model m;
    m.numSurfaces = 1;
    w.models.push_back(m);
    return w;
}

Q3LightShader glowShader(float value, int subdivide) {
    Q3LightShader sh;
    sh.defined = true;
    sh.surfaceLight = value;
    sh.lightSubdivide = subdivide;
    return sh;
}

}  // namespace luxel::test
