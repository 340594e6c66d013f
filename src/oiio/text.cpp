// Labels drawn into luxel's float images with OpenImageIO's FreeType text.
#include <OpenImageIO/imagebuf.h>
#include <OpenImageIO/imagebufalgo.h>

#include "module_parts.hpp"

namespace luxel::oiio {

bool drawText(Image& image, int x, int y, const std::string& text, int size, const std::string& fontPath,
              TextAlign align) {
    namespace IBA = OIIO::ImageBufAlgo;
    if (image.channels < 3) return false;
    OIIO::ImageBuf buf(OIIO::ImageSpec(image.width, image.height, image.channels, OIIO::TypeDesc::FLOAT),
                       image.pixels.data());  // draws straight into the frame
    const float white[3] = {1.0f, 1.0f, 1.0f};
    const IBA::TextAlignX alignX = align == TextAlign::Center  ? IBA::TextAlignX::Center
                                   : align == TextAlign::Right ? IBA::TextAlignX::Right
                                                               : IBA::TextAlignX::Left;
    // A one-pixel shadow keeps white text readable on light pixels.
    if (IBA::render_text(buf, x, y, text, size, fontPath, OIIO::cspan<float>(white, 3), alignX,
                         IBA::TextAlignY::Baseline, 1, {}, 1))
        return true;
    buf.geterror();
    OIIO::geterror();
    return false;
}

}  // namespace luxel::oiio
