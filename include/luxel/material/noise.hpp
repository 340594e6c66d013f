#pragma once
// Quake 3's noise (ioquake3 tr_noise.c R_NoiseGet4f): 4-D value noise over a 256-entry table of values in
// [-1, 1] and a 256-entry permutation, both filled from the C library's rand(). The engine seeds rand() from
// the clock at start-up (Com_InitRand), so its noise differs from run to run; luxel fills the tables from
// glibc's rand() sequence of an unseeded process (seed 1), so frames are the same bytes on every run.
namespace luxel {

// Trilinear in x, y, z and linear in t between the table values at the integer lattice points.
float engineNoise(float x, float y, float z, double t);

}  // namespace luxel
