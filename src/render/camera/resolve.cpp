// Camera specs resolved with fallbacks, so a batch of thumbnails gets a picture of every map.
#include <fmt/format.h>

#include "parts.hpp"
#include "luxel/render/best_camera.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

ResolvedCamera resolveCamera(const World& world, const Geometry& geometry, const std::string& spec, int width,
                             int height, float fov) {
    using camera::Spec;
    const Spec parsed = camera::parseSpec(spec);
    const float fovX = horizontalFov(world, fov, width, height);
    camera::baseCamera(width, height, fovX);  // a bad size or FOV is the caller's error, not a fallback

    ResolvedCamera r;
    r.spec = spec;
    auto useOverview = [&] {
        const camera::OverviewCandidates candidates = camera::overviewCandidates(world, width, height, fovX);
        const auto& groups = candidates.groups;
        if (groups.empty())
            throw UsageError(fmt::format("{}map has no drawn geometry and no world bounds to frame a camera on",
                                         world.file.empty() ? std::string() : world.file + ": "));
        // overview() as it is when it covers enough of the frame; else the pitch whose closest view covers most,
        // then the yaw at that pitch (half the renders of trying all). Ties keep the earlier camera.
        auto most = [](const std::vector<double>& v) { return size_t(std::max_element(v.begin(), v.end()) - v.begin()); };
        r.camera = candidates.camera(0, 0);
        r.used = "overview";
        const double first = camera::coverage(world, geometry, {r.camera}).front();
        if (first >= camera::kOverviewCoverage) return;
        // Each group's first camera is measured once: the first group's is the one above.
        std::vector<Camera> firsts{r.camera};
        for (size_t g = 1; g < groups.size(); ++g) firsts.push_back(candidates.camera(g, 0));
        std::vector<double> firstCoverage = camera::coverage(world, geometry, {firsts.begin() + 1, firsts.end()});
        firstCoverage.insert(firstCoverage.begin(), first);
        const size_t chosen = most(firstCoverage);
        std::vector<Camera> group{firsts[chosen]};
        for (size_t k = 1; k < groups[chosen].size(); ++k) group.push_back(candidates.camera(chosen, k));
        std::vector<double> groupCoverage = camera::coverage(world, geometry, {group.begin() + 1, group.end()});
        groupCoverage.insert(groupCoverage.begin(), firstCoverage[chosen]);
        r.camera = group[most(groupCoverage)];
    };
    auto useBest = [&] {
        std::optional<BestCamera> best = bestCamera(world, geometry, width, height, fovX);
        if (best && best->origin == "overview") {  // as an overview: sky hidden, the most covering framing
            r.notes.push_back("no view from the map's spawn points, items or open space is a fair thumbnail; used overview");
            useOverview();
            return;
        }
        if (best) {
            r.camera = best->camera;
            r.used = "best";
            r.score = best->score.score;
            r.alternatives = std::move(best->alternatives);
            return;
        }
        r.notes.push_back("no view from the map's spawn points, items or open space shows anything; used overview");
        useOverview();
    };
    auto useSpawn = [&](size_t index) {
        const size_t count = camera::countViewpoints(world, Viewpoint::Kind::Spawn);
        if (index < count) {
            const Viewpoint& v = *camera::viewpoint(world, Viewpoint::Kind::Spawn, index);
            r.camera = camera::baseCamera(width, height, fovX);
            r.camera.position = v.position;
            r.camera.angles = v.angles;
            r.used = fmt::format("spawn:{}", index);
            return;
        }
        r.notes.push_back(count == 0 ? fmt::format("map has no spawn points; used best")
                                     : fmt::format("map has {} spawn point{} (spawn:0 to spawn:{}), {} asked; used best",
                                                   count, count == 1 ? "" : "s", count - 1, spec));
        useBest();
    };

    switch (parsed.kind) {
        case Spec::Kind::Spawn: useSpawn(parsed.index); break;
        case Spec::Kind::Intermission:
            if (const Viewpoint* v = camera::viewpoint(world, Viewpoint::Kind::Intermission, 0)) {
                r.camera = camera::baseCamera(width, height, fovX);
                r.camera.position = v->position;
                r.camera.angles = v->angles;
                r.used = "intermission";
            } else if (camera::countViewpoints(world, Viewpoint::Kind::Spawn) > 0) {
                r.notes.push_back("map has no intermission camera; used spawn:0");
                useSpawn(0);
            } else {
                r.notes.push_back("map has no intermission camera and no spawn points; used best");
                useBest();
            }
            break;
        case Spec::Kind::Overview: useOverview(); break;
        case Spec::Kind::Best: useBest(); break;
    }
    return r;
}

}  // namespace luxel
