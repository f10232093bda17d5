/// @file
/// exstar C++ API: a thin layer over exstar.h. Errors become exstar::error exceptions;
/// the exact definitions are the ones written in exstar.h.
#ifndef EXSTAR_EXSTAR_HPP
#define EXSTAR_EXSTAR_HPP

#include <exstar/exstar.h>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

/// The C++ API: inline wrappers over the C calls of exstar.h (same definitions, same bits);
/// a failed status becomes an exstar::error exception.
namespace exstar {

/// The exception thrown for a failed status: what() is the library's message.
class error : public std::runtime_error {
public:
  /// An exception for status (an exstar_status value) with message msg.
  error(int status, const std::string &msg) : std::runtime_error(msg), status_(status) {}
  /// The exstar_status value of the failed call.
  int status() const noexcept { return status_; }

private:
  int status_;
};

/// Throws exstar::error for a failed status, with the library's message.
inline void check(int status)
{
  if (status != EXSTAR_SUCCESS) {
    std::string msg = exstar_last_error();
    throw error(status, msg.empty() ? exstar_status_name(status) : msg);
  }
}

/// Starts StarPU and exstar for the lifetime of the object.
class runtime {
public:
  /// exstar_init(cfg) (NULL: defaults); the destructor calls exstar_shutdown().
  explicit runtime(const exstar_config *cfg = nullptr) { check(exstar_init(cfg)); }
  ~runtime() { exstar_shutdown(); }
  runtime(const runtime &) = delete;
  runtime &operator=(const runtime &) = delete;
};

/// RN(Σ x_i).
inline double sum(std::int64_t n, const double *x, std::int64_t incx = 1)
{
  double r;
  check(exstar_dsum(n, x, incx, &r));
  return r;
}
/// The same on a whole std::vector (stride 1).
inline double sum(const std::vector<double> &x) { return sum((std::int64_t)x.size(), x.data()); }

/// RN(Σ x_i·y_i).
inline double dot(std::int64_t n, const double *x, std::int64_t incx, const double *y, std::int64_t incy)
{
  double r;
  check(exstar_ddot(n, x, incx, y, incy, &r));
  return r;
}
/// The same on two whole std::vectors of equal length (stride 1).
inline double dot(const std::vector<double> &x, const std::vector<double> &y)
{
  if (x.size() != y.size()) throw error(EXSTAR_ERR_ARG, "exstar::dot: x and y differ in length");
  return dot((std::int64_t)x.size(), x.data(), 1, y.data(), 1);
}

/// RN(sqrt(Σ x_i²)), the exact norm rounded once.
inline double nrm2(std::int64_t n, const double *x, std::int64_t incx = 1)
{
  double r;
  check(exstar_dnrm2(n, x, incx, &r));
  return r;
}
/// The same on a whole std::vector (stride 1).
inline double nrm2(const std::vector<double> &x) { return nrm2((std::int64_t)x.size(), x.data()); }

/// An exact accumulator registered with StarPU, for composing reductions in a task graph.
class accumulator {
public:
  accumulator() { check(exstar_acc_register(&h_)); }
  ~accumulator() { exstar_acc_unregister(h_); }
  accumulator(const accumulator &) = delete;
  accumulator &operator=(const accumulator &) = delete;
  /// The accumulator's StarPU handle (for exstar_ddot_insert and the like).
  starpu_data_handle_t handle() const { return h_; }
  /// Submits result := RN(this).
  void round_into(starpu_data_handle_t result) { check(exstar_acc_round_insert(h_, result)); }
  /// Submits result := RN(sqrt(this)).
  void round_sqrt_into(starpu_data_handle_t result) { check(exstar_acc_round_sqrt_insert(h_, result)); }
  /// Submits this := 0: a new, empty sum on the same handle (rounding does not reset it).
  void zero() { check(exstar_acc_zero_insert(h_)); }

private:
  starpu_data_handle_t h_ = nullptr;
};

} // namespace exstar

// The per-area wrappers build on exstar::check and exstar::runtime above.
#include <exstar/level1.hpp>
#include <exstar/level2.hpp>
#include <exstar/level3.hpp>
#include <exstar/trsv.hpp>
#include <exstar/lapack.hpp>
#include <exstar/tiles.hpp>
#endif
