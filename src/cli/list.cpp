// `luxel list INPUT...`: the maps that inputs hold (archives, folders, game folders, globs, scene files), as
// batch would render them.
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "luxel/scene/work_list.hpp"

namespace luxel::cli {
namespace {

struct ListArgs {
    std::vector<std::string> inputs;
    bool json = false;
};

int runList(const ListArgs& args) {
    std::vector<MapJob> jobs;
    for (const std::string& input : args.inputs) {
        if (isSceneFile(input)) {
            for (MapJob& job : expandScene(loadScene(input))) jobs.push_back(std::move(job));
            continue;
        }
        for (MapLocation& loc : expandMapInput(input, SceneMapInput::Kind::Auto, "'" + input + "'")) {
            MapJob job;
            job.source = loc.spec;
            job.name = loc.name;
            job.error = loc.error;
            jobs.push_back(std::move(job));
        }
    }
    finalizeWorkList(jobs);
    if (args.json) {
        nlohmann::ordered_json j = nlohmann::ordered_json::array();
        for (const MapJob& job : jobs) {
            nlohmann::ordered_json m = {{"name", job.name}, {"source", job.source}};
            if (!job.error.empty()) m["error"] = job.error;
            j.push_back(m);
        }
        std::cout << j.dump(2) << "\n";
    } else {
        for (const MapJob& job : jobs)
            std::cout << job.name << "\t" << job.source << (job.error.empty() ? "" : "\t(unreadable: " + job.error + ")")
                      << "\n";
    }
    return 0;
}

}  // namespace

static void addListOptions(CLI::App* sub, Action& action) {
    auto args = std::make_shared<ListArgs>();
    sub->add_option("inputs", args->inputs, "maps, archives (.pk3/.zip/.pak), folders, game folders, globs, scene files")
        ->required();
    sub->add_flag("--json", args->json, "print a JSON array");
    sub->callback([args, &action] { action = [args] { return runList(*args); }; });
}

const Command kListCommand{"list", "List the maps inputs hold: name and where it is (tab-separated)", addListOptions};

}  // namespace luxel::cli
