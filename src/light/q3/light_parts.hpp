#pragma once
// Internal to the Quake 3 light decoder (light/q3_lights.hpp): what its parts share.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "luxel/light/q3_lights.hpp"

namespace luxel::q3light {

// q3map2 value (0..255 scale) -> luxel light units (4 b / 255, see q3_lights.hpp).
constexpr float kValueToLuxel = 4.0f / 255.0f;
constexpr float kMaxWorldCoord = 65536.0f;           // q3map2 MAX_WORLD_COORD
constexpr float kFarEnvelope = kMaxWorldCoord * 8;   // what q3map2 gives lights it cannot cull

// Random() as a fixed sequence: q3map2 draws from rand(), shared by every light in creation order; luxel uses
// its own generator (splitmix64) from the settings' seed, so jittered copies differ from q3map2's but are the
// same on every run.
class Jitter {
public:
    explicit Jitter(uint64_t seed) : state_(seed) {}
    float next() {  // in [0, 1]
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        return float(double(z >> 11) / double((1ull << 53) - 1));
    }

private:
    uint64_t state_;
};

// Notes collected once each, in order of first appearance.
struct Notes {
    std::vector<std::string> list;
    std::set<std::string> seen;
    void add(const std::string& s) {
        if (seen.insert(s).second) list.push_back(s);
    }
};

// Entity key lookups as q3map2 reads them: keys compared without case, the first pair with the key wins.
const std::string* keyValue(const Entity& e, std::string_view key);
float floatKey(const Entity& e, std::string_view key, float fallback = 0);  // atof of the first present key
int intKey(const Entity& e, std::string_view key, int fallback = 0);
bool boolKey(const Entity& e, std::string_view key);  // "1" / "true" / "yes" / a non-zero number
Vec3 vectorKey(const Entity& e, std::string_view key);  // "x y z", missing parts 0
std::string classnameOf(const Entity& e);

// q3map2's ColorNormalize: largest channel 1; black gives white.
Vec3 colorNormalize(Vec3 c);

// (cos a cos e, sin a cos e, sin e): q3map2's vector3_for_spherical.
Vec3 spherical(double angle, double elevation);

// The light entities of the map (CreateEntityLights); counts and notes go into `set`.
void addEntityLights(const std::vector<const Entity*>& entities, const Quake3LightSettings& s, Jitter& jitter,
                     Quake3LightSet& set, Notes& notes);

// Worldspawn's ambient and floors (LightWorld).
void readWorldspawn(const Entity* worldspawn, Quake3LightSet& set);

// Surface lights of every surface (RadLightForTriangles / RadLightForPatch / autosprite point lights).
void addSurfaceLights(const World& world, const std::vector<Q3LightShader>& shaders, const Quake3LightSettings& s,
                      Quake3LightSet& set, Notes& notes);

// One patch surface's pieces as RadLightForPatch cuts them: quads (4 points) when the first three corners are
// not collinear, else nothing (q3map2's fallback to two triangles repeats the degenerate one), each with its
// vertex normals.
struct Piece {
    std::vector<Vec3> points, normals;
};
// Per surface of the world model and brush models, the iterations IterationsForCurve gives its patch after
// its LOD group (patches sharing a control point within 1 unit, per model) takes the longest curve.
std::vector<int> patchIterations(const World& world, int patchSubdivisions, Notes& notes);
std::vector<Piece> patchPieces(const std::vector<Vec3>& controlPoints, const std::vector<Vec3>& controlNormals,
                               int width, int height, int iterations);

}  // namespace luxel::q3light
