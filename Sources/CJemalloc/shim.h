// jemalloc's public API (Debian's libjemalloc-dev: unprefixed `mallctl`).
#include <jemalloc/jemalloc.h>
