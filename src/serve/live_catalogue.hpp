#pragma once
// The maps a running service offers, swapped whole when the roots are listed again (SIGHUP, --rescan): each
// request takes the listing current when it arrives and keeps it to its end, so a rescan never changes what a
// request in flight sees. The gallery page is made once per listing.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "catalogue.hpp"

namespace luxel::serve {

struct Listing {
    Catalogue catalogue;
    std::string page;     // GET /
    size_t readable = 0;  // maps without an error
};

struct RescanResult {
    size_t maps = 0, added = 0, changed = 0, removed = 0;
    double seconds = 0;
    std::vector<CatalogueEntry> gone;  // earlier entries no longer served as they were (changed or removed)
    std::vector<std::string> warnings;  // entries left out that the earlier listing did not leave out
};

class LiveCatalogue {
public:
    LiveCatalogue(std::vector<std::string> roots, std::vector<std::string> gameDirs);

    std::shared_ptr<const Listing> current() const;
    // Lists the roots again (reading only files whose stamp changed) and makes that the current listing.
    // Throws what buildCatalogue throws (a root gone): the current listing then stays.
    RescanResult rescan();
    // The first listing's warnings (entries left out).
    const std::vector<std::string>& warnings() const { return firstWarnings_; }

private:
    const std::vector<std::string> roots_, gameDirs_;
    std::vector<std::string> firstWarnings_;
    mutable std::mutex mutex_;
    std::shared_ptr<const Listing> current_;
    std::mutex rescanning_;  // one rescan at a time (SIGHUP during a timed one)
};

}  // namespace luxel::serve
