#pragma once
// Valve KeyValues text (materials, gameinfo.txt) as a tree, read the way KeyValues::LoadFromBuffer reads
// it: "quoted" or bare tokens (no escape sequences), { } blocks, // comments, and platform conditions
// ("[$WIN32]", "[!$X360]") after a value or before a block, evaluated for a Windows PC: an entry whose
// condition fails is dropped. Keys keep their case and order; duplicates are kept (gameinfo.txt lists
// `game` many times).
#include <string>
#include <string_view>
#include <vector>

namespace luxel {

struct KeyValue {
    std::string key;
    std::string value;  // "" for a block
    bool isBlock = false;
    std::vector<KeyValue> children;

    // The first child named `name` (any case), or null.
    const KeyValue* find(std::string_view name) const;
};

// Parses the first root block `NAME { ... }`; what follows must be balanced text (the engine reads only
// the first). `rootLabel` names the root in messages ("shader name"). Malformed text (no root block,
// unbalanced braces, a key without a value, '}' where a value belongs) throws DecodeError naming the file,
// the byte offset and the line.
KeyValue parseKeyValues(std::string_view text, const std::string& fileName, std::string_view rootLabel = "name");

}  // namespace luxel
