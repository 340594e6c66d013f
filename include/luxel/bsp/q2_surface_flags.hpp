#pragma once
// Quake 2 texinfo surface flags (q_shared.h SURF_*), as Material::nativeSurfaceFlags holds them for Quake 2 maps.
// The decoder, the material loader and the light code all read them, so they are spelled once, here.
#include <cstdint>

namespace luxel::q2flags {

inline constexpr uint32_t kSurfLight = 0x1, kSurfSky = 0x4, kSurfWarp = 0x8, kSurfTrans33 = 0x10,
                          kSurfTrans66 = 0x20, kSurfFlowing = 0x40, kSurfNoDraw = 0x80, kSurfHint = 0x100,
                          kSurfSkip = 0x200;
inline constexpr uint32_t kSurfAlphaTest = 0x2000000;  // the 2023 re-release's fences

}  // namespace luxel::q2flags
