// The decoder's small format helpers, against hand-computed values.
#include <catch2/catch.hpp>

#include "../src/bsp/source/format.hpp"

using namespace luxel;

TEST_CASE("vbsp format: ColorRGBExp32 is c * 2^exponent / 255 with a signed exponent", "[vbsp]") {
    const uint8_t zero[4] = {255, 128, 0, 0};
    const Vec3 a = vbsp::colorRGBExp32(zero);
    CHECK(a.x == Approx(1.0));
    CHECK(a.y == Approx(128.0 / 255.0));
    CHECK(a.z == 0.0f);
    const uint8_t minus2[4] = {200, 100, 50, 0xfe};  // exponent -2: a quarter
    const Vec3 b = vbsp::colorRGBExp32(minus2);
    CHECK(b.x == Approx(50.0 / 255.0));
    CHECK(b.y == Approx(25.0 / 255.0));
    CHECK(b.z == Approx(12.5 / 255.0));
    const uint8_t plus3[4] = {1, 2, 3, 3};  // exponent 3: eight times
    const Vec3 c = vbsp::colorRGBExp32(plus3);
    CHECK(c.x == Approx(8.0 / 255.0));
    CHECK(c.z == Approx(24.0 / 255.0));
    const uint8_t tiny[4] = {255, 255, 255, 0x80};  // exponent -128 stays finite and non-negative
    const Vec3 d = vbsp::colorRGBExp32(tiny);
    CHECK((std::isfinite(d.x) && d.x >= 0 && d.x < 1e-30f));
}

TEST_CASE("vbsp format: lump names follow bspfile.h", "[vbsp]") {
    CHECK(std::string(vbsp::kLumpNames[vbsp::kLighting]) == "lighting");
    CHECK(std::string(vbsp::kLumpNames[vbsp::kDispTris]) == "disp_tris");
    CHECK(std::string(vbsp::kLumpNames[vbsp::kLeafAmbientLighting]) == "leaf_ambient_lighting");
    CHECK(std::string(vbsp::kLumpNames[vbsp::kFacesHdr]) == "faces_hdr");
    CHECK(std::string(vbsp::kLumpNames[63]) == "disp_multiblend");
    CHECK(vbsp::kStaticPropLumpId == 0x73707270u);  // 'sprp'
}
