/* Memory checks of the drivers (runtime/memory.cpp): what a call will allocate, compared with
 * exstar_memory_available() before any of it is allocated or any task submitted. */
#ifndef EXSTAR_RUNTIME_MEMORY_H
#define EXSTAR_RUNTIME_MEMORY_H
#include "include/exstar/exstar.h"
#include <string>

namespace exstar_rt {

/* count * size, and a + b, saturating at INT64_MAX (sizes from user arguments). */
int64_t bytes_of(int64_t count, int64_t size);
int64_t add_bytes(int64_t a, int64_t b);
/* "51.2 GB", "300 MB". */
std::string format_bytes(int64_t bytes);
/* EXSTAR_ERR_NOMEM, with "WHO: out of memory: needs about X more; this process may use Y",
 * when need bytes exceed exstar_memory_available(); else EXSTAR_SUCCESS. */
int check_memory(const char *who, int64_t need);

/* The memory the tiled LU of an m x n matrix with tiles of nb allocates beyond A and ipiv
 * (with_states false: the plain graph): the GEMM-accumulate states (32 bytes an entry), L's
 * column copies and the row orders (exact graph), and the tile copies a second memory node
 * (an OpenCL device on the host, PoCL) may hold; count: a batch of that many. */
int64_t tiled_lu_bytes(int64_t m, int64_t n, int64_t nb, bool with_states, int64_t count = 1);

} // namespace exstar_rt
#endif
