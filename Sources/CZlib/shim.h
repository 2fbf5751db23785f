#ifndef ALMANAC_CZLIB_SHIM_H
#define ALMANAC_CZLIB_SHIM_H
// zlib for gzip content coding (RFC 9110 §8.4.1.3). deflateInit2/inflateInit2 are macros
// that pass the library's version and struct size; Swift cannot call macros, so these inline
// wrappers do.
#include <zlib.h>

static inline int almanac_deflate_init_gzip(z_stream *stream, int level) {
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's; memLevel 8 (zlib's default).
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int almanac_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}
#endif
