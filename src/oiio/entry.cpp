// The module's one exported symbol: its table of entry points.
#include "module_parts.hpp"

extern "C" __attribute__((visibility("default"))) const luxel::OiioModule* luxel_oiio_module() {
    using namespace luxel::oiio;
    static const luxel::OiioModule table{luxel::kOiioModuleAbi, encodeImage, decodeImage, decodeImageBytes,
                                         readImage,                diffImageFiles, diffImages};
    return &table;
}
