// The `luxel` command. Every failure is one line on stderr and exit code 2.
#include <CLI/CLI.hpp>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "luxel/render/map_view.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/sanitizers.hpp"

namespace {

// CLI11's own report is two lines, and for a misspelt command it says only that one is required: name the
// word that is not a command and the commands there are, then where the full usage is.
std::string parseErrorLine(CLI::App& app, const CLI::ParseError& e) {
    std::string commands;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
        commands += (commands.empty() ? "" : ", ") + sub->get_name();
    if (app.get_subcommands().empty()) {
        for (const std::string& word : app.remaining())
            if (!word.empty() && word[0] != '-')
                return "'" + word + "' is not a command (commands: " + commands + ")";
        return "no command given (commands: " + commands + "); luxel --help for usage";
    }
    const CLI::App* sub = app.get_subcommands().front();
    return std::string(e.what()) + " (luxel " + sub->get_name() + " --help for usage)";
}

// The subcommand a command line names: its first word that is neither an option nor --threads' value. Only
// that subcommand's options are built; the word need not be a command (parsing then says what is wrong).
std::string commandWord(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string word = argv[i];
        if (word == "--threads") ++i;
        else if (word.empty() || word[0] != '-') return word;
    }
    return "";
}

int run(int argc, char** argv) {
    luxel::cli::setCommandLine(argc, argv);
    CLI::App app{"luxel: renders compiled game maps (Quake 3, Quake 2, Source) from their stored lighting"};
    app.require_subcommand(1);
    app.fallthrough();  // --threads is accepted after the subcommand too
    int threads = 0;
    app.add_option("--threads", threads, "worker threads (default: all cores)")->check(CLI::Range(1, 1024));

    // Subcommands only record what to do; it runs after parsing, once --threads is known.
    luxel::cli::Action action;
    const std::string named = commandWord(argc, argv);
    for (const luxel::cli::Command* command :
         {&luxel::cli::kInfoCommand, &luxel::cli::kRenderCommand, &luxel::cli::kLightmapsCommand,
          &luxel::cli::kBenchCommand, &luxel::cli::kGridCommand, &luxel::cli::kRebakeCommand,
          &luxel::cli::kBakeCommand, &luxel::cli::kBatchCommand, &luxel::cli::kListCommand,
          &luxel::cli::kDiffCommand, &luxel::cli::kServeCommand}) {
        CLI::App* sub = app.add_subcommand(command->name, command->description);
        if (named == command->name) command->addOptions(sub, action);
    }
    app.set_version_flag("--version", luxel::luxelVersionString());

    try {
        app.parse(argc, argv);
        std::unique_ptr<tbb::global_control> threadLimit;
        if (threads > 0)
            threadLimit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                                size_t(threads));
        return action ? action() : 0;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
        std::cerr << "luxel: error: " << parseErrorLine(app, e) << "\n";
        return 2;
    } catch (const luxel::DecodeError& e) {
        std::cerr << "luxel: error: " << e.what() << "\n";
        return 2;
    } catch (const luxel::UsageError& e) {
        std::cerr << "luxel: error: " << e.what() << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "luxel: error: out of memory\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "luxel: internal error: " << e.what() << "\n";
        return 3;
    }
}

}  // namespace

int main(int argc, char** argv) {
    // libzip converts every archive entry's DOS time with mktime, and glibc's mktime re-reads /etc/localtime
    // (a stat per call) while TZ is unset: 7,500 stats to open OpenArena's pk3s. The same zone named in TZ is
    // read once. Set before any thread starts.
    setenv("TZ", ":/etc/localtime", 0);
    const int code = run(argc, argv);
    // Everything is written by now. The rest of an ordinary exit frees the process's caches (mounted games,
    // textures) and runs the destructors of the ~260 libraries OpenImageIO brings in: ~8 ms of a cold
    // thumbnail's ~90 past start-up, and nothing anyone sees. Sanitized builds exit normally, so that leak
    // checks still run.
#if LUXEL_ASAN
    return code;
#endif
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
}
