// Quake 3 materials: shader scripts and images from pk3 archives and game directories, the way
// ioquake3's renderer finds them.
#include <algorithm>
#include <cmath>
#include <filesystem>
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
    const std::string lower = toLowerAscii(displayName);
    for (const char* ext : {".pk3:", ".zip:"})
        if (auto pos = lower.find(ext); pos != std::string::npos) return displayName.substr(0, pos + 4);
    return std::nullopt;
}

Q3Files mountQuake3(const MapSource& source, const MaterialOptions& options, MaterialSet& set) {
    Q3Files f;
    if (auto archive = mapArchive(source.displayName)) f.addArchive(*archive);
    for (const std::string& dir : options.gameDirs) f.addGameDir(dir);
    if (!mapArchive(source.displayName)) {
        // A map at <dir>/maps/x.bsp belongs to game dir <dir>, whose files the engine would search.
        const fs::path mapsDir = fs::path(source.displayName).parent_path();
        if (toLowerAscii(mapsDir.filename().string()) == "maps") {
            fs::path gameDir = mapsDir.parent_path();
            if (gameDir.empty()) gameDir = ".";
            std::error_code ec;
            if (fs::is_directory(gameDir, ec)) {
                try {
                    f.addGameDir(gameDir.string());
                } catch (const std::exception& e) {  // e.g. too many files: the map still renders
                    set.warnings.push_back(std::string("not searched: ") + e.what());
                }
            }
        }
    }
    return f;
}

// ScanAndLoadShaderFiles order (see addShaders): scripts of the lowest-precedence mount first; inside one
// mount, names in reverse order (the engine uses the archive's directory order, which GameFiles does not keep).
Q3ShaderTable loadShaders(const Q3Files& f, MaterialSet& set) {
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
            set.warnings.push_back(e.what());
        }
        if (!bytes) continue;
        const std::string name = f.files.describe(path).value_or(path);
        const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
        addShaders(table, parseShaderScript(text, name, &set.warnings));
    }
    return table;
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

}  // namespace

void loadQuake3(const World& world, const MapSource& source, const MaterialOptions& options, MaterialSet& set) {
    set.textureGamma = 1.0f;
    const Q3Files f = mountQuake3(source, options, set);
    const Q3ShaderTable table = loadShaders(f, set);
    TextureRequests requests;
    bool warnedLt128 = false;
    const Q3Shader* skyShader = nullptr;

    for (size_t i = 0; i < world.materials.size(); ++i) {
        const Material& mat = world.materials[i];
        SurfaceLook& look = set.looks[i];
        const std::string key = normalizeShaderName(mat.name);
        std::vector<std::string> wanted;  // image names, the first found is used
        const auto it = table.find(key);
        if (it == table.end()) {
            // ioquake3's implicit shader: the image of that name times the lightmap.
            if (!(mat.flags & (kMaterialNoDraw | kMaterialSky)) && key != "noshader") wanted.push_back(key);
        } else {
            const Q3Shader& sh = it->second;
            if ((sh.surfaceParms & kQ3SurfFog) || sh.fogColor) set.fogShaders.push_back(sh.name);
            look.twoSided = sh.cull == Q3Cull::None;
            look.polygonOffset = sh.polygonOffset;
            const Q3DrawKind kind = drawKind(sh);
            if (kind == Q3DrawKind::NoDraw) {
                look.hidden = true;
                continue;
            }
            if (kind == Q3DrawKind::Sky) {
                look.sky = true;
                if (!skyShader && sh.skyBoxBase) skyShader = &sh;
                continue;
            }
            const Q3Stage* stage = firstTextureStage(sh);
            if (sh.stages.empty()) {
                wanted.push_back(key);  // what q3map2 and the editors show for a stageless shader
                if (!sh.editorImage.empty()) wanted.push_back(sh.editorImage);
            } else if (stage) {
                if (!stage->animFrames.empty()) {
                    const double frames = std::floor(double(options.time) * double(stage->animFrequency));
                    const auto n = int64_t(stage->animFrames.size());
                    int64_t frame = std::isfinite(frames) ? int64_t(std::fmod(frames, double(n))) : 0;
                    if (frame < 0) frame += n;
                    wanted.push_back(stage->animFrames[size_t(frame)]);
                } else {
                    wanted.push_back(stage->map);
                }
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
        }
        if (wanted.empty()) continue;
        std::string path;
        for (const std::string& w : wanted)
            if (path = findImage(f.files, w); !path.empty()) break;
        if (path.empty()) {
            look.missing = true;
            addMissing(set, mat.name);
        } else {
            look.texture = requests.addImage(f.files, path);
        }
    }

    if (skyShader) {
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
