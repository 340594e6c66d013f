// Camera specs resolved with fallbacks, so a batch of thumbnails gets a picture of every map.
#include <fmt/format.h>

#include "camera_parts.hpp"
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
        std::optional<Camera> c = camera::overview(world, width, height, fovX);
        if (!c)
            throw UsageError(fmt::format("{}map has no drawn geometry and no world bounds to frame a camera on",
                                         world.file.empty() ? std::string() : world.file + ": "));
        r.camera = *c;
        r.used = "overview";
    };
    auto useBest = [&] {
        if (std::optional<BestCamera> best = bestCamera(world, geometry, width, height, fovX)) {
            r.camera = best->camera;
            r.used = "best";
            r.score = best->score.score;
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
