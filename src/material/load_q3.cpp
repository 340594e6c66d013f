// Quake 3 materials: shader scripts and images from pk3 archives and game directories, the way
// ioquake3's renderer finds them.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <atomic>
#include <future>
#include <map>
#include <mutex>
#include <optional>

#include "luxel/material/q3_shader.hpp"
#include "luxel/util/error.hpp"
#include "material_loaders.hpp"

namespace luxel::materials {
namespace {
namespace fs = std::filesystem;

struct MountName {
    std::string name;  // as GameFiles::describe prefixes it
    bool archive = false;
};

struct Q3Files {
    GameFiles files;
    std::vector<MountName> mounts;  // highest precedence first, as mounted

    void addGameDir(const std::string& dir) {
        files.addQuake3GameDir(dir);
        std::string trimmed = dir;
        while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
        mounts.push_back({trimmed, false});
        const std::vector<std::string> paks = quake3PakFiles(dir);
        for (auto it = paks.rbegin(); it != paks.rend(); ++it) mounts.push_back({*it, true});
    }
    void addArchive(const std::string& path) {
        files.addArchive(path);
        mounts.push_back({path, true});
    }
    // Which mount a script resolves to (by its describe() text): the longest matching name, the first
    // one on a tie (GameFiles takes the first mount holding a path).
    size_t mountOf(const std::string& path) const {
        const std::string where = files.describe(path).value_or("");
        size_t best = mounts.size(), bestLength = 0;
        for (size_t i = 0; i < mounts.size(); ++i) {
            const std::string prefix = mounts[i].name + (mounts[i].archive ? ":" : "/");
            if (where.starts_with(prefix) && prefix.size() > bestLength) best = i, bestLength = prefix.size();
        }
        return best;
    }
};

// "archive.pk3" of "archive.pk3:maps/x.bsp", as openMapPath splits it.
std::optional<std::string> mapArchive(const std::string& displayName) {
    if (auto split = splitArchiveMember(displayName)) return split->archive;
    return std::nullopt;
}

// The folder holding a map's archive is the game directory it ships in (baseoa/pak0.pk3): searched after the
// ones given, unless it is one of them.
std::optional<std::string> archiveGameDir(const std::string& archive, const std::vector<std::string>& gameDirs) {
    std::error_code ec;
    fs::path dir = fs::path(archive).parent_path();
    if (dir.empty()) dir = ".";
    if (!fs::is_directory(dir, ec)) return std::nullopt;
    const fs::path canonical = fs::weakly_canonical(dir, ec);
    for (const std::string& d : gameDirs) {
        std::error_code ec2;
        if (fs::weakly_canonical(d, ec2) == canonical) return std::nullopt;
    }
    return dir.string();
}

// Which game directories a map's materials come from, highest precedence last-added: the map's own archive,
// the given game dirs, then the archive's folder or (a loose map at <dir>/maps/x.bsp) <dir>.
struct Q3Mounts {
    std::optional<std::string> archive;
    std::vector<std::string> gameDirs;
    bool lastImplicit = false;  // the last game dir was not asked for: failing to mount it is only a warning
    std::string key() const {
        std::string k = archive.value_or("");
        for (const std::string& d : gameDirs) k += "\n" + d;
        return k;
    }
};

Q3Mounts quake3Mounts(const MapSource& source, const MaterialOptions& options) {
    Q3Mounts m;
    m.archive = mapArchive(source.displayName);
    m.gameDirs = options.gameDirs;
    std::optional<std::string> implicitDir;
    if (m.archive) {
        implicitDir = archiveGameDir(*m.archive, options.gameDirs);
    } else {
        // A map at <dir>/maps/x.bsp belongs to game dir <dir>, whose files the engine would search.
        const fs::path mapsDir = fs::path(source.displayName).parent_path();
        if (toLowerAscii(mapsDir.filename().string()) == "maps") {
            fs::path gameDir = mapsDir.parent_path();
            if (gameDir.empty()) gameDir = ".";
            std::error_code ec;
            if (fs::is_directory(gameDir, ec)) implicitDir = gameDir.string();
        }
    }
    if (implicitDir) {
        m.gameDirs.push_back(*implicitDir);
        m.lastImplicit = true;
    }
    return m;
}

// A set of mounts with its shader scripts parsed: shared by every map that mounts the same archives and
// directories (a batch over one game's maps parses its scripts once).
struct Q3Game {
    Q3Files f;
    Q3ShaderTable table;
    std::vector<std::string> warnings;
};

// ScanAndLoadShaderFiles order (see addShaders): scripts of the lowest-precedence mount first; inside one
// mount, names in reverse order (the engine uses the archive's directory order, which GameFiles does not keep).
Q3ShaderTable loadShaders(const Q3Files& f, std::vector<std::string>& warnings) {
    std::vector<std::pair<size_t, std::string>> scripts;
    for (std::string& path : f.files.list("scripts", "shader", false)) scripts.emplace_back(f.mountOf(path), std::move(path));
    std::sort(scripts.begin(), scripts.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second > b.second;
    });
    Q3ShaderTable table;
    for (const auto& [mount, path] : scripts) {
        std::optional<Bytes> bytes;
        try {
            bytes = f.files.read(path);
        } catch (const std::exception& e) {
            warnings.push_back(e.what());
        }
        if (!bytes) continue;
        const std::string name = f.files.describe(path).value_or(path);
        const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
        addShaders(table, parseShaderScript(text, name, &warnings));
    }
    return table;
}

std::shared_ptr<const Q3Game> mountGame(const Q3Mounts& mounts) {
    auto game = std::make_shared<Q3Game>();
    if (mounts.archive) game->f.addArchive(*mounts.archive);
    for (size_t i = 0; i < mounts.gameDirs.size(); ++i) {
        const bool implicit = mounts.lastImplicit && i + 1 == mounts.gameDirs.size();
        try {
            game->f.addGameDir(mounts.gameDirs[i]);
        } catch (const std::exception& e) {  // e.g. too many files: the map still renders
            if (!implicit) throw;
            game->warnings.push_back(std::string("not searched: ") + e.what());
        }
    }
    game->table = loadShaders(game->f, game->warnings);
    return game;
}

struct GameCache {
    std::mutex mutex;
    std::map<std::string, std::shared_future<std::shared_ptr<const Q3Game>>> games;
    std::atomic<size_t> mounts{0};
};

GameCache& gameCache() {
    static GameCache cache;
    return cache;
}

// The mounted game for these mounts, made once per process (concurrent callers wait for the first).
std::shared_ptr<const Q3Game> cachedGame(const Q3Mounts& mounts) {
    GameCache& cache = gameCache();
    std::promise<std::shared_ptr<const Q3Game>> promise;
    std::shared_future<std::shared_ptr<const Q3Game>> future;
    bool mine = false;
    {
        std::lock_guard lock(cache.mutex);
        auto [it, inserted] = cache.games.try_emplace(mounts.key());
        if (inserted) {
            it->second = promise.get_future().share();
            mine = true;
        }
        future = it->second;
    }
    if (mine) {
        try {
            promise.set_value(mountGame(mounts));
            cache.mounts.fetch_add(1);
        } catch (...) {
            promise.set_exception(std::current_exception());
            std::lock_guard lock(cache.mutex);
            cache.games.erase(mounts.key());  // a later map may try again (and report the error itself)
        }
    }
    return future.get();
}

// R_FindImageFile: the name as written when its type is known, then the other image types.
std::string findImage(const GameFiles& files, const std::string& name) {
    const std::string base = stripExtension(name);
    std::vector<std::string> candidates;
    const std::string ext = toLowerAscii(name.substr(base.size()));
    if (ext == ".tga" || ext == ".jpg" || ext == ".jpeg" || ext == ".png") candidates.push_back(name);
    for (const char* e : {".tga", ".jpg", ".jpeg", ".png"}) candidates.push_back(base + e);
    return firstExisting(files, candidates);
}

bool anyStage(const Q3Shader& sh, auto pred) { return std::any_of(sh.stages.begin(), sh.stages.end(), pred); }

// The image of a stage at `time`: animMap's frame (floor(time * frequency) modulo the frames, as
// R_BindAnimatedImage; a negative index, time * frequency < 0, shows the first frame), else its map.
std::string stageImageAt(const Q3Stage& stage, float time) {
    if (stage.animFrames.empty()) return stage.map;
    const double frames = std::floor(double(time) * double(stage.animFrequency));
    if (!std::isfinite(frames) || frames < 0) return stage.animFrames.front();
    return stage.animFrames[size_t(std::fmod(frames, double(stage.animFrames.size())))];
}

BlendFactor blendFactor(Q3BlendFactor f) {
    switch (f) {
        case Q3BlendFactor::One: return BlendFactor::One;
        case Q3BlendFactor::Zero: return BlendFactor::Zero;
        case Q3BlendFactor::SrcAlpha: return BlendFactor::SrcAlpha;
        case Q3BlendFactor::OneMinusSrcAlpha: return BlendFactor::OneMinusSrcAlpha;
        case Q3BlendFactor::DstColor: return BlendFactor::DstColor;
        case Q3BlendFactor::OneMinusDstColor: return BlendFactor::OneMinusDstColor;
        case Q3BlendFactor::SrcColor: return BlendFactor::SrcColor;
        case Q3BlendFactor::OneMinusSrcColor: return BlendFactor::OneMinusSrcColor;
        case Q3BlendFactor::DstAlpha: return BlendFactor::DstAlpha;
        case Q3BlendFactor::OneMinusDstAlpha: return BlendFactor::OneMinusDstAlpha;
        case Q3BlendFactor::SrcAlphaSaturate: return BlendFactor::One;  // min(As, 1 - Ad): 1 over an opaque sky
    }
    return BlendFactor::One;
}

Wave waveOf(const Q3Wave& w) {
    Wave out;
    static const std::pair<const char*, Wave::Func> kFuncs[] = {
        {"sin", Wave::Func::Sin},           {"triangle", Wave::Func::Triangle},
        {"square", Wave::Func::Square},     {"sawtooth", Wave::Func::Sawtooth},
        {"inversesawtooth", Wave::Func::InverseSawtooth}, {"noise", Wave::Func::Noise}};
    for (const auto& [name, f] : kFuncs)
        if (w.func == name) out.func = f;
    out.base = w.base, out.amplitude = w.amplitude, out.phase = w.phase, out.frequency = w.frequency;
    return out;
}

float clamp01(double v) { return float(std::clamp(v, 0.0, 1.0)); }

// An affine map of texture coordinates as the images of the origin and the two unit vectors under `mods`.
void affineOf(const std::vector<TexMod>& mods, float time, float* a) {
    const Vec2 o = applyTexMods(mods, {0, 0}, time), x = applyTexMods(mods, {1, 0}, time),
               y = applyTexMods(mods, {0, 1}, time);
    a[0] = x.x - o.x, a[1] = x.y - o.y, a[2] = y.x - o.x, a[3] = y.y - o.y, a[4] = o.x, a[5] = o.y;
}

// The stage's tcMods at `time` (each mod is affine at a fixed time) as one affine map, and its first turb
// with the linear part of the mods after it (see MaterialStage::turb). Stretch scales about (0.5, 0.5) by
// 1 / its wave. A second turb is left out (no OpenArena shader has one; unevaluatedFeatures says so).
// A tcMod at `time` as a TexMod (stretch: a transform about (0.5, 0.5) by 1 / its wave); nullopt for turb.
std::optional<TexMod> texModOf(const Q3TcMod& m, float time) {
    TexMod t;
    std::copy(std::begin(m.p), std::end(m.p), std::begin(t.p));
    switch (m.kind) {
        case Q3TcModKind::Scale: t.kind = TexMod::Kind::Scale; break;
        case Q3TcModKind::Scroll: t.kind = TexMod::Kind::Scroll; break;
        case Q3TcModKind::Rotate: t.kind = TexMod::Kind::Rotate; break;
        case Q3TcModKind::Transform: t.kind = TexMod::Kind::Transform; break;
        case Q3TcModKind::Stretch: {  // RB_CalcStretchTexCoords
            Q3Wave w;
            w.func = m.waveFunc, w.base = m.p[0], w.amplitude = m.p[1], w.phase = m.p[2], w.frequency = m.p[3];
            const double v = evalWave(waveOf(w), time);
            const float p = v != 0 ? float(1.0 / v) : 1.0f;
            t.kind = TexMod::Kind::Transform;
            const float m6[6] = {p, 0, 0, p, 0.5f - 0.5f * p, 0.5f - 0.5f * p};
            std::copy(std::begin(m6), std::end(m6), std::begin(t.p));
            break;
        }
        case Q3TcModKind::Turb: return std::nullopt;
    }
    return t;
}

void stageCoordinates(const Q3Stage& s, float time, MaterialStage& out) {
    std::vector<TexMod> mods, afterTurb;
    for (const Q3TcMod& m : s.tcMods) {
        const std::optional<TexMod> t = texModOf(m, time);
        if (!t) {  // turb: base amplitude phase frequency; the base is not used (ParseTexMod)
            if (!out.turb) {
                out.turb = true;
                out.turbAmplitude = m.p[1];
                out.turbNow = double(m.p[2]) + double(time) * double(m.p[3]);
                afterTurb.clear();
            }
            continue;
        }
        mods.push_back(*t);
        afterTurb.push_back(*t);
    }
    affineOf(mods, time, out.affine);
    if (out.turb) {
        float a[6];
        affineOf(afterTurb, time, a);
        std::copy(a, a + 4, out.turbLinear);
    }
}

// The shader's stages as a program at `time` (see MaterialStage), textures requested from `files`.
std::shared_ptr<const StageProgram> stageProgram(const Q3Shader& sh, const GameFiles& files, TextureRequests& requests,
                                                 float time, bool decode) {
    auto program = std::make_shared<StageProgram>();
    for (const Q3Stage& s : sh.stages) {
        if (program->stages.size() == kMaxProgramStages) break;
        MaterialStage m;
        if (s.isLightmap) {
            m.source = MaterialStage::Source::Lightmap;
        } else if (s.isWhiteImage || !s.videoMap.empty()) {
            m.source = MaterialStage::Source::White;
        } else {
            const std::string path = findImage(files, stageImageAt(s, time));
            if (path.empty()) m.source = MaterialStage::Source::White;
            else if (decode) m.texture = requests.addImage(files, path);
        }
        m.texGen = s.tcGenEnvironment ? MaterialStage::TexGen::Environment
                   : s.tcGenVector    ? MaterialStage::TexGen::Vector
                   : s.isLightmap     ? MaterialStage::TexGen::Lightmap
                                      : MaterialStage::TexGen::Base;
        if (s.tcGenVector) m.texVector[0] = (*s.tcGenVector)[0], m.texVector[1] = (*s.tcGenVector)[1];
        stageCoordinates(s, time, m);
        m.clamp = s.clamp;
        m.blends = s.hasBlend;
        if (s.hasBlend) m.src = blendFactor(s.blend.src), m.dst = blendFactor(s.blend.dst);
        switch (s.alphaFunc) {
            case Q3AlphaFunc::None: m.alphaTest = MaterialStage::AlphaTest::None; break;
            case Q3AlphaFunc::GT0: m.alphaTest = MaterialStage::AlphaTest::Gt0; break;
            case Q3AlphaFunc::LT128: m.alphaTest = MaterialStage::AlphaTest::Lt128; break;
            case Q3AlphaFunc::GE128: m.alphaTest = MaterialStage::AlphaTest::Ge128; break;
        }
        switch (s.rgbGen) {
            case Q3RgbGen::IdentityLighting: m.color = MaterialStage::Color::IdentityLighting; break;
            case Q3RgbGen::Vertex: m.color = MaterialStage::Color::Vertex; break;
            case Q3RgbGen::ExactVertex:
            case Q3RgbGen::LightingDiffuse: m.color = MaterialStage::Color::ExactVertex; break;
            case Q3RgbGen::OneMinusVertex: m.color = MaterialStage::Color::OneMinusVertex; break;
            case Q3RgbGen::Const: m.color = MaterialStage::Color::Constant, m.constant = s.rgbConst; break;
            case Q3RgbGen::Wave: {  // RB_CalcWaveColor: a grey, times identityLight unless noise, clamped
                const Wave w = waveOf(s.rgbWave);
                const float g = float(evalWave(w, time));
                m.color = w.func == Wave::Func::Noise ? MaterialStage::Color::Constant : MaterialStage::Color::Wave;
                m.constant = w.func == Wave::Func::Noise ? Vec3{clamp01(g), clamp01(g), clamp01(g)} : Vec3{g, g, g};
                break;
            }
            default: m.color = MaterialStage::Color::One; break;  // identity, entity (white), unknown
        }
        switch (s.alphaGen) {
            case Q3AlphaGen::Identity: m.alpha = MaterialStage::Alpha::Texture; break;
            case Q3AlphaGen::Vertex: m.alpha = MaterialStage::Alpha::Vertex; break;
            case Q3AlphaGen::OneMinusVertex: m.alpha = MaterialStage::Alpha::OneMinusVertex; break;
            case Q3AlphaGen::Const: m.alpha = MaterialStage::Alpha::Constant, m.alphaConstant = s.alphaConst; break;
            case Q3AlphaGen::Wave:
                m.alpha = MaterialStage::Alpha::Constant, m.alphaConstant = clamp01(evalWave(waveOf(s.alphaWave), time));
                break;
            case Q3AlphaGen::Other:  // lightingSpecular (or an unknown name)
                m.alpha = MaterialStage::Alpha::LightingSpecular;
                break;
            case Q3AlphaGen::Portal:
                m.alpha = MaterialStage::Alpha::Portal, m.alphaConstant = s.alphaConst > 0 ? s.alphaConst : 256.0f;
                break;
            default: m.alpha = MaterialStage::Alpha::Constant, m.alphaConstant = 1; break;  // entity: opaque
        }
        program->stages.push_back(m);
    }
    return program;
}

// The sky shader's stages as cloud layers on the dome (ioquake3 draws them when skyParms is given; its
// cloud height 0 means 512). Stages without an image (video maps) are left out; tcMod turb is not applied
// (no sky shader of the OpenArena maps uses it).
void addClouds(MaterialSet& set, const Q3Shader& sky, const GameFiles& files, TextureRequests& requests, float time) {
    set.sky.cloudHeight = sky.skyCloudHeight > 0 ? sky.skyCloudHeight : 512.0f;
    for (const Q3Stage& stage : sky.stages) {
        if (stage.isLightmap || stage.isWhiteImage) continue;
        const std::string name = stageImageAt(stage, time);
        if (name.empty()) continue;
        const std::string path = findImage(files, name);
        if (path.empty()) {
            set.warnings.push_back(sky.name + ": cloud image " + name + " not found");
            continue;
        }
        CloudLayer layer;
        layer.texture = requests.addImage(files, path);
        if (stage.hasBlend) layer.src = blendFactor(stage.blend.src), layer.dst = blendFactor(stage.blend.dst);
        for (const Q3TcMod& m : stage.tcMods)
            if (const std::optional<TexMod> t = texModOf(m, time)) layer.mods.push_back(*t);
        set.sky.clouds.push_back(std::move(layer));
    }
}

}  // namespace

void loadQuake3(const World& world, const MapSource& source, const MaterialOptions& options,
                const std::vector<bool>& decodeOnly, MaterialSet& set) {
    set.textureGamma = 1.0f;
    const std::shared_ptr<const Q3Game> game = cachedGame(quake3Mounts(source, options));
    const Q3Files& f = game->f;
    const Q3ShaderTable& table = game->table;
    set.warnings.insert(set.warnings.end(), game->warnings.begin(), game->warnings.end());
    TextureRequests requests;
    bool warnedLt128 = false;
    const Q3Shader* skyShader = nullptr;  // the first sky shader the map uses: the engine draws one sky
    bool skyWanted = false;               // its material is drawn by this load (decodeOnly)

    for (size_t i = 0; i < world.materials.size(); ++i) {
        const Material& mat = world.materials[i];
        SurfaceLook& look = set.looks[i];
        const std::string key = normalizeShaderName(mat.name);
        std::vector<std::string> wanted;  // image names, the first found is used
        const auto it = table.find(key);
        if (it == table.end()) {
            // ioquake3's implicit shader: the image of that name times the lightmap.
            if (!(mat.flags & (kMaterialNoDraw | kMaterialSky)) && key != "noshader") wanted.push_back(key);
            look.sort = 3;
        } else {
            const Q3Shader& sh = it->second;
            look.notDrawn = unevaluatedFeatures(sh);
            for (const Q3Shader::Deform& d : sh.deformArgs) {
                Deform out;
                static const std::pair<const char*, Deform::Kind> kKinds[] = {
                    {"wave", Deform::Kind::Wave}, {"normal", Deform::Kind::Normal}, {"bulge", Deform::Kind::Bulge},
                    {"move", Deform::Kind::Move}, {"autosprite", Deform::Kind::Autosprite},
                    {"autosprite2", Deform::Kind::Autosprite2}};
                for (const auto& [name, kind] : kKinds)
                    if (d.kind == name) out.kind = kind;
                out.wave = waveOf(d.wave);
                out.spread = d.spread;
                out.move = d.move;
                out.bulgeWidth = d.bulgeWidth, out.bulgeHeight = d.bulgeHeight, out.bulgeSpeed = d.bulgeSpeed;
                look.deforms.push_back(out);
            }
            if ((sh.surfaceParms & kQ3SurfFog) || sh.fogColor) set.fogShaders.push_back(sh.name);
            look.twoSided = sh.cull == Q3Cull::None;
            look.polygonOffset = sh.polygonOffset;
            look.sort = engineSort(sh);
            look.depthWrite = !sh.stages.empty() && sh.stages.front().depthWrite;
            const Q3DrawKind kind = drawKind(sh);
            if (kind == Q3DrawKind::NoDraw && sh.stages.empty() && (sh.surfaceParms & kQ3SurfFog) && sh.fogColor &&
                !(sh.surfaceParms & kQ3SurfNoDraw)) {
                look.fogVolume = true;  // drawn by its fog pass (sort SS_FOG), blended over what is behind
                look.blend = BlendMode::Blend;
                continue;
            }
            if (kind == Q3DrawKind::NoDraw) {
                look.hidden = true;
                continue;
            }
            if (kind == Q3DrawKind::Sky) {
                look.sky = true;
                if (!skyShader && sh.hasSkyParms) {
                    skyShader = &sh;
                    skyWanted = decodeOnly.empty() || (i < decodeOnly.size() && decodeOnly[i]);
                }
                continue;
            }
            const Q3Stage* stage = firstTextureStage(sh);
            if (sh.stages.empty()) {
                wanted.push_back(key);  // what q3map2 and the editors show for a stageless shader
                if (!sh.editorImage.empty()) wanted.push_back(sh.editorImage);
            } else if (stage) {
                wanted.push_back(stageImageAt(*stage, options.time));
                look.tcScale = {stage->tcModScale[0], stage->tcModScale[1]};
                look.vertexColor = stage->rgbGen == Q3RgbGen::Vertex || stage->rgbGen == Q3RgbGen::ExactVertex;
            }
            const bool lightFromVertices = anyStage(sh, [](const Q3Stage& s) {
                return s.rgbGen == Q3RgbGen::Vertex || s.rgbGen == Q3RgbGen::ExactVertex ||
                       s.rgbGen == Q3RgbGen::LightingDiffuse;
            });
            look.unlit = !sh.stages.empty() && !hasLightmapStage(sh) && !lightFromVertices;

            const Q3Stage* first = sh.stages.empty() ? nullptr : &sh.stages[0];
            switch (kind) {
                case Q3DrawKind::AlphaTest: {
                    look.blend = BlendMode::AlphaTest;
                    Q3AlphaFunc func = first ? first->alphaFunc : Q3AlphaFunc::None;
                    if (func == Q3AlphaFunc::None && stage) func = stage->alphaFunc;
                    if (func == Q3AlphaFunc::GT0) {
                        look.alphaRef = 1.0f / 255.0f;
                    } else {
                        if (func == Q3AlphaFunc::LT128 && !warnedLt128) {
                            set.warnings.push_back(sh.file + ":" + std::to_string(sh.line) + ": " + sh.name +
                                                   ": alphaFunc LT128 is drawn as GE128");
                            warnedLt128 = true;
                        }
                        look.alphaRef = 0.5f;
                    }
                    break;
                }
                case Q3DrawKind::Blend: {
                    // A filter stage alone (DST_COLOR ZERO / ZERO SRC_COLOR) darkens what is behind it.
                    const Q3BlendFunc b = first ? first->blend : Q3BlendFunc{};
                    const bool filter = b == Q3BlendFunc{Q3BlendFactor::DstColor, Q3BlendFactor::Zero} ||
                                        b == Q3BlendFunc{Q3BlendFactor::Zero, Q3BlendFactor::SrcColor};
                    look.blend = filter ? BlendMode::Multiply : BlendMode::Blend;
                    break;
                }
                case Q3DrawKind::Additive: look.blend = BlendMode::Additive; break;
                default: break;
            }
            const bool decode = decodeOnly.empty() || (i < decodeOnly.size() && decodeOnly[i]);
            if (drawnAsProgram(sh)) {
                look.program = stageProgram(sh, f.files, requests, options.time, decode);
            } else if (kind == Q3DrawKind::Opaque && decode) {
                if (const Q3Stage* second = vertexAlphaBlendStage(sh)) {
                    const std::string path = findImage(f.files, stageImageAt(*second, options.time));
                    if (!path.empty()) look.texture2 = requests.addImage(f.files, path);
                    look.texture2IdentityLighting = second->rgbGen == Q3RgbGen::IdentityLighting;
                    look.texture2TcScale = {second->tcModScale[0], second->tcModScale[1]};
                    for (const Q3Stage& s : sh.stages)
                        if (s.isLightmap && s.blend == Q3BlendFunc{Q3BlendFactor::DstColor, Q3BlendFactor::SrcColor})
                            look.albedoScale = 2;
                }
                size_t d = 0;
                for (const Q3Stage& s : sh.stages) {
                    if (!foldableDetail(s) || d >= 2) continue;
                    const std::string path = findImage(f.files, stageImageAt(s, options.time));
                    if (path.empty()) continue;
                    look.detail[d] = requests.addImage(f.files, path);
                    look.detailScale[d] = {s.tcModScale[0], s.tcModScale[1]};
                    ++d;
                }
            }
        }
        if (wanted.empty()) continue;
        std::string path;
        for (const std::string& w : wanted)
            if (path = findImage(f.files, w); !path.empty()) break;
        if (path.empty()) {
            look.missing = true;
            addMissing(set, mat.name);
        } else if (decodeOnly.empty() || (i < decodeOnly.size() && decodeOnly[i])) {
            look.texture = requests.addImage(f.files, path);
        }
    }

    set.time = options.time;
    set.fogs.resize(world.fogs.size());
    for (size_t i = 0; i < world.fogs.size(); ++i) {
        const auto it = table.find(normalizeShaderName(world.fogs[i].shader));
        if (it == table.end() || !it->second.fogColor) continue;
        set.fogs[i] = {true, *it->second.fogColor, it->second.fogDistance};
    }
    if (skyShader && skyWanted) addClouds(set, *skyShader, f.files, requests, options.time);
    if (skyShader && skyShader->skyBoxBase) {
        static const char* const kSuffix[6] = {"_rt", "_bk", "_lf", "_ft", "_up", "_dn"};
        for (int k = 0; k < 6; ++k) {
            const std::string name = *skyShader->skyBoxBase + kSuffix[k];
            const std::string path = firstExisting(f.files, {name + ".tga", name + ".jpg", name + ".png"});
            if (path.empty())
                set.warnings.push_back(skyShader->name + ": sky box image " + name + " not found");
            else
                set.sky.faces[size_t(k)] = requests.addImage(f.files, path);
        }
    }
    requests.resolve(set, world, true);
}

}  // namespace luxel::materials

namespace luxel {
size_t quake3GameMounts() { return materials::gameCache().mounts.load(); }
}  // namespace luxel
