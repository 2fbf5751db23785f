// Typed wrappers for libcurl's variadic functions, which Swift cannot call directly.
// PLACEHOLDER: the HTTP client helper completes these.
#ifndef ALMANAC_CCURL_SHIM_H
#define ALMANAC_CCURL_SHIM_H
#include <curl/curl.h>

static inline CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }

#endif
