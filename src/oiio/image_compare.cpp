// Image comparison: OpenImageIO's ImageBufAlgo::compare (the engine behind idiff) turned into DiffStats.
#include <OpenImageIO/imagebuf.h>
#include <OpenImageIO/imagebufalgo.h>

#include <cmath>
#include <limits>
#include <string>

#include "luxel/diff/diff.hpp"
#include "module_parts.hpp"

namespace luxel::oiio {

namespace {

std::string shape(const OIIO::ImageSpec& s) {
    return std::to_string(s.width) + "x" + std::to_string(s.height) + " with " + std::to_string(s.nchannels) +
           " channels";
}

ImageDiff failed(ImageDiff d, std::string error) {
    d.error = std::move(error);
    d.verdict = Verdict::Fail;
    return d;
}

// Compares two loaded images. Values are compared as stored (no look, no colour conversion), so the
// linear and display figures are the same numbers. A value is a pixel; it differs by its largest channel
// difference, which is what compare's nwarn / nfail count.
ImageDiff compareBuffers(const OIIO::ImageBuf& A, const OIIO::ImageBuf& B, ImageDiff d, const DiffThresholds& t) {
    const OIIO::ImageSpec &sa = A.spec(), &sb = B.spec();
    d.width = sa.width;
    d.height = sa.height;
    if (sa.width != sb.width || sa.height != sb.height || sa.depth != sb.depth || sa.nchannels != sb.nchannels)
        return failed(d, "the images differ in size: " + shape(sa) + " vs " + shape(sb));
    if (sa.width <= 0 || sa.height <= 0 || sa.nchannels <= 0) return failed(d, "empty image (" + shape(sa) + ")");

    // OIIO 2.4's compare sets `error` whenever a pixel fails (it passes on compare_'s "no failures" as
    // success); a real error (an unsupported pixel type) also leaves a message on A.
    auto realError = [&](const OIIO::ImageBufAlgo::CompareResults& r) { return r.error && A.has_error(); };
    const auto r = OIIO::ImageBufAlgo::compare(A, B, float(t.fail), float(t.warn));
    if (realError(r)) return failed(d, "comparison failed: " + A.geterror());
    DiffStats& s = d.stats;
    s.count = size_t(sa.image_pixels());
    // meanerror and rms_error average over every channel value (pixels x channels); maxerror is the
    // largest single channel difference.
    s.meanAbsDisplay = s.meanAbsLinear = r.meanerror;
    s.rmsDisplay = s.rmsLinear = r.rms_error;
    s.maxAbsDisplay = s.maxAbsLinear = r.maxerror;
    // compare's PSNR is 20 log10(peak / rms) with peak the larger of 1 and the largest value found (HDR);
    // equal images give rms 0, taken as infinity rather than whatever log10 of a division by zero gives.
    s.psnrDisplay = r.rms_error > 0 ? r.PSNR : std::numeric_limits<double>::infinity();
    s.overFail = size_t(r.nfail);
    s.overWarn = size_t(r.nwarn);
    if (std::isfinite(t.hardFail)) {
        // Pixels over the hard limit: the same comparison with the limit as its failure threshold.
        const auto h = OIIO::ImageBufAlgo::compare(A, B, float(t.hardFail), float(t.hardFail));
        if (realError(h)) return failed(d, "comparison failed: " + A.geterror());
        s.overHardFail = size_t(h.nfail);
    }
    d.verdict = verdictOf(s, t);
    return d;
}

}  // namespace

ImageDiff diffImageFiles(const std::string& a, const std::string& b, const DiffThresholds& thresholds) {
    ImageDiff d;
    d.name = a;  // callers comparing folders or views put the relative path / view name here
    d.a = a;
    d.b = b;
    OIIO::ImageBuf A(a), B(b);
    // Read in full now (force) so a bad file is reported here, not in the middle of the comparison.
    if (!A.read(0, 0, true)) return failed(d, "cannot read " + a + ": " + A.geterror());
    if (!B.read(0, 0, true)) return failed(d, "cannot read " + b + ": " + B.geterror());
    return compareBuffers(A, B, std::move(d), thresholds);
}

ImageDiff diffImages(const Image& a, const Image& b, const std::string& name, const DiffThresholds& thresholds) {
    ImageDiff d;
    d.name = name;
    d.a = name + " (A)";
    d.b = name + " (B)";
    auto bad = [](const Image& im) {
        return im.width <= 0 || im.height <= 0 || im.channels <= 0 ||
               im.pixels.size() != size_t(im.width) * size_t(im.height) * size_t(im.channels);
    };
    if (bad(a) || bad(b)) {
        d.width = a.width;
        d.height = a.height;
        return failed(d, "empty or malformed image: " + std::to_string(a.width) + "x" + std::to_string(a.height) +
                             "x" + std::to_string(a.channels) + " vs " + std::to_string(b.width) + "x" +
                             std::to_string(b.height) + "x" + std::to_string(b.channels));
    }
    // Wrapped, not copied. ImageBuf's wrapping constructor takes a non-const pointer; compare only reads.
    const OIIO::ImageBuf A(OIIO::ImageSpec(a.width, a.height, a.channels, OIIO::TypeDesc::FLOAT),
                           const_cast<float*>(a.pixels.data()));
    const OIIO::ImageBuf B(OIIO::ImageSpec(b.width, b.height, b.channels, OIIO::TypeDesc::FLOAT),
                           const_cast<float*>(b.pixels.data()));
    return compareBuffers(A, B, std::move(d), thresholds);
}

}  // namespace luxel::oiio
