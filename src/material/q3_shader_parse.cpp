// Quake 3 shader scripts parsed leniently (q3_shader.hpp, q3_shader_parser.hpp): the shaders of a script over
// its tokens (q3_script_lexer.hpp), and the token helpers the keyword parsers share.
#include <utility>

#include "q3_shader_parser.hpp"

namespace luxel {
namespace q3script {

int boundedInt(float v, int lo, int hi) {
    if (!(v >= float(lo))) return lo;
    if (v >= float(hi)) return hi;
    return int(v);
}

std::string forwardSlashes(std::string_view path) {
    std::string s(path);
    for (char& c : s)
        if (c == '\\') c = '/';
    return s;
}

std::vector<Q3Shader> ScriptParser::run() {
    std::vector<Q3Shader> shaders;
    while (auto t = lx_.next(true)) {
        if (t->is('{')) {
            lx_.warn(t->line, "'{' without a shader name; block skipped");
            skipBlock(t->line);
            continue;
        }
        if (t->is('}')) {
            lx_.warn(t->line, "unmatched '}' ignored");
            continue;
        }
        Lexer::Mark afterName = lx_.mark();
        auto open = lx_.next(true);
        if (!open) {
            lx_.warn(t->line, "shader " + t->text + ": end of file before its '{'");
            break;
        }
        if (!open->is('{')) {
            lx_.warn(t->line, "shader " + t->text + ": no '{' after the name (found '" + open->text +
                                  "' on line " + std::to_string(open->line) + "); skipped");
            lx_.reset(afterName);
            continue;
        }
        Q3Shader shader;
        shader.name = normalizeShaderName(t->text);
        shader.file = file_;
        shader.line = t->line;
        parseBody(shader);
        shaders.push_back(std::move(shader));
    }
    return shaders;
}

std::optional<Vec3> ScriptParser::vectorArg(int line, const std::string& keyword) {
    Vec3 v;
    int n = 0;
    while (n < 3) {
        auto t = arg();
        if (!t) break;
        std::string digits;
        for (char c : t->text)
            if (c != '(' && c != ')') digits += c;
        if (digits.empty()) continue;
        v[n++] = leadingFloat(digits);
    }
    if (n < 3) {
        lx_.warn(line, keyword + ": expected three numbers");
        return std::nullopt;
    }
    Lexer::Mark m = lx_.mark();
    auto close = arg();
    if (!close || close->text != ")") lx_.reset(m);
    return v;
}

void ScriptParser::skipBlock(int openLine) {
    int depth = 1;
    while (auto t = lx_.next(true)) {
        if (t->is('{')) ++depth;
        if (t->is('}') && --depth == 0) return;
    }
    lx_.warn(openLine, "end of file inside a block");
}

bool ScriptParser::looksLikeNextShader(const Token& t) {
    if (t.quoted || t.text.find('/') == std::string::npos) return false;
    Lexer::Mark m = lx_.mark();
    bool lone = !lx_.next(false);
    auto after = lx_.next(true);
    lx_.reset(m);
    return lone && after && after->is('{');
}

void ScriptParser::parseBody(Q3Shader& shader) {
    while (true) {
        Lexer::Mark before = lx_.mark();
        auto t = lx_.next(true);
        if (!t) {
            lx_.warn(shader.line, "shader " + shader.name + ": missing '}' at end of file; kept");
            return;
        }
        if (t->is('}')) return;
        if (t->is('{')) {
            Q3Stage stage;
            stage.line = t->line;
            BlockEnd end = parseStage(stage);
            // q3map2 takes a stage's image as the light image while no editor or light image is known.
            if (shader.editorImage.empty() && shader.q3mapLightImage.empty() && !stage.map.empty() &&
                stage.map[0] != '$' && stage.map[0] != '*')
                shader.q3mapLightImage = stage.map;
            shader.stages.push_back(std::move(stage));
            if (end == BlockEnd::NextShader) {
                Lexer::Mark m = lx_.mark();
                auto name = lx_.next(true);
                lx_.reset(m);
                if (name)
                    lx_.warn(shader.line, "shader " + shader.name + ": missing '}' before " + name->text +
                                              " on line " + std::to_string(name->line) + "; closed there");
                return;
            }
            continue;
        }
        if (globalKeyword(shader, *t)) continue;
        if (!looksLikeNextShader(*t)) shader.unknown.push_back(toLowerAscii(t->text));
        if (looksLikeNextShader(*t)) {
            lx_.warn(shader.line, "shader " + shader.name + ": missing '}' before " + t->text + " on line " +
                                      std::to_string(t->line) + "; closed there");
            lx_.reset(before);
            return;
        }
        skipLine();
    }
}

void ScriptParser::parseSort(Q3Shader& s, int line) {
    auto p = valueArg(line, "sort");
    if (!p) return;
    static constexpr std::pair<const char*, float> kNames[] = {
        {"portal", 1},    {"sky", 2},         {"opaque", 3},   {"decal", 4},  {"seethrough", 5},
        {"banner", 6},    {"underwater", 8},  {"additive", 10}, {"nearest", 16},
    };
    for (const auto& [name, value] : kNames) {
        if (equalsIgnoreCase(p->text, name)) {
            s.sort = value;
            return;
        }
    }
    s.sort = leadingFloat(p->text);
}

}  // namespace q3script

std::string normalizeShaderName(std::string_view name) {
    std::string s = q3script::forwardSlashes(name);
    for (char& c : s) c = toLowerAscii(c);
    return s;
}

std::vector<Q3Shader> parseShaderScript(std::string_view text, const std::string& fileName,
                                        std::vector<std::string>* warnings) {
    return q3script::ScriptParser(text, fileName, warnings).run();
}

}  // namespace luxel
