// Quake 1 and Half-Life lights for the baker, as ericw-tools' light reads them: the light entities and
// worldspawn suns (ericw_lights.cpp) and its rules (ericw_rules.cpp).
#include "../format_lights.hpp"

#include <fmt/format.h>

#include "luxel/light/ericw_lights.hpp"
#include "surface_templates.hpp"
#include "luxel/light/q2_lights.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

MapLights quake1MapLights(const World& world, const MapSource& source, const MapLightOptions& options) {
    const EricwGame game = world.format == MapFormat::HalfLife ? EricwGame::HalfLife : EricwGame::Quake1;
    std::vector<std::string> problems, templateNotes;
    // The map's lights, then those its _surface templates make (read with the map's worldspawn settings).
    std::vector<Entity> entities = world.entities;
    for (Entity& e : surfaceTemplateLights(world, templateNotes)) entities.push_back(std::move(e));
    MapLights out = withSkyDomes(ericwLights(entities, game, &problems), quake2LightArrivals);
    for (std::string& n : templateNotes) out.notes.push_back(std::move(n));
    out.notes.insert(out.notes.begin(), "light entities read as ericw-tools' light reads them");
    for (std::string& p : problems) out.notes.push_back(std::move(p));
    ericwRules(world, source, options, out);
    noteIfNoLights(out);
    return out;
}

}  // namespace luxel
