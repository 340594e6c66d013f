#include "live_catalogue.hpp"

#include <algorithm>

#include "luxel/util/clock.hpp"
#include "page.hpp"

namespace luxel::serve {
namespace {

std::shared_ptr<const Listing> makeListing(Catalogue catalogue) {
    auto listing = std::make_shared<Listing>();
    listing->catalogue = std::move(catalogue);
    for (const CatalogueEntry& e : listing->catalogue.maps) listing->readable += e.error.empty();
    listing->page = galleryPage(listing->catalogue);
    return listing;
}

}  // namespace

LiveCatalogue::LiveCatalogue(std::vector<std::string> roots, std::vector<std::string> gameDirs)
    : roots_(std::move(roots)), gameDirs_(std::move(gameDirs)) {
    current_ = makeListing(buildCatalogue(roots_, gameDirs_));
    firstWarnings_ = current_->catalogue.warnings;
}

std::shared_ptr<const Listing> LiveCatalogue::current() const {
    std::lock_guard lock(mutex_);
    return current_;
}

RescanResult LiveCatalogue::rescan() {
    std::lock_guard one(rescanning_);
    const double t0 = nowMs();
    const std::shared_ptr<const Listing> before = current();
    auto after = makeListing(buildCatalogue(roots_, gameDirs_, &before->catalogue));
    RescanResult result;
    result.maps = after->catalogue.maps.size();
    for (const std::string& w : after->catalogue.warnings)  // the new ones: a timed rescan repeats none
        if (std::find(before->catalogue.warnings.begin(), before->catalogue.warnings.end(), w) == before->catalogue.warnings.end())
            result.warnings.push_back(w);
    for (const CatalogueEntry& old : before->catalogue.maps) {
        const CatalogueEntry* now = after->catalogue.find(old.name);
        if (!now) ++result.removed;
        else if (now->key() != old.key() || now->error != old.error) ++result.changed;
        else continue;
        result.gone.push_back(old);
    }
    for (const CatalogueEntry& e : after->catalogue.maps) result.added += before->catalogue.find(e.name) == nullptr;
    {
        std::lock_guard lock(mutex_);
        current_ = std::move(after);
    }
    result.seconds = (nowMs() - t0) / 1000;
    return result;
}

}  // namespace luxel::serve
