#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace luxel::cli {

// The work a parsed subcommand asks for; returns the exit code.
using Action = std::function<int()>;

// One subcommand: its name and one-line description, which `luxel --help` lists, and what adds its options,
// which only the subcommand a command line names is given: building every subcommand's options took 0.6 ms of
// each process's start. When the subcommand is chosen, its parse callback sets `action`.
struct Command {
    const char* name;
    const char* description;
    void (*addOptions)(CLI::App* sub, Action& action);
};

extern const Command kInfoCommand, kRenderCommand, kLightmapsCommand, kBenchCommand, kGridCommand, kRebakeCommand,
    kBakeCommand, kBatchCommand, kListCommand, kDiffCommand, kServeCommand;

}  // namespace luxel::cli
