#include "embree_library.hpp"

#include <dlfcn.h>

#include <string>

#include "luxel/util/error.hpp"

namespace luxel {

namespace {

constexpr const char* kLibrary = "libembree3.so.3";

EmbreeFunctions load() {
    void* library = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);  // kept for the process's life
    if (!library) {
        const char* why = ::dlerror();
        throw UsageError(std::string("ray queries need Embree 3: ") + kLibrary + " could not be loaded (" +
                         (why ? why : "no reason given") + "; Debian package libembree3-3)");
    }
    EmbreeFunctions f{};
    auto resolve = [&](auto& slot, const char* name) {
        slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(::dlsym(library, name));
        if (!slot) throw UsageError(std::string("ray queries need Embree 3: ") + kLibrary + " has no " + name);
    };
    resolve(f.NewDevice, "rtcNewDevice");
    resolve(f.ReleaseDevice, "rtcReleaseDevice");
    resolve(f.GetDeviceError, "rtcGetDeviceError");
    resolve(f.NewScene, "rtcNewScene");
    resolve(f.ReleaseScene, "rtcReleaseScene");
    resolve(f.SetSceneFlags, "rtcSetSceneFlags");
    resolve(f.SetSceneBuildQuality, "rtcSetSceneBuildQuality");
    resolve(f.CommitScene, "rtcCommitScene");
    resolve(f.NewGeometry, "rtcNewGeometry");
    resolve(f.ReleaseGeometry, "rtcReleaseGeometry");
    resolve(f.SetNewGeometryBuffer, "rtcSetNewGeometryBuffer");
    resolve(f.SetGeometryMask, "rtcSetGeometryMask");
    resolve(f.SetGeometryUserData, "rtcSetGeometryUserData");
    resolve(f.SetGeometryOccludedFilterFunction, "rtcSetGeometryOccludedFilterFunction");
    resolve(f.CommitGeometry, "rtcCommitGeometry");
    resolve(f.AttachGeometry, "rtcAttachGeometry");
    resolve(f.Intersect1, "rtcIntersect1");
    resolve(f.Intersect16, "rtcIntersect16");
    resolve(f.Occluded1, "rtcOccluded1");
    resolve(f.Occluded16, "rtcOccluded16");
    return f;
}

}  // namespace

const EmbreeFunctions& embree() {
    static const EmbreeFunctions functions = load();  // a failed load throws, and the next call tries again
    return functions;
}

}  // namespace luxel
