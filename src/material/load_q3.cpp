// Quake 3 materials: shader scripts and images from pk3 archives and game directories, the way
// ioquake3's renderer finds them.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <optional>

#include "luxel/material/q3_shader.hpp"
#include "luxel/util/error.hpp"
#include "luxel/util/single_flight.hpp"
#include "material_loaders.hpp"
#include "q3_game.hpp"
#include "q3_program.hpp"

namespace luxel::materials {
namespace {
namespace fs = std::filesystem;

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

// ScanAndLoadShaderFiles order (see addShaders): scripts of the lowest-precedence mount first; inside one
// mount, names in reverse order (the engine uses the archive's directory order, which GameFiles does not keep).
Q3ShaderTable loadShaders(const Q3Files& f, std::vector<std::string>& warnings) {
    std::vector<std::pair<size_t, std::string>> scripts;
    for (std::string& path : f.files.list("scripts", "shader", false)) scripts.emplace_back(f.mountOf(path), std::move(path));
    std::sort(scripts.begin(), scripts.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second > b.second;
    });
    // Each script is read and parsed on its own (in parallel), then added in that order.
    struct Parsed {
        std::vector<Q3Shader> shaders;
        std::vector<std::string> warnings;
    };
    std::vector<Parsed> parsed(scripts.size());
    tbb::parallel_for(size_t(0), scripts.size(), [&](size_t i) {
        const std::string& path = scripts[i].second;
        std::optional<Bytes> bytes;
        try {
            bytes = f.files.read(path);
        } catch (const std::exception& e) {
            parsed[i].warnings.push_back(e.what());
        }
        if (!bytes) return;
        const std::string name = f.files.describe(path).value_or(path);
        const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
        parsed[i].shaders = parseShaderScript(text, name, &parsed[i].warnings);
    });
    Q3ShaderTable table;
    for (Parsed& p : parsed) {
        warnings.insert(warnings.end(), p.warnings.begin(), p.warnings.end());
        addShaders(table, std::move(p.shaders));
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

// The mounted games, each made once per process (concurrent callers wait for the first; a failure is tried again by
// a later map, which reports the error itself).
struct GameCache {
    SingleFlight<std::shared_ptr<const Q3Game>> games{SingleFlight<std::shared_ptr<const Q3Game>>::Keep::Successes};
    std::atomic<size_t> mounts{0};
};

GameCache& gameCache() {
    static GameCache cache;
    return cache;
}

std::shared_ptr<const Q3Game> cachedGame(const Q3Mounts& mounts) {
    GameCache& cache = gameCache();
    return cache.games.get(mounts.key(), [&] {
        auto game = mountGame(mounts);
        cache.mounts.fetch_add(1);
        return game;
    });
}

bool anyStage(const Q3Shader& sh, auto pred) { return std::any_of(sh.stages.begin(), sh.stages.end(), pred); }

// A tcMod scale's smaller factor, squared: the frame's footprint on a texture scaled by it is at least the
// base coordinates' footprint times this.
float smallerSquare(Vec2 scale) { return std::min(scale.x * scale.x, scale.y * scale.y); }

}  // namespace

void forgetQuake3Games(const std::string& archivePath) {
    gameCache().games.forgetIf([&](const std::string& key) {  // Q3Mounts::key: the archive, then "\n" and each game dir
        return key.starts_with(archivePath) && (key.size() == archivePath.size() || key[archivePath.size()] == '\n');
    });
}

std::shared_ptr<const Q3Game> quake3Game(const MapSource& source, const MaterialOptions& options) {
    return cachedGame(quake3Mounts(source, options));
}

void loadQuake3(const World& world, const MapSource& source, const MaterialOptions& options,
                const std::vector<bool>& decodeOnly, const std::vector<float>& footprints, MaterialSet& set) {
    set.textureGamma = 1.0f;
    const std::shared_ptr<const Q3Game> game = quake3Game(source, options);
    const Q3Files& f = game->f;
    const Q3ShaderTable& table = game->table;
    set.warnings.insert(set.warnings.end(), game->warnings.begin(), game->warnings.end());
    TextureRequests requests;
    bool warnedLt128 = false;
    // The sky shaders the map uses, each with its own box and clouds (ioquake3 draws a sky pass per sky
    // shader over its own surfaces), in first-use order as set.skies; wanted when one of its materials is
    // drawn by this load (decodeOnly).
    std::vector<const Q3Shader*> skyShaders;
    std::vector<bool> skyWanted;

    for (size_t i = 0; i < world.materials.size(); ++i) {
        const Material& mat = world.materials[i];
        SurfaceLook& look = set.looks[i];
        const std::string key = normalizeShaderName(mat.name);
        const float footprint2 = i < footprints.size() ? footprints[i] : 0.0f;
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
            // q3map2's PopulateWithBSPModel (light_trace.c): a C_TRANSLUCENT shader (surfaceparm trans, water,
            // slime or lava) casts no shadow unless it is alphashadow or lightfilter; an alphashadow one filters
            // light by (255 - alpha) / 255 of its light image's nearest texel (TraceTriangle). An alphaFunc
            // shader without alphashadow casts a whole shadow, holes and all. Lightfilter's colour filter is
            // left opaque here.
            if (sh.surfaceParms & kQ3SurfAlphaShadow)
                look.shadow = ShadowCast::AlphaTexture;
            else if ((sh.surfaceParms & (kQ3SurfTrans | kQ3SurfWater | kQ3SurfSlime | kQ3SurfLava)) &&
                     !(sh.surfaceParms & kQ3SurfLightFilter))
                look.shadow = ShadowCast::None;
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
                const auto known = std::find(skyShaders.begin(), skyShaders.end(), &sh);
                look.skyBox = int32_t(known - skyShaders.begin());
                if (known == skyShaders.end()) skyShaders.push_back(&sh), skyWanted.push_back(false);
                skyWanted[size_t(look.skyBox)] =
                    skyWanted[size_t(look.skyBox)] || decodeOnly.empty() || (i < decodeOnly.size() && decodeOnly[i]);
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
            look.noLightmapStage = !sh.stages.empty() && !hasLightmapStage(sh);
            look.vertexLight = look.noLightmapStage && lightFromVertices;
            look.unlit = look.noLightmapStage && !lightFromVertices;

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
                look.program = stageProgram(sh, f.files, requests, options.time, decode, footprint2);
            } else if (kind == Q3DrawKind::Opaque && decode) {
                if (const Q3Stage* second = vertexAlphaBlendStage(sh)) {
                    const std::string path = findImage(f.files, stageImageAt(*second, options.time));
                    look.texture2IdentityLighting = second->rgbGen == Q3RgbGen::IdentityLighting;
                    look.texture2TcScale = {second->tcModScale[0], second->tcModScale[1]};
                    // The frame scales texture2's coordinates by its own tcMod scale, or the first stage's.
                    const Vec2 scale2 = look.texture2TcScale.x != 0 ? look.texture2TcScale : look.tcScale;
                    if (!path.empty()) look.texture2 = requests.addQuake3Image(f.files, path, footprint2 * smallerSquare(scale2));
                    for (const Q3Stage& s : sh.stages)
                        if (s.isLightmap && s.blend == Q3BlendFunc{Q3BlendFactor::DstColor, Q3BlendFactor::SrcColor})
                            look.albedoScale = {2, 2, 2};
                }
                size_t d = 0;
                for (const Q3Stage& s : sh.stages) {
                    if (!foldableDetail(s) || d >= 2) continue;
                    const std::string path = findImage(f.files, stageImageAt(s, options.time));
                    if (path.empty()) continue;
                    look.detailScale[d] = {s.tcModScale[0], s.tcModScale[1]};
                    look.detail[d] = requests.addQuake3Image(f.files, path, footprint2 * smallerSquare(look.detailScale[d]));
                    ++d;
                }
            }
            // The stages r_lightmap draws: the program itself when they are all of them.
            if (const std::optional<size_t> drawn = rLightmapStageCount(sh)) {
                if (*drawn == sh.stages.size() && look.program) {
                    look.lightmapModeProgram = look.program;
                } else {
                    Q3Shader cut = sh;
                    cut.stages.resize(*drawn);
                    look.lightmapModeProgram = stageProgram(cut, f.files, requests, options.time, decode, footprint2);
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
            look.texture = requests.addQuake3Image(f.files, path, footprint2 * smallerSquare(look.tcScale));
        }
    }

    set.time = options.time;
    set.fogs.resize(world.fogs.size());
    for (size_t i = 0; i < world.fogs.size(); ++i) {
        const auto it = table.find(normalizeShaderName(world.fogs[i].shader));
        if (it == table.end() || !it->second.fogColor) continue;
        set.fogs[i] = {true, *it->second.fogColor, it->second.fogDistance};
    }
    set.skies.resize(skyShaders.size());
    for (size_t k = 0; k < skyShaders.size(); ++k) {
        const Q3Shader& sky = *skyShaders[k];
        // Without skyParms the engine has neither box nor clouds to draw: the sky colour shows.
        if (!skyWanted[k] || !sky.hasSkyParms) continue;
        addClouds(set.skies[k], sky, f.files, requests, options.time, set.warnings);
        if (!sky.skyBoxBase) continue;
        static const char* const kSuffix[6] = {"_rt", "_bk", "_lf", "_ft", "_up", "_dn"};
        std::vector<std::string> missing;
        for (int side = 0; side < 6; ++side) {
            const std::string name = *sky.skyBoxBase + kSuffix[side];
            const std::string path = firstExisting(f.files, {name + ".tga", name + ".jpg", name + ".png"});
            if (path.empty())
                missing.push_back(name);
            else
                set.skies[k].faces[size_t(side)] = requests.addQuake3Image(f.files, path);
        }
        if (!missing.empty()) set.warnings.push_back(skyFacesMissing(sky.name + ": sky box", missing));
    }
    requests.resolve(set, world, true, options.textureBudget);
}

}  // namespace luxel::materials

namespace luxel {
size_t quake3GameMounts() { return materials::gameCache().mounts.load(); }
}  // namespace luxel
