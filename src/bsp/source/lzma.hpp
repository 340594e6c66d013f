#pragma once
// Valve's LZMA lump framing (public/tier1/lzmaDecoder.h): "LZMA", actual size, compressed size (both
// little-endian u32), 5 LZMA1 property bytes, then the raw LZMA1 stream without an end marker.
#include <cstdint>

#include "luxel/io/map_source.hpp"
#include "luxel/io/reader.hpp"

namespace luxel::vbsp {

inline constexpr size_t kLzmaHeaderBytes = 17;

// True when the window starts with the "LZMA" id and is long enough to hold the header.
bool isLzmaFramed(const ByteReader& r);

// Decompresses a framed window into exactly `actual size` bytes. Throws DecodeError (the window's file,
// lump and offsets) when the header is inconsistent, the actual size passes `maxBytes`, or the stream is
// corrupt or ends early. Output grows only as data is really produced, so a lying size field cannot make
// it allocate more than the stream yields.
Bytes decompressLzma(const ByteReader& r, uint64_t maxBytes);

}  // namespace luxel::vbsp
