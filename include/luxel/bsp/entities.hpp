#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "luxel/bsp/world.hpp"

namespace luxel {

// Parses the entity lump text ({ "key" "value" ... } blocks). Throws DecodeError with the
// character offset (relative to lumpOffset) on unbalanced braces or unterminated strings.
std::vector<Entity> parseEntities(std::string_view text, const std::string& file, uint64_t lumpOffset);

// Entities whose "classname" equals `classname`, in file order.
std::vector<const Entity*> findEntities(const World& world, std::string_view classname);

// An entity's integer key (its leading digits; 0 when missing or unreadable).
int entityInt(const Entity& e, const char* key);

// Parses "x y z" (missing components 0); returns false when no number could be read.
bool parseVec3(const std::string& text, Vec3& out);

// An entity's "origin" (0 0 0 when missing or not finite).
Vec3 entityOrigin(const Entity& e);

// An entity's angles as the games' spawn code applies its keys, in file order with a later one winning:
// "angle" is a yaw alone, "angles" is pitch yaw roll.
Vec3 entityAngles(const Entity& e);

// The first entity whose "targetname" is e's "target", or nullptr.
const Entity* targetOf(const World& world, const Entity& e);

}  // namespace luxel
