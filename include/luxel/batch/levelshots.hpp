#pragma once
// Levelshots as the Quake 3 engine makes them (`levelshot`, ioquake3's R_LevelShot in
// code/renderergl1/tr_init.c): the intermission view drawn as a 4:3 frame, reduced to a small square by
// averaging 4 x 3 point samples per output pixel on the 8-bit framebuffer, and shipped in a pk3 as
// levelshots/NAME.jpg for the game's map menus. `luxel batch --preset levelshots` and
// scenes/levelshots.toml use these.
#include <string>

#include "luxel/image/image.hpp"
#include "luxel/scene/scene.hpp"

namespace luxel {

constexpr int kLevelshotSize = 128;  // the engine's

// R_LevelShot's reduction of an 8-bit RGB(A) frame (rows from the top, as ByteImage holds them) to
// size x size RGB: output pixel (x, y) is the integer sum over xx in 0..3, yy in 0..2 of the frame's byte at
// column int((x*4 + xx) * (W / (size*4.0f))) and row int((y*3 + yy) * (H / (size*3.0f))), divided by 12
// (truncating), per channel. The engine counts y and the rows from the bottom (glReadPixels, and the TGA it
// writes is stored bottom-up), so here both are counted from the bottom too: the picture comes out upright
// and the same point samples are taken. size 128 is the engine's (a 512 x 384 grid of samples).
ByteImage levelshotReduce(const ByteImage& frame, int size = kLevelshotSize);


// The preset's view and output: the intermission camera (its fallbacks: spawn:0, best, overview), a 640x480
// frame in lit mode with the engine look, reduced to size x size, written as levelshots/{map}.jpg and
// gathered into levelshots.pk3.
SceneView levelshotView(int size = kLevelshotSize);
SceneOutput levelshotOutput();

}  // namespace luxel
