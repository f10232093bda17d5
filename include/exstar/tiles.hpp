/// @file
/// exstar C++ API, descriptors of tiled matrices and the LU and solve on them: a thin layer
/// over tiles.h, whose definitions apply (same tasks, same bits). Errors become exstar::error;
/// a singular matrix and non-finite factors are results (lu_status), as in lapack.hpp.
#ifndef EXSTAR_TILES_HPP
#define EXSTAR_TILES_HPP

#include <exstar/exstar.hpp>
#include <exstar/lapack.hpp>
#include <utility>

namespace exstar {

/// An m x n matrix as nb x nb tiles, one StarPU handle each (owns an exstar_desc; move-only).
/// The destructor is exstar_desc_destroy: it waits for the descriptor's tasks and, for a
/// descriptor over an array, leaves the results in the array.
class desc {
public:
  /// No descriptor (empty(): true).
  desc() = default;
  /// exstar_desc_create: tiles over the column-major array A (lda >= max(1, m)).
  desc(std::int64_t m, std::int64_t n, std::int64_t nb, double *A, std::int64_t lda)
  {
    check(exstar_desc_create(&d_, m, n, nb, A, lda));
  }
  /// exstar_desc_create_tiles: over the caller's tile handles tiles[I + J·mt] (kept the caller's).
  desc(std::int64_t m, std::int64_t n, std::int64_t nb, const starpu_data_handle_t *tiles)
  {
    check(exstar_desc_create_tiles(&d_, m, n, nb, tiles));
  }
  ~desc() { exstar_desc_destroy(d_); }
  desc(const desc &) = delete;
  desc &operator=(const desc &) = delete;
  /// Takes o's descriptor; o is left empty.
  desc(desc &&o) noexcept : d_(std::exchange(o.d_, nullptr)) {}
  /// Destroys this descriptor (exstar_desc_destroy), then takes o's; o is left empty.
  desc &operator=(desc &&o) noexcept
  {
    if (this != &o) {
      exstar_desc_destroy(d_);
      d_ = std::exchange(o.d_, nullptr);
    }
    return *this;
  }
  /// The C descriptor (still owned by this object).
  exstar_desc get() const noexcept { return d_; }
  /// Whether there is no descriptor (default-constructed or moved from).
  bool empty() const noexcept { return d_ == nullptr; }
  /// The handle of tile (I, J) (nullptr outside the grid).
  starpu_data_handle_t tile(std::int64_t I, std::int64_t J) const { return exstar_desc_tile(d_, I, J); }
  /// The number of tile rows.
  std::int64_t mt() const { return exstar_desc_mt(d_); }
  /// The number of tile columns.
  std::int64_t nt() const { return exstar_desc_nt(d_); }
  /// The pivot handle (exstar_desc_ipiv): min(m, n) int32, written by getrf_insert's tasks.
  starpu_data_handle_t ipiv() const { return exstar_desc_ipiv(d_); }
  /// Destroys the descriptor now (exstar_desc_destroy); empty() afterwards.
  void reset() { exstar_desc_destroy(std::exchange(d_, nullptr)); }

private:
  exstar_desc d_ = nullptr;
};

/// Submits the exact tiled LU on A's tiles (exstar_dgetrf_desc_insert); no wait. ipiv, when
/// given, receives the pivots at info() or at A's destruction; tasks read A.ipiv().
inline void getrf_insert(desc &A, std::int32_t *ipiv = nullptr) { check(exstar_dgetrf_desc_insert(A.get(), ipiv)); }
/// Waits for the LU of getrf_insert (exstar_dgetrf_desc_info): info and NaN/inf as results.
inline lu_status info(desc &A)
{
  std::int64_t i = 0;
  int s = exstar_dgetrf_desc_info(A.get(), &i);
  return detail::lu_check(s, i);
}
/// op(A)·X = B on descriptors, X into B's tiles (exstar_dgetrs_desc_insert); no wait.
inline void getrs_insert(char trans, desc &A, desc &B) { check(exstar_dgetrs_desc_insert(trans, A.get(), B.get())); }
/// A·X = B, trans 'N'.
inline void getrs_insert(desc &A, desc &B) { getrs_insert('N', A, B); }
/// Waits for the tasks that write A's tiles (exstar_desc_wait); throws a failed task's error.
inline void wait(desc &A) { check(exstar_desc_wait(A.get())); }
/// C := alpha·op(A)·op(B) + beta·C on descriptors, each entry exstar_dgemm's
/// (exstar_dgemm_desc_insert); no wait.
inline void gemm_insert(char transa, char transb, double alpha, desc &A, desc &B, double beta, desc &C)
{
  check(exstar_dgemm_desc_insert(transa, transb, alpha, A.get(), B.get(), beta, C.get()));
}

} // namespace exstar
#endif
