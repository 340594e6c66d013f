// Quake 2's lights for the baker: the light entities as qrad3 or ericw-tools reads them.
#include "../format_lights.hpp"

#include <fmt/format.h>

#include "luxel/light/q2_lights.hpp"

namespace luxel {

// Quake 2: the light entities as the chosen (or guessed) compiler reads them.
MapLights quake2MapLights(const World& world, const MapSource& source, const MapLightOptions& options) {
    std::string why;
    const Q2LightCompiler guess = quake2CompilerOf(world.entities, &why);
    const Q2LightCompiler compiler = options.quake2Compiler.value_or(guess);
    std::vector<std::string> problems;
    MapLights out = withSkyDomes(quake2Lights(world.entities, compiler, &problems), quake2LightArrivals);
    out.quake2Compiler = compiler;
    const char* name = compiler == Q2LightCompiler::Qrad3 ? "qrad3" : "ericw-tools";
    out.notes.insert(out.notes.begin(), options.quake2Compiler
                                            ? fmt::format("light entities read as {} reads them (--compiler)", name)
                                            : fmt::format("light entities read as {} reads them ({})", name, why));
    for (std::string& p : problems) out.notes.push_back(std::move(p));
    if (compiler == Q2LightCompiler::Ericw) ericwRules(world, source, options, out);
    noteIfNoLights(out);
    return out;
}

}  // namespace luxel
