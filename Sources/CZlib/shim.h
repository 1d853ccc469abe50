// zlib, for gzip and deflate bodies: the system's own (Debian's zlib1g-dev, Apple's SDK).
#include <zlib.h>
