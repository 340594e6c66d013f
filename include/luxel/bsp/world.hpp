#pragma once
// The format-neutral map model. Decoders fill it; everything after it knows no format.
// Plain structs of arrays, indices instead of pointers. Colour is linear float: format quirks
// (Quake 3 overbright, exponents, styles) are already resolved here.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "luxel/light/lights.hpp"
#include "luxel/util/math.hpp"

namespace luxel {

enum class MapFormat { Quake2, Quake3, Source, Quake1, HalfLife };

struct LumpInfo {
    std::string name;
    uint64_t offset = 0;
    uint64_t length = 0;
    int32_t version = 0;
    bool compressed = false;
};

struct Plane {
    Vec3 normal;
    float dist = 0;
};

// A Quake 1, Quake 2 or GoldSrc face: its plane as the face sees it and, when it has a lightmap, what the light
// tools place its luxels with (ericw-tools' faceextents_t), as stored. Texture coordinates are
// s = vecs[0..2] . p + vecs[3] and t = vecs[4..6] . p + vecs[7]; luxel (i, j) of the face's block sits at texture
// coordinates ((mins[0] + i) luxelSize, (mins[1] + j) luxelSize) on the plane. `decoupled` (a layout at world
// units a luxel, DECOUPLED_LM): vecs give the luxel coordinates (i, j) themselves, mins and luxelSize unused.
struct TexinfoLuxels {
    std::array<float, 8> vecs{};
    Plane plane;
    std::array<int32_t, 2> mins{};
    int32_t luxelSize = 0;  // 0: the face has no lightmap
    bool decoupled = false;
};

// Child index >= 0 is a node, < 0 is leaf -(child + 1).
struct Node {
    int32_t plane = 0;
    std::array<int32_t, 2> children{};
    Vec3 mins, maxs;
};

struct Leaf {
    int32_t cluster = -1;  // -1: outside the map / solid
    int32_t area = 0;
    bool sky = false;  // Quake 1: a sky leaf (CONTENTS_SKY), which ericw-tools' light keeps sample points out of
    bool liquid = false;  // Quake 1 / 2: water, slime or lava, which ericw-tools' light never vis-culls across
    Vec3 mins, maxs;
    uint32_t firstLeafSurface = 0, numLeafSurfaces = 0;  // into World::leafSurfaces
};

struct Model {
    Vec3 mins, maxs;  // as stored (a brush entity's relative to its placement)
    uint32_t firstSurface = 0, numSurfaces = 0;
    // How the game shows a brush entity's model when the map starts, resolved by the decoder from the entity
    // that uses it (bsp/brush_entities.hpp): whether it is drawn, and where. Its stored points p are drawn at
    // origin + axis[0] p.x + axis[1] p.y + axis[2] p.z. models[0], the world, is drawn as stored.
    bool drawn = true;
    Vec3 origin;
    std::array<Vec3, 3> axis{Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};
    int32_t entity = -1;  // index into World::entities of the entity using it, -1 for none (and the world)
    bool placed() const { return !(origin == Vec3{}) || !(axis[0] == Vec3{1, 0, 0}) || !(axis[1] == Vec3{0, 1, 0}); }
};

// Neutral material flags, resolved by the decoder from the format's own bits.
enum MaterialFlags : uint32_t {
    kMaterialSky = 1u << 0,     // drawn as sky colour
    kMaterialNoDraw = 1u << 1,  // never drawn (tool, nodraw, hint, skip, trigger)
    kMaterialTwoSided = 1u << 2,
    kMaterialNoLightmap = 1u << 3,
};

struct Material {
    std::string name;
    uint32_t flags = 0;
    uint32_t nativeSurfaceFlags = 0, nativeContents = 0;
    Vec3 reflectivity{1, 1, 1};  // flat albedo used until textures are loaded
    // Quake 2: the texinfo's value, the light a SURF_LIGHT face emits (only light compilers read it).
    int32_t nativeValue = 0;
    // Materials of placed models only: the engine's render colour modulation of the model (gamma-space RGB and
    // alpha, 0-1): white, or a Source static prop's diffuse modulation. As the engine's ColorModulate and
    // AlphaModulate it takes the place of the material's $color and $alpha (Source: times $color2).
    std::optional<Vec4> modelColor{};
    // Half-Life brush entities' materials: the entity's rendermode as GoldSrc's kRender* numbers it (1 colour,
    // 2 texture, 3 glow, 4 solid, 5 additive; 0 drawn normally), its rendercolor and renderamt in modelColor.
    int32_t entityRenderMode = 0;
    // Quake 1 brush entities' materials: the entity's "alpha" as FitzQuake and QuakeSpasm read it (ENTALPHA: 0 or
    // absent opaque, else one of 254 steps): its surfaces are drawn lit and blended at this opacity.
    float entityAlpha = 1;
};

// One side of a light-blocking brush: the brush holds the points p with dot(plane.normal, p) <= plane.dist.
struct BrushSide {
    Plane plane;
    bool sky = false;    // a sun's ray passes through this side's face (it is the map's sky)
    bool bevel = false;  // a collision bevel: clips nothing and has no face (Source marks them)
    bool noFace = false; // clips the others but has no face of its own (Source: sky and displacement sides)
};

// A convex brush of the world that blocks light the way the map's compiler sees it (which brushes count is
// each decoder's rule, written there). The ray scene turns them into shadow-only faces, so a caulked wall
// with no drawn surface still casts its shadow.
struct Brush {
    uint32_t firstSide = 0, numSides = 0;  // into World::brushSides
};
// Sides a brush may have (q3map2's MAX_BRUSH_SIDES; vbsp's is 128), and the sum of every brush's sides
// squared (what building their faces costs: each side clipped by the others), far above real maps' (about
// 3 M for a large Quake 3 map). Decoders refuse more, so a hostile file cannot make the ray scene run long.
constexpr uint32_t kMaxBrushSides = 1024;
constexpr uint64_t kMaxBrushSideSquares = uint64_t(1) << 26;

enum class SurfaceKind : uint8_t { Polygon, Patch, Mesh, Billboard, Displacement };

struct Vertex {
    Vec3 position;
    Vec3 normal;
    Vec2 texUV;
    Vec2 lightmapUV;  // normalised to the surface's lightmap page: [0,1] covers the page
    Vec4 color;       // linear; vertex light in rgb (already overbright-resolved), alpha in w
};

struct Surface {
    SurfaceKind kind = SurfaceKind::Polygon;
    int32_t material = -1;
    int32_t lightmapPage = -1;  // < 0: lit by vertex colour (or unlit)
    uint32_t firstVertex = 0, numVertices = 0;  // into World::vertices
    uint32_t firstIndex = 0, numIndices = 0;    // into World::indices; triangle lists relative to firstVertex
    int32_t patchWidth = 0, patchHeight = 0;    // Patch: control grid size (numVertices = w*h)
    Vec3 origin, color, normal;                 // Billboard: position, linear colour, facing; planar: normal
    // Light style of each lightmap slot (Quake 2 / Source: up to 4; Quake 3: style 0 only); 255 = unused.
    // Slot k's texels live in World::lightmaps (k = 0) or World::extraLightmapSlots[k-1], same page and uv.
    std::array<uint8_t, 4> styles{0, 255, 255, 255};
    // Where the surface's luxel block sits in its page (x, y, width, height; texels, border excluded), for
    // formats whose decoder packs blocks into atlas pages; all zero when unknown (Quake 3 pages).
    std::array<int32_t, 4> lightmapRect{};
    int32_t fog = -1;  // Quake 3: the fog volume (World::fogs) the surface lies in; -1 none
};

// A Quake 3 fog volume (effects lump): its shader (fogparms gives colour and thickness) and, when the
// volume has a visible side, that side's plane flipped as ioquake3's R_LoadFogs does: dot(normal, p) - dist
// is the depth of p below the fog's surface (positive inside).
struct FogVolume {
    std::string shader;
    bool hasSurface = false;
    Plane surface;
};

// One lightmap page (Quake 3: a 128x128 block or an external image; others: an atlas page).
struct LightmapPage {
    int32_t width = 0, height = 0;
    std::vector<float> rgb;  // linear, row-major, 3 floats per texel; none when decoded without light samples
};

// Potentially visible sets, uncompressed: bit b of row a says cluster b may be seen from cluster a.
struct Pvs {
    int32_t numClusters = 0;
    int32_t rowBytes = 0;
    std::vector<uint8_t> rows;
    bool empty() const { return numClusters == 0; }
    bool visible(int32_t from, int32_t to) const {
        if (from < 0 || to < 0 || from >= numClusters || to >= numClusters) return true;
        return (rows[size_t(from) * size_t(rowBytes) + size_t(to >> 3)] >> (to & 7)) & 1;
    }
};

// Quake 3 light grid, decoded: colours linear, direction a unit vector pointing toward the light.
struct GridSample {
    Vec3 ambient, directed, direction;
};

struct LightGrid {
    Vec3 origin, cellSize;
    std::array<int32_t, 3> dims{};  // x fastest, then y, then z
    std::vector<GridSample> samples;  // dims' product of them; none when decoded without light samples
};

// Source ambient cube sample: light arriving from each axis direction at a point inside a leaf.
struct AmbientSample {
    Vec3 position;
    std::array<Vec3, 6> sides;  // linear light from +X, -X, +Y, -Y, +Z, -Z
};

// A Source static prop (sprp game lump), resolved by the decoder from the lump version's record layout.
// Fade distances and the CPU / GPU / DirectX level limits are left out: a still shows every prop unfaded.
struct StaticProp {
    std::string model;    // "models/.../x.mdl" from the lump's name dictionary
    Vec3 origin, angles;  // angles: pitch yaw roll in degrees (Source QAngle)
    Vec3 scale{1, 1, 1};  // version 11+ uniform scale (all three equal; per axis in version 13)
    int32_t skin = 0;     // skin family of the model
    // Where the prop's ambient light is taken when set (STATIC_PROP_USE_LIGHTING_ORIGIN); otherwise at the
    // model's illumination point placed with the prop.
    std::optional<Vec3> lightingOrigin;
    bool vertexLit = true;  // false: STATIC_PROP_NO_PER_VERTEX_LIGHTING (vrad baked no .vhv light)
    std::array<uint8_t, 4> tint{255, 255, 255, 255};  // diffuse modulation RGBA (the layouts that carry it)
    uint32_t firstLeaf = 0, numLeaves = 0;  // into World::staticPropLeaves
};

// Source's 3D skybox camera (the first sky_camera entity), resolved by the decoder: the leaves of the area of
// the leaf holding `origin` are drawn behind the world as seen from origin + eye / scale (the engine's
// CSkyboxView::Setup; unscaled when scale <= 0), before the 2D sky box.
struct SkyCamera {
    Vec3 origin;
    float scale = 16;  // the entity's integer "scale" key (Hammer's default 16 when the key is absent)
};

// A decal quad laid over faces (Source info_overlay, the overlays lump), resolved by the decoder into the
// engine's basis (COverlayMgr::LoadOverlays / CreateFragments): corner k lies at origin + points[k].x *
// basisU + points[k].y * basisV on the overlay plane (normal `normal`), and the quad is projected along the
// normal onto each listed surface (geometry/overlays.hpp). Texture coordinates of the corners: 0 (u.x, v.x),
// 1 (u.x, v.y), 2 (u.y, v.y), 3 (u.y, v.x).
struct Overlay {
    int32_t material = -1;           // World::materials index
    std::vector<uint32_t> surfaces;  // World surface indices (the map's faces)
    Vec3 origin, basisU, basisV, normal;
    std::array<Vec2, 4> points{};
    Vec2 u, v;
    int32_t renderOrder = 0;  // 0..3: overlapping overlays on one face are drawn in this order
};

struct Entity {
    std::vector<std::pair<std::string, std::string>> keys;
    // Value of the first pair with this key, or nullptr.
    const std::string* get(const std::string& key) const {
        for (const auto& [k, v] : keys)
            if (k == key) return &v;
        return nullptr;
    }
};

// A place the map itself suggests for a camera, resolved by the decoder from the game's entity classes so
// that nothing after World needs to know them (see bsp/viewpoints.hpp for the classes of each game).
struct Viewpoint {
    enum class Kind : uint8_t {
        Spawn,         // a player start (deathmatch, single-player, team)
        Intermission,  // the game's own end-of-level / spectator camera
        Item,          // a pickup (weapon, ammo, item): a hint where the playable space is
    };
    Kind kind = Kind::Spawn;
    // Where a camera goes: Spawn and Item: the entity's origin raised by World::eyeHeight (the eye of a
    // player standing there); Intermission: the origin itself, as the game shows it.
    Vec3 position;
    // Pitch yaw roll (degrees) from the entity's "angle" / "angles" keys, later key winning; Intermission:
    // aimed at the origin of its target entity when it has one.
    Vec3 angles;
    std::string className;
};

// How the game turns linear light into display values; applied only when writing LDR pictures.
struct EngineLook {
    // Light above this (in linear units where 1 = full white on white albedo) is scaled down with all
    // three channels together, keeping hue (Quake 3: 2, the ×4 overbright shown through ×2 hardware gamma).
    float hueClampAt = 0;  // 0: no hue-preserving clamp
    // Look::EngineWindowed's clamp (Quake 3 without hardware overbright: the whole x4 shift applied to the
    // bytes, clamped hue-preserving at 255, so at 1 here); 0: the same as hueClampAt.
    float windowedHueClampAt = 0;
    // The clamp at hueClampAt takes each channel on its own instead of keeping the hue (Half-Life: each lightmap
    // texel channel saturates at 255 by itself, R_BuildLightMap's t > 1023).
    bool clampPerChannel = false;
    float gamma = 1.0f;    // display gamma applied after clamping to [0,1]
    // Lightmap mode (the engine's r_lightmap) draws surfaces without a lightmap (sky, liquids) white, as
    // QuakeSpasm does, instead of with their own stages (Quake 3's rule).
    bool lightmapModeUnlitWhite = false;
};

struct World {
    MapFormat format = MapFormat::Quake3;
    std::string formatName;  // "Quake 3 IBSP"
    int32_t version = 0;
    std::string file;        // display name used in messages
    std::vector<LumpInfo> lumps;

    std::vector<Plane> planes;
    std::vector<Node> nodes;
    std::vector<Leaf> leaves;
    std::vector<uint32_t> leafSurfaces;  // surface indices listed by leaves
    std::vector<Model> models;           // models[0] is the world
    std::vector<Brush> brushes;          // the world's light-blocking brushes (see Brush)
    std::vector<BrushSide> brushSides;
    std::vector<Material> materials;
    std::vector<Vertex> vertices;
    std::vector<uint32_t> indices;
    std::vector<Surface> surfaces;
    // Per surface (Quake 1, Quake 2, GoldSrc; empty elsewhere): its plane and its texinfo's luxel frame.
    std::vector<TexinfoLuxels> texinfoLuxels;
    std::vector<LightmapPage> lightmaps;  // style slot 0
    // Style slots 1..3: page i has the same size and layout as lightmaps[i] (empty when no surface uses the slot).
    std::array<std::vector<LightmapPage>, 3> extraLightmapSlots;
    std::vector<FogVolume> fogs;  // Quake 3 fog volumes, indexed by Surface::fog
    // Light direction per texel of lightmaps[i] (Quake 3 -deluxe maps): unit vectors in world space towards
    // the light, in `rgb`; empty when the map has none, a page of width 0 where page i has none.
    std::vector<LightmapPage> deluxemaps;
    Pvs pvs;
    std::optional<LightGrid> grid;
    std::vector<AmbientSample> ambientSamples;
    std::vector<std::pair<uint32_t, uint32_t>> leafAmbient;  // per leaf: (first, count) into ambientSamples
    // The lump the grid / ambient samples were decoded from, by its lump name ("lightvols", "leafs" for
    // cubes embedded in version 0 leaves, "leaf_ambient_lighting" or "leaf_ambient_lighting_hdr"), so
    // writers put rebaked probes back where they came from; empty when the map has none.
    std::string probeLump;
    // Where the lightmaps were read from when a format has several (Quake 1: "BSPX RGBLIGHTING", ".lit (x.lit)",
    // "lighting lump (grey)"), for `info`; empty otherwise.
    std::string lightSource;
    bool hdrLighting = false;  // Source: the lighting decoded is the map's HDR set (what vrad -hdr wrote)
    std::vector<StaticProp> staticProps;
    std::vector<uint32_t> staticPropLeaves;  // leaf indices listed by the props (StaticProp::firstLeaf)
    // Files the map carries (Source pakfile zip: materials, textures, cubemaps); empty when none.
    std::vector<uint8_t> embeddedArchive;
    // Quake 1 / Half-Life: the textures lump as stored (miptex directory, headers and pixels), which the
    // material loader decodes; the map's bytes are gone by then.
    std::vector<uint8_t> embeddedTextures;
    std::vector<Entity> entities;
    std::string entityText;
    std::optional<SkyCamera> skyCamera;  // Source maps with a 3D skybox
    std::vector<Overlay> overlays;       // Source overlays (not yet surfaces: geometry/overlays.hpp places them)
    // The lights the map's compiler lit it with, for the baker (Source: the worldlights lump of the lighting
    // set decoded, source/worldlights.cpp; Quake 2: the light entities as qrad3 reads them, light/q2_lights.hpp);
    // empty for formats and maps without them. Sky lights are baked as the suns of light/sky_dome.hpp.
    std::vector<Light> lights;
    // Spawn points first, in the order "spawn:N" counts them, then intermission cameras in order of
    // preference, then items in file order.
    std::vector<Viewpoint> viewpoints;
    EngineLook look;
    // The aspect ratio at which the game's horizontal FOV is defined (Source: 4/3, widened for wider
    // frames); 0 means the FOV is horizontal at any aspect (Quake).
    float fovReferenceAspect = 0;
    // How far above a spawn point's origin the game puts the eye (Quake 3 DEFAULT_VIEWHEIGHT 26, Quake 2 22,
    // Source 64).
    float eyeHeight = 26.0f;
    int32_t mapRevision = 0;
    std::string layoutName;  // header/lump-directory layout when a format has several

    // Counts of records the decoder saw that luxel does not use further (brushes, effects, ...), for `info`.
    std::vector<std::pair<std::string, uint64_t>> otherCounts;
    // Everything odd the decoder noticed but could work around (e.g. grid size mismatch).
    std::vector<std::string> problems;
};

}  // namespace luxel
