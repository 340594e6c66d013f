#pragma once
// What the Quake 3 map compiler's light stage (q3map2 -light) reads from the shader of each material: surface
// light value and subdivision, light colour (q3map_lightRGB or the mean colour of the light image), backsplash,
// suns and sky lights, and the sky box as q3map2 samples it for coloured sky light. The light decoder
// (light/q3_lights.hpp) turns these into Lights; nothing here knows geometry.
#include <string>
#include <vector>

#include "luxel/bsp/world.hpp"
#include "luxel/io/map_source.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/q3_shader.hpp"

namespace luxel {

struct Q3LightShader {
    bool defined = false;       // a script defines the material (else q3map2's default shader: no light)
    float surfaceLight = 0;     // q3map_surfacelight (q3map2 si->value)
    int lightSubdivide = 0;     // q3map_lightSubdivide; <= 0: the compiler's default (999)
    // q3map2's si->color (LoadShaderImages): q3map_lightRGB when it is not black, else the sum of the light
    // image's texels; either normalised so the largest channel is 1 (ColorNormalize: black gives white).
    Vec3 color{1, 1, 1};
    std::string colorImage;     // the image the colour came from ("" when q3map_lightRGB or none was found)
    float backsplashFraction = 0.05f, backsplashDistance = 23;  // q3map_backsplash percent / 100, distance
    bool sky = false;           // surfaceparm sky or a sun (q3map2 applies the sky parm for q3map_sun)
    bool fog = false;           // surfaceparm fog: its surface lights emit from both sides
    bool twoSided = false;      // cull none / twosided / disable: emit from both sides
    bool autosprite = false;    // deformVertexes autosprite*: the surface light becomes one point light
    bool nodraw = false;        // surfaceparm nodraw: q3map2 takes the default image as the light image
    bool noFast = false;        // q3map_noFast: no -fast cutoff for its lights
    int lightStyle = 0;         // q3map_lightStyle
    std::vector<Q3Shader::Sun> suns;
    std::vector<Q3Shader::SkyLight> skyLights;
    // The sky box as q3map2's SkyProbes sees it (64 x 64 cells a face, each the mean texel / 255 times the
    // cell direction's cosine to the face axis, with that direction in world space); empty when no sky light
    // samples colour or an image of the box is missing.
    struct SkyProbe {
        Vec3 color, normal;
    };
    std::vector<SkyProbe> skyProbes;
};

// One per World::materials entry, from the map's game directories as loadMaterials mounts them (shaders are
// looked up with luxel's engine precedence; q3map2 takes the first definition in shaderlist.txt order, which
// differs only for names defined twice). Problems (a missing sky box image) are appended to `warnings`.
std::vector<Q3LightShader> quake3LightShaders(const World& world, const MapSource& source,
                                              const MaterialOptions& options,
                                              std::vector<std::string>* warnings = nullptr);

// The same from a shader alone, with `image` the decoded light image (empty: none found) and `box` the six
// sky box faces in q3map2's order _lf _rt _ft _bk _up _dn (empty or any face empty: no probes).
Q3LightShader lightShaderOf(const Q3Shader& shader, const RgbaImage& image, const std::vector<RgbaImage>& box);

// q3map2's SkyProbes from the six faces (order _lf _rt _ft _bk _up _dn).
std::vector<Q3LightShader::SkyProbe> skyProbes(const std::vector<RgbaImage>& box);

}  // namespace luxel
