#pragma once
// The Quake 3 shader script parser (internal to material/, behind parseShaderScript): ScriptParser reads the
// script's shaders (q3_shader_parse.cpp), their global keywords (q3_shader_keywords.cpp) and their stages
// (q3_stage_parse.cpp) the way ioquake3's ParseShader / ParseStage do, with line-numbered warnings.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "luxel/material/q3_shader.hpp"
#include "luxel/util/text.hpp"
#include "q3_script_lexer.hpp"

namespace luxel::q3script {

// A number written where q3map2 reads an integer (atoi): truncated, kept in [lo, hi]; NaN gives lo.
int boundedInt(float v, int lo, int hi);
std::string forwardSlashes(std::string_view path);

// Per-stage facts needed after the closing brace, when ioquake3 resolves defaults.
struct StageState {
    bool blendGiven = false;
    bool depthWriteExplicit = false;
};

enum class BlockEnd { Closed, EndOfFile, NextShader };

class ScriptParser {
public:
    ScriptParser(std::string_view text, const std::string& file, std::vector<std::string>* warnings)
        : lx_(text, file, warnings), file_(file) {}

    std::vector<Q3Shader> run();

private:
    // The next token on the current line, never a brace (a brace ends a keyword's arguments).
    std::optional<Token> arg() {
        Lexer::Mark m = lx_.mark();
        auto t = lx_.next(false);
        if (t && t->isBrace()) {
            lx_.reset(m);
            return std::nullopt;
        }
        return t;
    }

    void skipLine() {
        while (arg()) {
        }
    }

    // A keyword's value: the next argument, or a "KEYWORD: missing value" warning and nothing.
    std::optional<Token> valueArg(int line, const char* keyword) {
        auto t = arg();
        if (!t) lx_.warn(line, std::string(keyword) + ": missing value");
        return t;
    }

    std::optional<float> floatArg() {
        auto t = arg();
        if (!t) return std::nullopt;
        return leadingFloat(t->text);
    }

    // "( r g b )", "(r g b)" or "r g b": parentheses are optional and may touch the numbers.
    std::optional<Vec3> vectorArg(int line, const std::string& keyword);
    void skipBlock(int openLine);
    // A lone path-like word followed by '{' on a later line: the next shader, after a missing '}'.
    bool looksLikeNextShader(const Token& t);

    void parseBody(Q3Shader& shader);
    bool globalKeyword(Q3Shader& s, const Token& t);  // false: not one
    void parseSort(Q3Shader& s, int line);

    BlockEnd parseStage(Q3Stage& st);
    void mapArg(Q3Stage& st, const Token& t);
    bool stageKeyword(Q3Stage& st, StageState& state, const Token& t);  // false: not one
    void parseBlendFunc(Q3Stage& st, StageState& state, int line);
    void parseRgbGen(Q3Stage& st, int line);
    // func base amplitude phase frequency (ParseWaveForm).
    std::optional<Q3Wave> waveArgs(int line, const char* what);
    void parseAlphaGen(Q3Stage& st, int line);
    // ioquake3 ParseStage's epilogue: default rgbGen, ONE ZERO means opaque, depth mask.
    static void finishStage(Q3Stage& st, const StageState& state);

    Lexer lx_;
    const std::string& file_;
};

}  // namespace luxel::q3script
