#pragma once
// What a finished frame shows, in a few figures: the automatic camera's rules judge candidate views by them,
// and the batch's manifest reports them for every view.
#include "luxel/image/image.hpp"
#include "luxel/render/render.hpp"

namespace luxel {

// A pixel whose view depth is under this many world units is "in the camera's face" (a player is 56 units
// wide at most in the Quake games).
constexpr double kNearDepth = 64.0;

struct ViewFigures {
    double brightness = 0;  // mean display luma over all pixels, 0..1 (Rec. 709 weights of the clamped rgb)
    double nearShare = 0;   // share of all pixels whose view depth is under kNearDepth
    double oneColour = 0;   // share of all pixels in the most common colour (8-bit display bytes)
    double coverage = 0;    // share of all pixels showing geometry that is not sky
};

// The figures of `image` (display values: the engine look) with the samples renderFrame gave for it.
ViewFigures viewFigures(const ByteImage& image, const FrameSamples& samples);

// The automatic camera's rules for a thumbnail (issue 29): on a map that has light a view must not be dark
// (brightness at least kMinBrightness), nor be mostly wall in the face (nearShare at most kMaxNearShare), nor
// one colour (oneColour at most kMaxOneColour).
constexpr double kMinBrightness = 0.05, kMaxNearShare = 0.5, kMaxOneColour = 0.6;
bool acceptableView(const ViewFigures& f);

}  // namespace luxel
