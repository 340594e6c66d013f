#pragma once
// Which instruction-set paths run.

namespace luxel {

// Whether the AVX2 loops run (rasterizer, shading, display bytes): on CPUs with AVX2 unless turned off. The
// AVX2 and portable loops give the same bits; the switch exists so tests can compare them.
bool useAvx2();
void allowAvx2(bool allowed);

}  // namespace luxel
