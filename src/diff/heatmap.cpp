// Heatmaps of a lightmap change: A's style-0 pages repainted with heat colours (a dimmed greyscale of A,
// tinted warm where B is brighter and cool where it is darker), then drawn with the ordinary renderer in
// lightmap mode with the linear look, which writes page values unchanged.
#include "luxel/diff/heatmap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "luxel/geometry/geometry.hpp"
#include "luxel/image/image.hpp"
#include "luxel/image/text.hpp"
#include "luxel/light/light_grid.hpp"
#include "luxel/light/styles.hpp"
#include "luxel/render/camera.hpp"
#include "luxel/render/look.hpp"
#include "luxel/render/render.hpp"
#include "luxel/util/error.hpp"

namespace luxel {

namespace {

namespace fs = std::filesystem;

// The greyscale backdrop is A's display luminance times this, so full-strength tints stand out over it.
constexpr float kDim = 0.5f;
// Full-strength tints: B brighter (orange-red), B darker (azure: blue with some green, so it stays
// readable on dark pixels), geometry only in A (magenta).
constexpr Vec3 kWarm{1.0f, 0.35f, 0.0f};
constexpr Vec3 kCool{0.0f, 0.55f, 1.0f};
constexpr Vec3 kMagenta{1.0f, 0.0f, 1.0f};
constexpr float kMinScale = 1.0f / 255.0f;

// Luminance of a linear light value as the game displays it (hue-preserving clamp, [0,1], gamma).
float displayLuminance(Vec3 linear, const EngineLook& look) {
    return luminance(toDisplay(clampEngineLight(linear, look), look));
}

bool finite3(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// The signed change from A to B in display values: the difference of the channel that changed most (the
// measure the thresholds use), so a change of hue shows as much as one of brightness.
double signedChange(Vec3 linearA, Vec3 linearB, const EngineLook& lookA, const EngineLook& lookB) {
    const Vec3 da = toDisplay(clampEngineLight(linearA, lookA), lookA), db = toDisplay(clampEngineLight(linearB, lookB), lookB);
    const double d[3] = {double(db.x) - double(da.x), double(db.y) - double(da.y), double(db.z) - double(da.z)};
    double best = d[0];
    for (double v : {d[1], d[2]})
        if (std::abs(v) > std::abs(best)) best = v;
    return best;
}

// Heat colour of a luxel whose display luminance in A is `grey`, changed by `change` (signedChange) shown
// at full colour when |change| >= scale.
Vec3 heatColor(float grey, double change, double scale) {
    const float g = kDim * grey;
    const Vec3 base{g, g, g};
    const double t = scale > 0 ? std::min(std::abs(change) / scale, 1.0) : 0.0;
    if (!(t > 0)) return base;
    const Vec3 hue = change > 0 ? kWarm : kCool;
    return base + (hue - base) * float(t);
}

// The style slot of `surface` holding `style`, or -1.
int slotOf(const World& w, uint32_t surface, int style) {
    if (surface >= w.surfaces.size()) return -1;
    const auto& styles = w.surfaces[surface].styles;
    for (int k = 0; k < 4; ++k)
        if (styles[size_t(k)] != 255 && int(styles[size_t(k)]) == style) return k;
    return -1;
}

// The texel of `m` in A's style-0 pages, or nullptr when it lies outside them.
const float* texelOf(const World& w, const LuxelMatch& m) {
    if (m.page < 0 || size_t(m.page) >= w.lightmaps.size()) return nullptr;
    const LightmapPage& p = w.lightmaps[size_t(m.page)];
    if (m.x < 0 || m.y < 0 || m.x >= p.width || m.y >= p.height) return nullptr;
    const size_t i = (size_t(m.y) * size_t(p.width) + size_t(m.x)) * 3;
    return i + 3 <= p.rgb.size() ? p.rgb.data() + i : nullptr;
}

Vec3 greyOf(Vec3 linear, const EngineLook& look) {
    const float g = kDim * displayLuminance(linear, look);
    return {g, g, g};
}

// Render options that draw the heat world's pages unchanged: lightmap mode, linear look, style 0 alone at
// weight 1 (the heat world's surfaces use slot 0 only), no flares, a neutral sky so it is not read as "darker".
RenderOptions heatRenderOptions() {
    RenderOptions o;
    o.mode = RenderMode::Lightmap;
    o.look = Look::Linear;
    o.drawFlares = false;
    o.skyColor = {0.12f, 0.12f, 0.12f};
    o.background = {0, 0, 0};
    StyleWeights weights{};
    weights[0] = 1.0f;
    o.styleWeights = weights;
    return o;
}

// A's drawable geometry with vertex light replaced by the same dimmed greyscale as the pages.
Geometry heatGeometry(const Geometry& ga, const EngineLook& look) {
    Geometry g = ga;
    for (const DrawSurface& s : g.surfaces) {
        if (s.shading != SurfaceShading::Vertex) continue;
        for (uint32_t i = s.firstVertex; i < s.firstVertex + s.numVertices && i < g.vertices.size(); ++i) {
            Vec4& c = g.vertices[i].color;
            const Vec3 grey = greyOf({c.x, c.y, c.z}, look);
            c = {grey.x, grey.y, grey.z, c.w};
        }
    }
    return g;
}

std::string scaleText(double scale) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g/255", scale * 255.0);
    return buf;
}

// The labels' glyphs (sizes 12 and 16); without the font the pictures have no labels.
struct Font {
    std::shared_ptr<const GlyphSet> small = loadGlyphs(kDefaultFontPath, 12), large = loadGlyphs(kDefaultFontPath, 16);
    bool found = small && large;
    const GlyphSet& of(int size) const { return size >= 16 ? *large : *small; }
};

// White text, baseline at y, over a one-pixel dark shadow (the text's coverage grown by a pixel each way) that
// keeps it readable on light pixels.
void drawText(Image& img, int x, int y, const std::string& text, int size, const Font& font,
              TextAlign align = TextAlign::Left) {
    if (!font.found || img.channels < 3) return;
    struct Covered {
        int x, y;
        uint8_t a;
    };
    std::vector<Covered> covered;
    rasterText(font.of(size), x, y, text, align, [&](int px, int py, uint8_t a) { covered.push_back({px, py, a}); });
    if (covered.empty()) return;
    int x0 = covered[0].x, x1 = x0, y0 = covered[0].y, y1 = y0;
    for (const Covered& c : covered) x0 = std::min(x0, c.x), x1 = std::max(x1, c.x), y0 = std::min(y0, c.y), y1 = std::max(y1, c.y);
    const int w = x1 - x0 + 3, h = y1 - y0 + 3;  // the shadow reaches one pixel past the ink
    std::vector<uint8_t> ink(size_t(w) * size_t(h), 0), shadow(ink.size(), 0);
    for (const Covered& c : covered) {
        uint8_t& t = ink[size_t(c.y - y0 + 1) * size_t(w) + size_t(c.x - x0 + 1)];
        t = std::max(t, c.a);
    }
    for (int sy = 1; sy + 1 < h; ++sy)
        for (int sx = 1; sx + 1 < w; ++sx)
            if (const uint8_t a = ink[size_t(sy) * size_t(w) + size_t(sx)])
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        uint8_t& s = shadow[size_t(sy + dy) * size_t(w) + size_t(sx + dx)];
                        s = std::max(s, a);
                    }
    for (int sy = 0; sy < h; ++sy)
        for (int sx = 0; sx < w; ++sx) {
            const int px = x0 - 1 + sx, py = y0 - 1 + sy;
            if (px < 0 || py < 0 || px >= img.width || py >= img.height) continue;
            const float s = float(shadow[size_t(sy) * size_t(w) + size_t(sx)]) / 255.0f;
            const float t = float(ink[size_t(sy) * size_t(w) + size_t(sx)]) / 255.0f;
            float* p = img.at(px, py);
            for (int k = 0; k < 3; ++k) p[k] = (p[k] * (1.0f - s)) * (1.0f - t) + t;
        }
}

void fillRect(Image& img, int x0, int y0, int x1, int y1, Vec3 c) {
    x0 = std::max(x0, 0), y0 = std::max(y0, 0), x1 = std::min(x1, img.width), y1 = std::min(y1, img.height);
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            float* p = img.at(x, y);
            p[0] = c.x, p[1] = c.y, p[2] = c.z;
        }
}

// The legend in the bottom-left corner: a bar from "darker" (full cool) through grey (no change) to
// "brighter" (full warm), over a mid-grey backdrop, with the scale in display bytes (/255).
void drawLegend(Image& img, double scale, const Font& font) {
    if (img.channels < 3 || img.width < 64 || img.height < 48) return;
    const int margin = 8, pad = 6, barH = 12, textH = 14;
    const int barW = std::min(256, img.width - 2 * margin - 2 * pad);
    const int panelW = barW + 2 * pad, panelH = pad + textH + barH + textH + pad;
    const int px = margin, py = img.height - margin - panelH;
    if (py < 0) return;
    fillRect(img, px, py, px + panelW, py + panelH, {0.05f, 0.05f, 0.05f});
    const int barX = px + pad, barY = py + pad + textH;
    for (int i = 0; i < barW; ++i) {
        const double change = (2.0 * (double(i) + 0.5) / double(barW) - 1.0) * scale;  // -scale .. +scale
        const Vec3 c = heatColor(0.5f, change, scale);
        fillRect(img, barX + i, barY, barX + i + 1, barY + barH, c);
    }
    if (!font.found) return;
    const int size = 12;
    drawText(img, barX, barY - 3, "darker", size, font);
    drawText(img, barX + barW, barY - 3, "brighter", size, font, TextAlign::Right);
    const int below = barY + barH + textH - 2;
    drawText(img, barX, below, "-" + scaleText(scale), size, font);
    drawText(img, barX + barW / 2, below, "0", size, font, TextAlign::Center);
    drawText(img, barX + barW, below, "+" + scaleText(scale), size, font, TextAlign::Right);
}

void plot(Image& img, int x, int y, Vec3 c) {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
    float* p = img.at(x, y);
    p[0] = c.x, p[1] = c.y, p[2] = c.z;
}

// A 2-pixel line between two points in pixel coordinates, clipped to the image first (Liang-Barsky), so a
// far-off end point costs nothing.
void drawLine(Image& img, double x0, double y0, double x1, double y1, Vec3 c) {
    double t0 = 0, t1 = 1;
    const double dx = x1 - x0, dy = y1 - y0;
    const double lo[2] = {-1.0, -1.0}, hi[2] = {double(img.width), double(img.height)};
    auto clip = [&](double p, double q) {  // p t <= q
        if (p == 0) return q >= 0;
        const double r = q / p;
        if (p < 0) {
            if (r > t1) return false;
            t0 = std::max(t0, r);
        } else {
            if (r < t0) return false;
            t1 = std::min(t1, r);
        }
        return true;
    };
    if (!clip(-dx, x0 - lo[0]) || !clip(dx, hi[0] - x0) || !clip(-dy, y0 - lo[1]) || !clip(dy, hi[1] - y0)) return;
    const double ax = x0 + t0 * dx, ay = y0 + t0 * dy, bx = x0 + t1 * dx, by = y0 + t1 * dy;
    const int steps = int(std::ceil(std::max(std::abs(bx - ax), std::abs(by - ay)))) + 1;
    for (int i = 0; i <= steps; ++i) {
        const double t = double(i) / double(steps);
        const int x = int(std::floor(ax + (bx - ax) * t)), y = int(std::floor(ay + (by - ay) * t));
        plot(img, x, y, c);
        plot(img, x + 1, y, c);
        plot(img, x, y + 1, c);
    }
}

// Outlines a world-space box: its 12 edges projected with the camera, each clipped to the near plane.
void drawBox(Image& img, const View& view, const Camera& camera, Vec3 mins, Vec3 maxs, Vec3 color) {
    Vec3 corners[8];
    for (int i = 0; i < 8; ++i)
        corners[i] = {(i & 1) ? maxs.x : mins.x, (i & 2) ? maxs.y : mins.y, (i & 4) ? maxs.z : mins.z};
    const float nearW = camera.nearPlane;
    auto toPixel = [&](const Vec4& c, double& sx, double& sy) {
        sx = (double(c.x) / double(c.w) * 0.5 + 0.5) * double(img.width);
        sy = (0.5 - double(c.y) / double(c.w) * 0.5) * double(img.height);
    };
    for (int i = 0; i < 8; ++i)
        for (int bit : {1, 2, 4}) {
            if (i & bit) continue;
            Vec4 a = transform(view.viewProjection, corners[i]), b = transform(view.viewProjection, corners[i | bit]);
            if (a.w < nearW && b.w < nearW) continue;
            if (a.w < nearW || b.w < nearW) {  // cut the edge where it crosses the near plane
                const float t = (nearW - a.w) / (b.w - a.w);
                const Vec4 m{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, nearW};
                (a.w < nearW ? a : b) = m;
            }
            double ax, ay, bx, by;
            toPixel(a, ax, ay);
            toPixel(b, bx, by);
            drawLine(img, ax, ay, bx, by, color);
        }
}

// A style-0 page of the heat world as a picture, each luxel 2 x 2 pixels.
Image pageImage(const LightmapPage& page) {
    Image img(page.width * 2, page.height * 2, 3);
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            const float* t = page.rgb.data() + (size_t(y / 2) * size_t(page.width) + size_t(x / 2)) * 3;
            float* p = img.at(x, y);
            p[0] = t[0], p[1] = t[1], p[2] = t[2];
        }
    return img;
}

std::string numbered(const char* format, int n) {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, n);
    return buf;
}

}  // namespace

World heatWorld(const World& a, const std::vector<LuxelMatch>& matches, const HeatmapOptions& options,
                double* usedScale) {
    World heat = a;
    // Every page texel first becomes the dimmed greyscale of A's own value (untouched luxels, borders and
    // surfaces lacking the style stay grey, so the picture is consistently grey where nothing changed).
    for (LightmapPage& page : heat.lightmaps)
        for (size_t i = 0; i + 3 <= page.rgb.size(); i += 3) {
            const Vec3 g = greyOf({page.rgb[i], page.rgb[i + 1], page.rgb[i + 2]}, a.look);
            page.rgb[i] = g.x, page.rgb[i + 1] = g.y, page.rgb[i + 2] = g.z;
        }
    for (Vertex& v : heat.vertices) {
        const Vec3 g = greyOf({v.color.x, v.color.y, v.color.z}, a.look);
        v.color = {g.x, g.y, g.z, v.color.w};
    }

    // Signed change of each matched luxel carrying the style (signedChange).
    std::vector<double> change(matches.size(), 0.0);
    std::vector<uint8_t> state(matches.size(), 0);  // 0 grey, 1 tinted, 2 unmatched
    double largest = 0;
    for (size_t i = 0; i < matches.size(); ++i) {
        const LuxelMatch& m = matches[i];
        if (!texelOf(a, m)) continue;
        if (!m.matched) {
            state[i] = 2;
            continue;
        }
        const int slot = slotOf(a, m.surface, options.style);
        if (slot < 0) continue;
        const Vec3 va = m.a[size_t(slot)], vb = m.b[size_t(slot)];
        if (!finite3(va) || !finite3(vb)) {
            state[i] = 2;
            continue;
        }
        change[i] = signedChange(va, vb, a.look, a.look);
        state[i] = 1;
        largest = std::max(largest, std::abs(change[i]));
    }
    const double scale = options.scale > 0 ? options.scale : std::max(largest, double(kMinScale));
    if (usedScale) *usedScale = scale;

    for (size_t i = 0; i < matches.size(); ++i) {
        if (state[i] == 0) continue;
        const LuxelMatch& m = matches[i];
        const float* src = texelOf(a, m);
        float* dst = heat.lightmaps[size_t(m.page)].rgb.data() + (src - a.lightmaps[size_t(m.page)].rgb.data());
        const Vec3 c = state[i] == 2
                           ? kMagenta
                           : heatColor(displayLuminance({src[0], src[1], src[2]}, a.look), change[i], scale);
        dst[0] = c.x, dst[1] = c.y, dst[2] = c.z;
    }

    // Slot 0 alone, at weight 1 under any style weights that give style 0 weight 1, and no look at all: the
    // pages are the picture.
    for (Surface& s : heat.surfaces) s.styles = {0, 255, 255, 255};
    for (auto& slot : heat.extraLightmapSlots) slot.clear();
    heat.look = EngineLook{};
    heat.look.hueClampAt = 0;
    heat.look.gamma = 1.0f;
    return heat;
}

std::vector<std::string> writeHeatmaps(const World& a, const Geometry& ga, const std::vector<LuxelMatch>& matches,
                                       const LightmapDiff& diff, const std::vector<std::pair<std::string, Camera>>& views,
                                       const std::string& dir, const HeatmapOptions& options) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw UsageError("cannot create heatmap folder " + dir + ": " + ec.message());
    std::vector<std::string> written;
    const Font font;
    const RenderOptions ro = heatRenderOptions();

    double scale = 0;
    const World heat = heatWorld(a, matches, options, &scale);
    const Geometry geometry = heatGeometry(ga, a.look);

    for (const auto& [name, camera] : views) {
        Image img = renderFrame(heat, geometry, camera, ro);
        drawLegend(img, scale, font);
        const std::string path = (fs::path(dir) / ("view_" + name + ".png")).string();
        writeImage(path, img);
        written.push_back(path);
    }

    // Overview from above, sky hidden, the most changed surfaces of the shown style outlined.
    {
        const Camera camera = resolveCamera(heat, geometry, "overview", 1280, 720).camera;
        RenderOptions o = ro;
        o.drawSky = false;
        Image img = renderFrame(heat, geometry, camera, o);
        const View view = makeView(camera);
        const StyleDiff* shown = nullptr;
        for (const StyleDiff& s : diff.styles)
            if (s.style == options.style) shown = &s;
        if (shown) {
            const size_t n = std::min<size_t>(10, shown->changed.size());
            for (size_t i = 0; i < n; ++i)
                drawBox(img, view, camera, shown->changed[i].mins, shown->changed[i].maxs, {1.0f, 1.0f, 0.0f});
            if (font.found) {
                for (size_t i = 0; i < n; ++i) {  // rank numbers at the projected centroids
                    const Vec4 c = transform(view.viewProjection, shown->changed[i].centroid);
                    if (c.w < camera.nearPlane) continue;
                    const int x = int((c.x / c.w * 0.5f + 0.5f) * float(img.width));
                    const int y = int((0.5f - c.y / c.w * 0.5f) * float(img.height));
                    if (x < 0 || y < 0 || x >= img.width || y >= img.height) continue;
                    drawText(img, x, y, std::to_string(i + 1), 16, font, TextAlign::Center);
                }
            }
        }
        drawLegend(img, scale, font);
        const std::string path = (fs::path(dir) / "overview.png").string();
        writeImage(path, img);
        written.push_back(path);
    }

    // Per style: the atlas pages of A with that style's heat colours, 2 x 2 pixels a luxel.
    for (const StyleDiff& s : diff.styles) {
        HeatmapOptions so = options;
        so.style = s.style;
        const World styleHeat = s.style == options.style ? World{} : heatWorld(a, matches, so);
        const World& pages = s.style == options.style ? heat : styleHeat;
        const fs::path sub = fs::path(dir) / numbered("style_%03d", s.style);
        fs::create_directories(sub, ec);
        if (ec) throw UsageError("cannot create heatmap folder " + sub.string() + ": " + ec.message());
        for (size_t p = 0; p < pages.lightmaps.size(); ++p) {
            const LightmapPage& page = pages.lightmaps[p];
            if (page.width <= 0 || page.height <= 0 || page.rgb.size() < size_t(page.width) * size_t(page.height) * 3)
                continue;
            const std::string path = (sub / (numbered("page_%04d", int(p)) + ".png")).string();
            writeImage(path, pageImage(page));
            written.push_back(path);
        }
    }
    return written;
}

std::vector<std::string> writeGridSlices(const World& a, const World& b, const std::string& dir,
                                         const HeatmapOptions& options) {
    std::vector<std::string> written;
    if (!a.grid || !b.grid || a.grid->dims[0] <= 0 || a.grid->dims[1] <= 0 || a.grid->dims[2] <= 0) return written;
    const LightGrid& ga = *a.grid;
    const LightGrid& gb = *b.grid;
    const int nx = ga.dims[0], ny = ga.dims[1], nz = ga.dims[2];
    const size_t n = ga.samples.size();
    if (n != size_t(nx) * size_t(ny) * size_t(nz)) return written;
    const bool pointwise = ga.origin == gb.origin && ga.cellSize == gb.cellSize && ga.dims == gb.dims &&
                           gb.samples.size() == n;

    // A point's light is ambient + directed (what a surface facing the light receives), as the game
    // displays it; the change is signedChange, B resampled at A's points when the grids
    // differ. Points inside walls in A (ambient and directed all zero) are drawn black.
    auto total = [](const GridSample& g) { return g.ambient + g.directed; };
    std::vector<float> grey(n, 0.0f);
    std::vector<double> change(n, 0.0);
    std::vector<uint8_t> solid(n, 0);
    double largest = 0;
    for (size_t i = 0; i < n; ++i) {
        const GridSample& sa = ga.samples[i];
        const GridSample sb = pointwise ? gb.samples[i] : sampleGrid(gb, gridPointPosition(ga, i));
        solid[i] = luminance(total(sa)) == 0.0f ? 1 : 0;
        grey[i] = displayLuminance(total(sa), a.look);
        change[i] = signedChange(total(sa), total(sb), a.look, b.look);
        if (!solid[i]) largest = std::max(largest, std::abs(change[i]));
    }
    const double scale = options.scale > 0 ? options.scale : std::max(largest, double(kMinScale));

    const fs::path sub = fs::path(dir) / "grid";
    std::error_code ec;
    fs::create_directories(sub, ec);
    if (ec) throw UsageError("cannot create heatmap folder " + sub.string() + ": " + ec.message());
    const Font font;
    // One picture per level of the grid, seen from above: +X to the right, +Y up, a square of `cell` pixels
    // per point, and a band below for the legend and the level's height.
    const int cell = std::clamp(512 / std::max(nx, ny), 2, 16);
    const int band = 68;
    const int width = std::max(nx * cell, 300), height = ny * cell + band;
    for (int z = 0; z < nz; ++z) {
        Image img(width, height, 3);
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) {
                const size_t i = size_t(x) + size_t(nx) * (size_t(y) + size_t(ny) * size_t(z));
                const Vec3 c = solid[i] ? Vec3{0, 0, 0} : heatColor(grey[i], change[i], scale);
                fillRect(img, x * cell, (ny - 1 - y) * cell, (x + 1) * cell, (ny - y) * cell, c);
            }
        drawLegend(img, scale, font);
        if (font.found) {
            const float height_ = ga.origin.z + float(z) * ga.cellSize.z;
            drawText(img, img.width - 8, img.height - 12, fmt::format("z = {:g} (level {} of {})", height_, z + 1, nz),
                     12, font, TextAlign::Right);
        }
        const std::string path = (sub / (numbered("z_%03d", z) + ".png")).string();
        writeImage(path, img);
        written.push_back(path);
    }
    return written;
}

}  // namespace luxel
