#include "luxel/image/oiio_module.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "luxel/util/error.hpp"

namespace luxel {
namespace fs = std::filesystem;

namespace {

constexpr const char* kModuleFile = "luxel-oiio.so";

std::atomic<const OiioModule*> loaded{nullptr};
std::mutex loading;
std::string loadFailure;  // why the first attempt failed: every later caller gets the same answer

std::vector<fs::path> candidatePaths() {
    if (const char* env = std::getenv("LUXEL_OIIO_MODULE"); env && *env) return {env};
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {kModuleFile};  // left to the loader's own search path
    return {exe.parent_path() / kModuleFile, exe.parent_path().parent_path() / "lib" / "luxel" / kModuleFile};
}

const OiioModule* load(std::string& why) {
    std::string tried;
    for (const fs::path& path : candidatePaths()) {
        std::error_code ec;
        if (path.has_parent_path() && !fs::exists(path, ec)) {
            tried += (tried.empty() ? "" : ", ") + path.string() + " (absent)";
            continue;
        }
        // RTLD_NOW: a module whose luxel symbols the executable does not provide fails here, with the
        // loader's message, not at some later call.
        void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* e = ::dlerror();
            why = "cannot load the OpenImageIO module " + path.string() + ": " + (e ? e : "unknown error");
            return nullptr;
        }
        using Entry = const OiioModule* (*)();
        auto entry = reinterpret_cast<Entry>(::dlsym(handle, kOiioModuleEntry));
        const OiioModule* module = entry ? entry() : nullptr;
        if (!module || module->abi != kOiioModuleAbi) {
            why = "the OpenImageIO module " + path.string() + " is from another luxel build";
            ::dlclose(handle);
            return nullptr;
        }
        return module;  // never unloaded: its libraries' destructors would only slow the exit
    }
    why = "the OpenImageIO module (" + std::string(kModuleFile) + ") is not installed; looked for " + tried;
    return nullptr;
}

}  // namespace

const OiioModule& oiioModule(const std::string& purpose) {
    if (const OiioModule* m = loaded.load(std::memory_order_acquire)) return *m;
    std::lock_guard lock(loading);
    if (const OiioModule* m = loaded.load(std::memory_order_relaxed)) return *m;
    if (loadFailure.empty()) {
        if (const OiioModule* m = load(loadFailure)) {
            loaded.store(m, std::memory_order_release);
            return *m;
        }
    }
    throw UsageError(purpose + " needs OpenImageIO: " + loadFailure);
}

bool oiioModuleLoaded() { return loaded.load(std::memory_order_acquire) != nullptr; }

}  // namespace luxel
