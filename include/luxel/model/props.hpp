#pragma once
// Static props placed into a World: each prop's studio model (LOD 0, body group 0, its skin family) becomes
// vertex-lit Mesh surfaces appended after the map's own, with materials named as the engine resolves them
// ($cdmaterials + texture, first folder whose .vmt exists) so they load through the same material path as
// world surfaces. Each prop's surfaces are listed by the leaves the prop lists, so PVS culling treats them
// like world surfaces. Light per vertex: vrad's baked sp_N.vhv / sp_hdr_N.vhv from the map's pakfile when
// present, else as the engine lights a prop without baked light: the light cache at the prop's lighting
// origin, an ambient cube from rays plus up to four local lights, evaluated per vertex
// (model/prop_lighting.hpp). A prop's diffuse modulation goes to its materials as Material::modelColor (one
// material per name and modulation). Fades and CPU/GPU levels are not applied.
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/io/game_files.hpp"
#include "luxel/model/studio.hpp"

namespace luxel {

struct PropOptions {
    bool enabled = true;  // false: the map as without props (`--no-props`)
};

struct PropsPlaced {
    size_t props = 0;         // props drawn
    size_t models = 0;        // distinct models loaded
    size_t vertexLit = 0;     // props lit by a .vhv file (the rest by ambient cubes)
    std::vector<std::string> modelsNotFound;  // .mdl files in no searched place, by name
    size_t propsNotFound = 0;                 // the props of those models (not drawn)
    std::vector<std::string> warnings;        // a model broken or incomplete, a .vhv that does not fit: named
};

// What placing the props has to say: one line for the models not found (with a hint to --game-dir when
// `searchedGameDirs` is false), then PropsPlaced::warnings.
std::vector<std::string> propWarnings(const PropsPlaced& placed, bool searchedGameDirs);

// Where props find their files: the map's pakfile, then each game directory mounted as the engine mounts it
// (io/source_game.hpp: gameinfo.txt search paths and VPKs, else loose files then *_dir.vpk).
GameFiles propFiles(const World& world, const std::vector<std::string>& gameDirs);

// Loads a studio model: NAME.mdl, .vvd and the first of .dx90.vtx, .dx80.vtx, .sw.vtx. Throws UsageError
// when a file is missing, DecodeError when one is malformed.
StudioModel loadStudioModel(const GameFiles& files, const std::string& mdlPath);

// A point of a prop's model in the world: origin + rotation(angles) * (scale * local), with Source's
// AngleMatrix (forward, left, up columns from pitch yaw roll).
Vec3 propPoint(const StaticProp& prop, Vec3 local);
Vec3 propNormal(const StaticProp& prop, Vec3 localNormal);

// Per-vertex light vrad baked for one prop (a .vhv, HardwareVerts version 2, one BGRA8 colour per vertex
// of each strip group in .vtx order), as linear light per .vvd vertex of `model`, in lightmap units:
// vrad stores each colour as LinearToVertexLight (gamma 1/2.2, halved for overbright), so linear =
// (2 c / 255)^2.2. DecodeError when malformed or made for another model.
std::vector<Vec3> readVertexLight(const Bytes& bytes, const std::string& name, const StudioModel& model);

// Appends every static prop's surfaces to `world` (see above). Never throws for a missing or broken model:
// it is listed (modelsNotFound) or a warning naming it, and its props are left out.
PropsPlaced placeStaticProps(World& world, const GameFiles& files);

}  // namespace luxel
