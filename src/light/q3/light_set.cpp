// quake3Lights: the order q3map2's LightWorld makes lights in (CreateEntityLights, then CreateSurfaceLights).
#include <algorithm>

#include "light_parts.hpp"
#include "luxel/util/text.hpp"

namespace luxel {

Quake3LightSet quake3Lights(const World& world, const std::vector<Q3LightShader>& shaders, std::string_view mapText,
                            const Quake3LightSettings& settings) {
    using namespace q3light;
    Quake3LightSet set;
    Notes notes;
    Jitter jitter(settings.seed);

    const Entity* worldspawn = nullptr;
    for (const Entity& e : world.entities)
        if (equalsIgnoreCase(classnameOf(e), "worldspawn")) {
            worldspawn = &e;
            break;
        }
    if (!worldspawn && !world.entities.empty()) worldspawn = &world.entities.front();  // q3map2: entities[0]
    readWorldspawn(worldspawn, set);
    if (worldspawn && keyValue(*worldspawn, "_floodlight"))
        notes.add("worldspawn _floodlight (q3map2 floodlighting) is not a light and is left out");

    // The compiled map's entities, then (unless _keepLights) the source's light entities: q3map2 strips
    // lights from the compiled map and LoadMapFile(onlyLights) reads them back.
    std::vector<Entity> sourceLights;
    if (!(worldspawn && boolKey(*worldspawn, "_keepLights")) && !mapText.empty()) {
        for (Entity& e : parseQuake3MapEntities(mapText, world.file.empty() ? "map source" : world.file + " source"))
            if (startsWithIgnoreCase(classnameOf(e), "light")) sourceLights.push_back(std::move(e));
    }
    std::vector<const Entity*> entities;
    for (const Entity& e : world.entities) entities.push_back(&e);
    for (const Entity& e : sourceLights) entities.push_back(&e);
    addEntityLights(entities, settings, jitter, set, notes);

    // Sky shaders' suns and sky lights, each shader once, in the order its first surface comes.
    const bool noShaderSun = worldspawn && boolKey(*worldspawn, "_noshadersun");
    std::vector<bool> done(shaders.size(), false);
    for (const Surface& surf : world.surfaces) {
        if (surf.material < 0 || size_t(surf.material) >= shaders.size() || done[size_t(surf.material)]) continue;
        done[size_t(surf.material)] = true;
        const Q3LightShader& sh = shaders[size_t(surf.material)];
        std::vector<Light> made;
        if (!noShaderSun)
            for (const Q3Shader::Sun& sun : sh.suns)
                for (Light& l : quake3Suns(sun, sh.lightStyle, settings)) made.push_back(std::move(l));
        for (const Q3Shader::SkyLight& sky : sh.skyLights) {
            if (sky.iterations > settings.maxSkyIterations)
                notes.add("q3map_skyLight iterations above " + std::to_string(settings.maxSkyIterations) + " lowered to it");
            for (Light& l : quake3SkyLights(sky, sh.color, sh.skyProbes, sh.lightStyle, settings)) made.push_back(std::move(l));
        }
        for (Light& l : made) {
            if (set.lights.size() >= settings.maxLights) break;
            set.lights.push_back(std::move(l));
            ++set.sunLights;
        }
        if (std::any_of(sh.suns.begin(), sh.suns.end(), [](const auto& s) { return s.samples > 1 && s.deviance > 0; }))
            notes.add("jittered sun samples (q3map_sunExt) use luxel's own random sequence");
    }

    addSurfaceLights(world, shaders, settings, set, notes);
    set.notes = std::move(notes.list);
    return set;
}

}  // namespace luxel
