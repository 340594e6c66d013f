#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace luxel::cli {

// The work a parsed subcommand asks for; returns the exit code.
using Action = std::function<int()>;

// Each registers one subcommand; when it is chosen, its parse callback sets `action`.
void addInfoCommand(CLI::App& app, Action& action);
void addRenderCommand(CLI::App& app, Action& action);
void addLightmapsCommand(CLI::App& app, Action& action);
void addBenchCommand(CLI::App& app, Action& action);
void addGridCommand(CLI::App& app, Action& action);
void addRebakeCommand(CLI::App& app, Action& action);
void addBakeCommand(CLI::App& app, Action& action);
void addBatchCommand(CLI::App& app, Action& action);
void addListCommand(CLI::App& app, Action& action);
void addDiffCommand(CLI::App& app, Action& action);
void addServeCommand(CLI::App& app, Action& action);

}  // namespace luxel::cli
