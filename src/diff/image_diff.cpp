// Image comparison is OpenImageIO's ImageBufAlgo::compare (the engine behind idiff), in its module
// (src/oiio/image_compare.cpp), loaded on the first comparison.
#include "luxel/diff/diff.hpp"
#include "luxel/image/oiio_module.hpp"

namespace luxel {

ImageDiff diffImageFiles(const std::string& a, const std::string& b, const DiffThresholds& thresholds) {
    return oiioModule("comparing " + a + " with " + b).diffImageFiles(a, b, thresholds);
}

ImageDiff diffImages(const Image& a, const Image& b, const std::string& name, const DiffThresholds& thresholds) {
    return oiioModule("comparing " + name).diffImages(a, b, name, thresholds);
}

}  // namespace luxel
