// ericw-tools' luxel placement, bit for bit (see ericw_luxel_frame.hpp).
#include "luxel/light/ericw_luxel_frame.hpp"

#include <cmath>

namespace luxel {

namespace {

// gluInvertMatrixd as ericw-tools' qvec.cc has it (column-major input and output), the same expressions.
bool invert(const std::array<double, 16>& m, std::array<double, 16>& out) {
    double inv[16];
    inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] + m[13] * m[6] * m[11] -
             m[13] * m[7] * m[10];
    inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] - m[12] * m[6] * m[11] +
             m[12] * m[7] * m[10];
    inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] + m[12] * m[5] * m[11] -
             m[12] * m[7] * m[9];
    inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] - m[12] * m[5] * m[10] +
              m[12] * m[6] * m[9];
    inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] - m[13] * m[2] * m[11] +
             m[13] * m[3] * m[10];
    inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] + m[12] * m[2] * m[11] -
             m[12] * m[3] * m[10];
    inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] - m[12] * m[1] * m[11] +
             m[12] * m[3] * m[9];
    inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] + m[12] * m[1] * m[10] -
              m[12] * m[2] * m[9];
    inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] + m[13] * m[2] * m[7] -
             m[13] * m[3] * m[6];
    inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] - m[12] * m[2] * m[7] +
             m[12] * m[3] * m[6];
    inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] + m[12] * m[1] * m[7] -
              m[12] * m[3] * m[5];
    inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] - m[12] * m[1] * m[6] +
              m[12] * m[2] * m[5];
    inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] - m[9] * m[2] * m[7] +
             m[9] * m[3] * m[6];
    inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] + m[8] * m[2] * m[7] -
             m[8] * m[3] * m[6];
    inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] - m[8] * m[1] * m[7] +
              m[8] * m[3] * m[5];
    inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] -
              m[8] * m[2] * m[5];
    double det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
    if (det == 0) return false;
    det = 1.0 / det;
    for (int i = 0; i < 16; i++) out[size_t(i)] = inv[i] * det;
    return true;
}

float at(const std::array<float, 16>& m, size_t row, size_t col) { return m[col * 4 + row]; }

}  // namespace

std::optional<EricwLuxelFrame> ericwLuxelFrame(const TexinfoLuxels& face) {
    if (face.luxelSize <= 0) return std::nullopt;
    const auto& v = face.vecs;
    const Vec3 n = face.plane.normal;
    // WorldToTexSpace (or, decoupled, the world-to-luxel rows), column by column, inverted in double.
    const std::array<float, 16> toTex{v[0], v[4], n.x, 0, v[1], v[5], n.y, 0, v[2], v[6], n.z, 0, v[3], v[7], -face.plane.dist, 1};
    std::array<double, 16> wide, inverse;
    for (size_t i = 0; i < 16; ++i) wide[i] = double(toTex[i]);
    if (!invert(wide, inverse)) return std::nullopt;
    std::array<float, 16> texToWorld;
    for (size_t i = 0; i < 16; ++i) texToWorld[i] = float(inverse[i]);
    EricwLuxelFrame out;
    if (face.decoupled) {
        out.lmToWorld = texToWorld;  // the world_units_per_luxel constructor: the inverse is the frame
        out.worldToLuxel = v;
    } else {
        // TexCoordToLMMatrix x WorldToTexSpace: each row scaled by 1 / luxel size, less the block's mins.
        const float inv = float(1.0 / double(face.luxelSize));
        for (size_t a = 0; a < 2; ++a) {
            for (size_t k = 0; k < 4; ++k) out.worldToLuxel[a * 4 + k] = inv * v[a * 4 + k];
            out.worldToLuxel[a * 4 + 3] = out.worldToLuxel[a * 4 + 3] + -float(face.mins[a]);
        }
        // LMToTexCoordMatrix (row-major there): scale by the luxel size, offset by mins x luxel size.
        const float shift = float(face.luxelSize);
        std::array<float, 16> lmToTex{};  // column-major
        lmToTex[0] = shift, lmToTex[5] = shift, lmToTex[10] = 1, lmToTex[15] = 1;
        lmToTex[12] = float(face.mins[0]) * shift, lmToTex[13] = float(face.mins[1]) * shift;
        for (size_t i = 0; i < 4; ++i)
            for (size_t j = 0; j < 4; ++j) {
                float sum = 0;
                for (size_t k = 0; k < 4; ++k) sum += at(texToWorld, i, k) * at(lmToTex, k, j);
                out.lmToWorld[j * 4 + i] = sum;
            }
    }
    for (float x : out.lmToWorld)
        if (!std::isfinite(x)) return std::nullopt;
    out.plane = face.plane;
    return out;
}

Vec2 ericwWorldToLuxel(const EricwLuxelFrame& f, Vec3 p) {
    const auto& m = f.worldToLuxel;
    return {m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3], m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7]};
}

Vec3 ericwLuxelOnPlane(const EricwLuxelFrame& f, float s, float t) {
    const float in[4] = {s, t, 0.0f, 1.0f};
    float res[3];
    for (size_t i = 0; i < 3; ++i) {
        float sum = 0;
        for (size_t j = 0; j < 4; ++j) sum += at(f.lmToWorld, i, j) * in[j];
        res[i] = sum;
    }
    const Vec3 n = f.plane.normal;
    const Vec3 point = Vec3{res[0], res[1], res[2]} + n;
    const float dist = dot(n, point) - f.plane.dist;
    return point + n * -dist;
}

}  // namespace luxel
