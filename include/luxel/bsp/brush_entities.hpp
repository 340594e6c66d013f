#pragma once
// Brush entities (doors, platforms, movers, walls) as the games show them when the map starts: the one place
// that knows which entity classes each game draws. Decoders call it once entities and models are read.
#include "luxel/bsp/world.hpp"

namespace luxel {

// Sets Model::drawn, origin, axis and entity of world.models[1..] from the entity whose "model" is "*N":
// * drawn: the game spawns the class and shows it at the start (triggers, tool volumes, classes the game
//   does not know and models no entity uses are not drawn; Source also hides rendermode 10, an invisible
//   renderamt 0, a disabled func_brush and a func_wall_toggle that starts off; Quake 2 a func_wall or
//   func_explosive that waits to be triggered into the world);
// * placed at the entity's "origin" (the compilers store a brush entity's faces relative to it); Source
//   turned by the entity's "angles"; a Quake 3 func_train at its first path_corner, a Quake 2 one with its
//   mins corner there; a func_plat lowered by its "height" (default: its model's height less "lip", 8),
//   always in Quake 3 and when nothing targets it in Quake 2: as the games start them.
// models[0] keeps its defaults.
void placeBrushModels(World& world);

// Where the light compilers light brush entities instead (after placeBrushModels, which finds their entities):
// every model drawn, at its entity's "origin" (the point qbsp stored a rotating entity's faces around; nothing
// otherwise), unturned: ericw-tools' modelinfo offset. A plat is lit raised and a train where it was built.
void placeBrushModelsAsCompiled(World& world);

// The model each surface belongs to (0: the world, or a surface no model lists), one entry a surface.
std::vector<int32_t> surfaceModels(const World& world);

}  // namespace luxel
