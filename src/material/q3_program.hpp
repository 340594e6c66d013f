#pragma once
// Internal to the Quake 3 loader: a shader's stages compiled into a StageProgram at a time (each stage's
// image or animMap frame, blend, colour and alpha generators, tcGen and its tcMods as one affine map plus a
// turbulence), its sky stages as cloud layers, and the image lookup the engine does (R_FindImageFile).
#include <memory>
#include <string>

#include "luxel/io/game_files.hpp"
#include "luxel/material/material_set.hpp"
#include "luxel/material/q3_shader.hpp"
#include "material_loaders.hpp"

namespace luxel::materials {

// R_FindImageFile: the name as written when its type is known, then the other image types; "" when none.
std::string findImage(const GameFiles& files, const std::string& name);
// The image of a stage at `time`: animMap's frame, else its map.
std::string stageImageAt(const Q3Stage& stage, float time);
Wave waveOf(const Q3Wave& wave);
// The shader's stages as a program at `time` (see MaterialStage), textures requested from `files` when `decode`,
// each for the footprint its stage samples where the base coordinates' is footprint2 (0: whole).
std::shared_ptr<const StageProgram> stageProgram(const Q3Shader& shader, const GameFiles& files, TextureRequests& requests,
                                                 float time, bool decode, float footprint2 = 0);
// The sky shader's stages as cloud layers on the dome (ioquake3 draws them when skyParms is given).
void addClouds(SkyBox& box, const Q3Shader& sky, const GameFiles& files, TextureRequests& requests, float time,
               std::vector<std::string>& warnings);

}  // namespace luxel::materials
