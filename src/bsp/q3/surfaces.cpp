// Quake 3 drawable data: textures (materials), vertices, faces and their meshvert index lists.
#include "format.hpp"

namespace luxel::q3 {

namespace {
constexpr uint32_t kSurfSky = 0x4, kSurfNoDraw = 0x80, kSurfHint = 0x100, kSurfSkip = 0x200,
                   kSurfNoLightmap = 0x400;
}  // namespace

void decodeMaterials(Context& c, World& w) {
    ByteReader& r = c.lump(kTextures);
    c.numTextures = r.recordCount(kTextureBytes);
    w.materials.resize(c.numTextures);
    for (auto& m : w.materials) {
        m.name = r.fixedString(64);
        m.nativeSurfaceFlags = r.u32();
        m.nativeContents = r.u32();
        uint32_t f = m.nativeSurfaceFlags;
        if (f & kSurfSky) m.flags |= kMaterialSky;
        if (f & (kSurfNoDraw | kSurfHint | kSurfSkip)) m.flags |= kMaterialNoDraw;
        if (f & kSurfNoLightmap) m.flags |= kMaterialNoLightmap;
    }
}

void decodeVertices(Context& c, World& w) {
    ByteReader& r = c.lump(kVertexes);
    c.numVertices = r.recordCount(kVertexBytes);
    w.vertices.resize(c.numVertices);
    for (auto& v : w.vertices) {
        v.position = readVec3(r);
        v.texUV.x = r.f32();
        v.texUV.y = r.f32();
        v.lightmapUV.x = r.f32();
        v.lightmapUV.y = r.f32();
        v.normal = readVec3(r);
        v.color.x = overbright(r.u8());
        v.color.y = overbright(r.u8());
        v.color.z = overbright(r.u8());
        v.color.w = float(r.u8()) / 255.0f;
    }
    c.numMeshVerts = c.lump(kMeshVerts).recordCount(kIndexBytes);
}

void decodeSurfaces(Context& c, World& w) {
    ByteReader& r = c.lump(kFaces);
    ByteReader& meshVerts = c.lump(kMeshVerts);
    c.numFaces = r.recordCount(kFaceBytes);
    w.surfaces.resize(c.numFaces);
    // Lightmap indices are checked against the pages in the lump, or (external lightmaps, empty lump)
    // against the 4-digit file names; decodeLightmaps then loads the files.
    const bool external = c.numInternalLightmaps == 0;
    const size_t lightmapLimit = external ? size_t(kMaxExternalLightmaps) : c.numInternalLightmaps;

    // First pass: validate and count indices, so World::indices is allocated once.
    size_t totalIndices = 0;
    size_t badEffects = 0, firstBadEffect = 0;
    for (size_t i = 0; i < c.numFaces; ++i) {
        Surface& s = w.surfaces[i];
        const size_t at = r.position();
        int32_t texture = r.i32();
        checkIndex(r, at, texture, c.numTextures, "texture");
        // Effect (fog) indices are not used by luxel, and real maps (OpenArena aggressor) reference fogs that do
        // not exist, which the engine tolerates: note them instead of rejecting the map.
        int32_t effect = r.i32();
        if (effect < -1 || (effect >= 0 && size_t(effect) >= c.numEffects)) {
            if (badEffects++ == 0) firstBadEffect = i;
        }
        int32_t type = r.i32();
        int32_t firstVertex = r.i32(), numVertices = r.i32();
        checkRange(r, at + 12, firstVertex, numVertices, c.numVertices, "vertex");
        int32_t firstMeshVert = r.i32(), numMeshVerts = r.i32();
        int32_t lightmap = r.i32();
        if (lightmap >= 0 && size_t(lightmap) >= lightmapLimit)
            r.fail(at + 28, "lightmap index " + std::to_string(lightmap) +
                                (external ? " too large for an external lightmap name"
                                          : " outside 0.." + std::to_string(c.numInternalLightmaps - 1)));
        r.skip(16);  // lightmap start and size in the page: coordinates are stored per vertex
        Vec3 lmOrigin = readVec3(r);
        Vec3 lmS = readVec3(r);
        r.skip(12);  // lightmap t vector
        Vec3 normal = readVec3(r);
        int32_t width = r.i32(), height = r.i32();

        s.material = texture;
        s.lightmapPage = lightmap;
        s.fog = effect >= 0 && size_t(effect) < c.numEffects ? effect : -1;
        s.firstVertex = uint32_t(firstVertex);
        s.numVertices = uint32_t(numVertices);
        s.normal = normal;
        switch (type) {
        case 1:
        case 3: {
            s.kind = type == 1 ? SurfaceKind::Polygon : SurfaceKind::Mesh;
            checkRange(r, at + 20, firstMeshVert, numMeshVerts, c.numMeshVerts, "meshvert");
            if (numMeshVerts % 3 != 0)
                r.fail(at + 24, "meshvert count " + std::to_string(numMeshVerts) + " is not a multiple of 3");
            if (totalIndices + uint64_t(numMeshVerts) > kMaxIndicesPerVertex * c.numVertices)
                r.fail(at + 24, "faces 0.." + std::to_string(i) + " list more than " +
                                    std::to_string(kMaxIndicesPerVertex * c.numVertices) + " meshvert indices (" +
                                    std::to_string(kMaxIndicesPerVertex) + " for each of the " +
                                    std::to_string(c.numVertices) + " vertices)");
            ByteReader idx = meshVerts.sub(uint64_t(firstMeshVert) * kIndexBytes,
                                           uint64_t(numMeshVerts) * kIndexBytes, meshVerts.lump());
            for (int32_t k = 0; k < numMeshVerts; ++k) {
                int32_t v = idx.i32();
                if (v < 0 || v >= numVertices)
                    idx.fail(size_t(k) * kIndexBytes, "index " + std::to_string(v) + " of face " +
                                                          std::to_string(i) + " outside its " +
                                                          std::to_string(numVertices) + " vertices");
            }
            s.firstIndex = uint32_t(totalIndices);
            s.numIndices = uint32_t(numMeshVerts);
            totalIndices += size_t(numMeshVerts);
            break;
        }
        case 2:
            s.kind = SurfaceKind::Patch;
            if (width < 3 || height < 3 || width > kMaxPatchSide || height > kMaxPatchSide || width % 2 == 0 ||
                height % 2 == 0)
                r.fail(at + 96, "patch size " + std::to_string(width) + "x" + std::to_string(height) +
                                    " (must be odd, 3.." + std::to_string(kMaxPatchSide) + ")");
            if (width * height != numVertices)
                r.fail(at + 96, "patch size " + std::to_string(width) + "x" + std::to_string(height) +
                                    " does not match its " + std::to_string(numVertices) + " vertices");
            s.patchWidth = width;
            s.patchHeight = height;
            break;
        case 4:
            s.kind = SurfaceKind::Billboard;
            s.origin = lmOrigin;
            s.color = lmS;  // a flare's colour is stored in the first lightmap vector
            break;
        default:
            r.fail(at + 8, "unknown surface type " + std::to_string(type));
        }
    }

    if (badEffects > 0)
        w.problems.push_back(std::to_string(badEffects) + " faces (first: face " + std::to_string(firstBadEffect) +
                             ") reference effects that do not exist (" + std::to_string(c.numEffects) +
                             " effects): ignored");

    // Second pass: copy the (already validated) index lists.
    w.indices.resize(totalIndices);
    for (size_t i = 0; i < c.numFaces; ++i) {
        const Surface& s = w.surfaces[i];
        if (s.numIndices == 0) continue;
        ByteReader face = r.sub(i * kFaceBytes + 20, 4, r.lump());
        ByteReader idx = meshVerts.sub(uint64_t(face.u32()) * kIndexBytes, uint64_t(s.numIndices) * kIndexBytes,
                                       meshVerts.lump());
        for (uint32_t k = 0; k < s.numIndices; ++k) w.indices[s.firstIndex + k] = idx.u32();
    }
}

}  // namespace luxel::q3
