#pragma once
// Embree 3, loaded with dlopen the first time a ray scene is made. Linked directly, its library and the 15,000
// relocations it brings were paid by every process start (1.2 ms of `luxel --version`'s 6), though only the
// commands that trace rays (bake, rebake, diff's ray passes) use it.
#include <embree3/rtcore.h>

namespace luxel {

// The Embree functions ray_scene.cpp calls, resolved from libembree3.so.3 (rtcInitIntersectContext is inline in
// Embree's header, so not among them).
struct EmbreeFunctions {
    decltype(&::rtcNewDevice) NewDevice;
    decltype(&::rtcReleaseDevice) ReleaseDevice;
    decltype(&::rtcGetDeviceError) GetDeviceError;
    decltype(&::rtcNewScene) NewScene;
    decltype(&::rtcReleaseScene) ReleaseScene;
    decltype(&::rtcSetSceneFlags) SetSceneFlags;
    decltype(&::rtcSetSceneBuildQuality) SetSceneBuildQuality;
    decltype(&::rtcCommitScene) CommitScene;
    decltype(&::rtcNewGeometry) NewGeometry;
    decltype(&::rtcReleaseGeometry) ReleaseGeometry;
    decltype(&::rtcSetNewGeometryBuffer) SetNewGeometryBuffer;
    decltype(&::rtcSetGeometryMask) SetGeometryMask;
    decltype(&::rtcSetGeometryUserData) SetGeometryUserData;
    decltype(&::rtcSetGeometryOccludedFilterFunction) SetGeometryOccludedFilterFunction;
    decltype(&::rtcCommitGeometry) CommitGeometry;
    decltype(&::rtcAttachGeometry) AttachGeometry;
    decltype(&::rtcIntersect1) Intersect1;
    decltype(&::rtcIntersect16) Intersect16;
    decltype(&::rtcOccluded1) Occluded1;
    decltype(&::rtcOccluded16) Occluded16;
};

// Loads the library once (thread-safe); throws UsageError naming the library and the loader's reason when it
// or one of the functions is missing.
const EmbreeFunctions& embree();

}  // namespace luxel
