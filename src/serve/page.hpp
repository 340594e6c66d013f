#pragma once
// GET /: the maps under the roots as a gallery of thumbnails and a form to upload a map and see its
// thumbnail. One self-contained page (no external scripts, styles or fonts).
#include <string>

#include "catalogue.hpp"

namespace luxel::serve {

std::string galleryPage(const Catalogue& catalogue);

}  // namespace luxel::serve
