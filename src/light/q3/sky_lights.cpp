// Suns and sky light (q3map2 light.cpp CreateSunLight, CreateSkyLights, SkyProbes::sampleColour).
#include <algorithm>
#include <cmath>

#include "light_parts.hpp"

namespace luxel {

namespace {

constexpr double kDegToRad = 3.14159265358979323846 / 180.0;

// One q3map2 sun as a Light: parallel light travelling opposite to `toSun`, strength photons * skyScale,
// no envelope or cutoff (SetupEnvelopes special-cases suns).
Light sunLight(Vec3 toSun, Vec3 color, float photons, int style, const Quake3LightSettings& s) {
    Light l;
    l.kind = Light::Kind::Sun;
    l.direction = -toSun;
    l.color = color;
    l.intensity = photons * s.skyScale * q3light::kValueToLuxel;
    l.style = uint8_t(std::clamp(style, 0, 254));
    return l;
}

}  // namespace

std::vector<Light> quake3Suns(const Q3Shader::Sun& sun, int style, const Quake3LightSettings& s) {
    std::vector<Light> out;
    const int samples = std::clamp(sun.samples, 1, std::max(1, s.maxSamples));
    const Vec3 color = q3light::colorNormalize(sun.color);
    const float photons = sun.intensity / float(samples);
    if (!std::isfinite(photons) || !isFinite(color)) return out;
    const double angle0 = double(sun.degrees) * kDegToRad, elevation0 = double(sun.elevation) * kDegToRad;
    const Vec3 toSun = q3light::spherical(angle0, elevation0);
    const double deviance = std::isfinite(sun.deviance) ? std::fabs(double(sun.deviance)) * kDegToRad : 0.0;
    q3light::Jitter jitter(s.seed ^ 0x5u);
    out.reserve(size_t(samples));
    for (int i = 0; i < samples; ++i) {
        Vec3 dir = toSun;
        if (i > 0) {
            // "jitter the angles (loop to keep random sample within sun.deviance steridians)"
            const double d = std::hypot(double(toSun.x), double(toSun.y));
            double angle = std::atan2(double(toSun.y), double(toSun.x));
            double elevation = std::atan2(double(toSun.z), d);
            double da = 0, de = 0;
            for (int tries = 0; tries < 64; ++tries) {
                da = (jitter.next() * 2.0 - 1.0) * deviance;
                de = (jitter.next() * 2.0 - 1.0) * deviance;
                if (da * da + de * de <= deviance * deviance) break;
            }
            dir = q3light::spherical(angle + da, elevation + de);
        }
        out.push_back(sunLight(dir, color, photons, style, s));
        out.back().source = "sun";
    }
    return out;
}

std::vector<Light> quake3SkyLights(const Q3Shader::SkyLight& sky, Vec3 color,
                                   std::span<const Q3LightShader::SkyProbe> probes, int style,
                                   const Quake3LightSettings& s) {
    std::vector<Light> out;
    // "dummy check"
    if (!(sky.value > 0) || !std::isfinite(sky.value) || sky.iterations < 2 || sky.horizonMin > sky.horizonMax) return out;
    const int iterations = std::min(sky.iterations, std::max(2, s.maxSkyIterations));
    const int horizonMin = std::clamp(sky.horizonMin, -90, 90), horizonMax = std::clamp(sky.horizonMax, -90, 90);
    const bool sample = sky.sampleColor && !probes.empty();
    // Probes are limited to the upper hemisphere when the sky starts at the horizon, the lower one when it
    // ends there.
    const Vec3 limit = horizonMin >= 0 ? Vec3{0, 0, 1} : horizonMax <= 0 ? Vec3{0, 0, -1} : Vec3{};

    const bool doBottom = horizonMin == -90, doTop = horizonMax == 90;
    const int angleSteps = (iterations - 1) * 4;
    const float eleStep = 90.0f / float(iterations);
    const float elevationStep = float(double(eleStep) * kDegToRad);
    const float angleStep = float(double(360.0f / float(angleSteps)) * kDegToRad);
    const float eleMin = doBottom ? float(-90 + eleStep * 1.5) : float(horizonMin + eleStep * 0.5);
    const float eleMax = doTop ? float(90 - eleStep * 1.5) : float(horizonMax - eleStep * 0.5);
    const int elevationSteps = int(std::lrint(1 + std::max(0.0f, (eleMax - eleMin) / eleStep)));
    const int numSuns = angleSteps * elevationSteps + int(doBottom) + int(doTop);
    const float photons = float(sky.value / numSuns * std::max(0.25, (horizonMax - horizonMin) / 90.0));

    std::vector<Vec3> dirs;
    dirs.reserve(size_t(numSuns));
    float elevation = float(std::min(double(eleMin), double(horizonMax)) * kDegToRad);
    float angle = 0;
    for (int i = 0; i < elevationSteps; ++i) {
        for (int j = 0; j < angleSteps; ++j) {
            dirs.push_back(q3light::spherical(angle, elevation));
            angle += angleStep;
        }
        elevation += elevationStep;
        angle += angleStep / float(elevationSteps);
    }
    if (doBottom) dirs.push_back({0, 0, -1});
    if (doTop) dirs.push_back({0, 0, 1});

    std::vector<Vec3> colors(dirs.size(), color);
    if (sample) {
        // sampleColour: the probes facing the direction (and the limit), weighted by their cosine; then all
        // suns' colours divided by the largest channel among them.
        float top = 0;
        for (size_t k = 0; k < dirs.size(); ++k) {
            Vec3 sum;
            float weight = 0;
            for (const auto& p : probes) {
                const float c = dot(p.normal, dirs[k]);
                if (c > 0 && dot(p.normal, limit) >= 0) {
                    sum += p.color * c;
                    weight += c;
                }
            }
            colors[k] = weight != 0 ? sum / weight : sum;
            top = std::max({top, colors[k].x, colors[k].y, colors[k].z});
        }
        if (top != 0)
            for (Vec3& c : colors) c = c / top;
    }
    out.reserve(dirs.size());
    for (size_t k = 0; k < dirs.size(); ++k) {
        out.push_back(sunLight(dirs[k], colors[k], photons, style, s));
        out.back().source = "sky light";
    }
    return out;
}

}  // namespace luxel
