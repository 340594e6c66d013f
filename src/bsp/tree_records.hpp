#pragma once
// BSP tree records the decoders share: nodes of every format, and the leaves and models Quake 2 and Source
// lay out alike (Source only appends fields to Quake 2's records).
#include <cstdint>

#include "luxel/bsp/world.hpp"
#include "decode_common.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::bsp {

// Nodes start with a plane and two children. A child >= 0 is a node, which must come after its parent
// (compilers write nodes in pre-order; requiring it rules out cycles that would hang a walk); a child < 0 is
// leaf -1 - child.

// Quake 3 nodes (36 bytes): plane, children, int32 bounds. Returns the count.
size_t readIntNodes(ByteReader& r, size_t numPlanes, size_t numLeaves, World& w);

// Quake 2 / Source nodes: plane, children, int16 bounds, then a face range (faces on the node's plane, for
// collision); bytes past those 28 of each record (Source: area, padding) are skipped. Returns the count.
size_t readShortNodes(ByteReader& r, size_t recordBytes, size_t numPlanes, size_t numLeaves, size_t numFaces,
                      World& w);

// How a Quake 2 / Source leaf stores its area: Quake 2 an int16 area index, Source 9 bits of area under 7 of
// flags.
enum class LeafArea { Short, Packed9 };

struct ShortLeafLimits {
    size_t numLeafFaces = 0, numLeafBrushes = 0;
    size_t numAreas = 0;  // Short areas are checked against it when there are any
    LeafArea area = LeafArea::Short;
    uint32_t liquidContents = 0;  // contents bits that make a leaf liquid (Leaf::liquid)
};

// Quake 2 / Source leaves: contents, cluster (checked against the PVS in `w`), area, int16 bounds, leaf face
// and leaf brush ranges (into `leafBrushes` when given); bytes past those 28 of each record are skipped.
// Returns the count.
size_t readShortLeaves(ByteReader& r, size_t recordBytes, const ShortLeafLimits& limits, World& w,
                       std::vector<Range>* leafBrushes = nullptr);

// Quake 2 / Source models (48 bytes): bounds, origin, head node (or leaf -1 - head), face range.
size_t readQuakeModels(ByteReader& r, size_t numNodes, size_t numLeaves, size_t numFaces, World& w);

}  // namespace luxel::bsp
