// diffImages / diffImageFiles: OpenImageIO's compare on small images with known differences. OIIO's
// meanerror and rms_error average over every channel value (pixels x channels), maxerror is the largest
// channel difference, nfail / nwarn count pixels with any channel over the threshold.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "luxel/diff/diff.hpp"
#include "luxel/image/image.hpp"
#include "support/test_paths.hpp"

using namespace luxel;

namespace {

Image flat(int w, int h, int c, float v) {
    Image im(w, h, c);
    for (float& x : im.pixels) x = v;
    return im;
}

}  // namespace

TEST_CASE("image diff: identical images are the same", "[diff]") {
    Image a(4, 4, 3);
    for (size_t i = 0; i < a.pixels.size(); ++i) a.pixels[i] = float(i % 7) / 8.0f;
    const ImageDiff d = diffImages(a, a, "view", DiffThresholds{});
    CHECK(d.error.empty());
    CHECK(d.name == "view");
    CHECK(d.width == 4);
    CHECK(d.height == 4);
    CHECK(d.stats.count == 16);
    CHECK(d.stats.meanAbsDisplay == 0);
    CHECK(d.stats.rmsDisplay == 0);
    CHECK(d.stats.maxAbsDisplay == 0);
    CHECK(std::isinf(d.stats.psnrDisplay));
    CHECK(d.stats.overFail == 0);
    CHECK(d.stats.overWarn == 0);
    CHECK(d.verdict == Verdict::Same);
}

TEST_CASE("image diff: one channel of one pixel changed by 0.5", "[diff]") {
    const Image a = flat(4, 4, 3, 0.25f);
    Image b = a;
    b.at(1, 2)[1] = 0.75f;
    ImageDiff d = diffImages(a, b, "view", DiffThresholds{});
    CHECK(d.error.empty());
    CHECK(d.stats.count == 16);
    CHECK(d.stats.overFail == 1);
    CHECK(d.stats.overWarn == 1);
    CHECK(d.stats.overHardFail == 0);
    CHECK(d.stats.maxAbsDisplay == 0.5);
    // 16 pixels x 3 channels = 48 values: mean 0.5 / 48, rms sqrt(0.25 / 48); PSNR with peak 1 (no value over 1).
    CHECK(d.stats.meanAbsDisplay == Approx(0.5 / 48.0));
    CHECK(d.stats.rmsDisplay == Approx(std::sqrt(0.25 / 48.0)));
    CHECK(d.stats.psnrDisplay == Approx(20.0 * std::log10(1.0 / std::sqrt(0.25 / 48.0))));
    // Images are compared as stored: the linear figures are the same numbers.
    CHECK(d.stats.meanAbsLinear == d.stats.meanAbsDisplay);
    CHECK(d.stats.maxAbsLinear == 0.5);
    CHECK(d.verdict == Verdict::Fail);

    DiffThresholds t;
    t.fail = t.warn = 0.6;
    CHECK(diffImages(a, b, "view", t).verdict == Verdict::Same);
    t.warn = 0.4;
    CHECK(diffImages(a, b, "view", t).verdict == Verdict::Warn);
    t.hardFail = 0.45;
    d = diffImages(a, b, "view", t);
    CHECK(d.stats.overHardFail == 1);
    CHECK(d.verdict == Verdict::Fail);
    // 1 of 16 pixels failing is 6.25%: allowed under --fail-percent 10.
    t = DiffThresholds{};
    t.failPercent = 10;
    CHECK(diffImages(a, b, "view", t).verdict == Verdict::Warn);
}

TEST_CASE("image diff: four channels average over four values a pixel", "[diff]") {
    const Image a = flat(4, 4, 4, 0.25f);
    Image b = a;
    b.at(3, 0)[3] = 0.75f;  // alpha
    const ImageDiff d = diffImages(a, b, "view", DiffThresholds{});
    CHECK(d.stats.count == 16);
    CHECK(d.stats.meanAbsDisplay == Approx(0.5 / 64.0));
    CHECK(d.stats.overFail == 1);
}

TEST_CASE("image diff: size or channel mismatch is an error", "[diff]") {
    ImageDiff d = diffImages(flat(4, 4, 3, 0), flat(5, 4, 3, 0), "view", DiffThresholds{});
    CHECK_FALSE(d.error.empty());
    CHECK(d.verdict == Verdict::Fail);
    d = diffImages(flat(4, 4, 3, 0), flat(4, 4, 4, 0), "view", DiffThresholds{});
    CHECK_FALSE(d.error.empty());
    CHECK(d.verdict == Verdict::Fail);
    d = diffImages(Image{}, Image{}, "view", DiffThresholds{});
    CHECK_FALSE(d.error.empty());
    CHECK(d.verdict == Verdict::Fail);
}

TEST_CASE("image diff: files", "[diff]") {
    const std::string dir = test::tempDir("image_diff_files");
    const Image a = flat(4, 4, 3, 0.25f);
    Image b = a;
    b.at(0, 0)[0] = 0.75f;
    writeImage(dir + "/a.png", a);
    writeImage(dir + "/b.png", b);
    writeImage(dir + "/small.png", flat(2, 2, 3, 0.25f));

    ImageDiff d = diffImageFiles(dir + "/a.png", dir + "/a.png", DiffThresholds{});
    CHECK(d.error.empty());
    CHECK(d.verdict == Verdict::Same);

    // 8-bit PNG: 0.25 -> 64 / 255 and 0.75 -> 191 / 255 (round to nearest), 127 / 255 apart.
    d = diffImageFiles(dir + "/a.png", dir + "/b.png", DiffThresholds{});
    CHECK(d.error.empty());
    CHECK(d.a == dir + "/a.png");
    CHECK(d.b == dir + "/b.png");
    CHECK(d.width == 4);
    CHECK(d.stats.count == 16);
    CHECK(d.stats.overFail == 1);
    CHECK(d.stats.maxAbsDisplay == Approx(127.0 / 255.0));
    CHECK(d.stats.meanAbsDisplay == Approx(127.0 / 255.0 / 48.0));
    CHECK(d.verdict == Verdict::Fail);

    d = diffImageFiles(dir + "/a.png", dir + "/small.png", DiffThresholds{});
    CHECK_FALSE(d.error.empty());
    CHECK(d.verdict == Verdict::Fail);

    d = diffImageFiles(dir + "/a.png", dir + "/missing.png", DiffThresholds{});
    CHECK_FALSE(d.error.empty());
    CHECK(d.error.find("missing.png") != std::string::npos);
    CHECK(d.verdict == Verdict::Fail);
}
