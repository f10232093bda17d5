// exstar nrm2 X.mtx: RN(sqrt(x_1² + ... + x_n²)), the exact sum of the exact squares, its
// square root rounded once (exstar_dnrm2).
#include "cli.hpp"
#include "vector_scalar.hpp"
#include <cmath>

#ifdef EXSTAR_TOOL_HAVE_LAPACK
extern "C" double dnrm2_(const int *n, const double *x, const int *incx);
#endif

namespace cli {

namespace {

// The baseline: the BLAS dnrm2 the tool is linked with (scaled so that squares do not
// overflow, but rounded at every step), else sqrt of a plain loop of squares.
double plain_nrm2(const std::vector<double> &x)
{
#ifdef EXSTAR_TOOL_HAVE_LAPACK
  if (x.size() <= (size_t)INT32_MAX) {
    const int n = (int)x.size(), one = 1;
    return dnrm2_(&n, x.data(), &one);
  }
#endif
  double s = 0.0;
  for (double v : x) s += v * v;
  return std::sqrt(s);
}

int run(const Args &args) { return run_vector_scalar(args, "nrm2", plain_nrm2, exstar_dnrm2); }

std::string help()
{
  return std::string(
    "usage: exstar nrm2 [options] X.mtx\n\n"
    "Prints RN(sqrt(x_1^2 + ... + x_n^2)): the Euclidean norm of the vector X, the square\n"
    "root of the exact sum of the exact squares rounded once to nearest-even. No square\n"
    "overflows or underflows (entries of 1e300 or subnormals give their exact norm); the\n"
    "result is inf only when the exact norm is beyond the double range. A NaN entry gives\n"
    "nan, an infinite one inf. The same bits on every back end, scheduler and number of\n"
    "workers.\n\n"
    "options:\n"
    "  --hex          print the result with %a (hexadecimal) instead of %.17g\n"
    "  --plain        baseline: the BLAS dnrm2 this tool is linked with (NOT correctly\n"
    "                 rounded); no StarPU involved\n") +
         runtime_options_help + files_help;
}

} // namespace

extern const Command cmd_nrm2;
const Command cmd_nrm2 = {"nrm2", "exact Euclidean norm of a vector", help, scalar_options, run, UnderMpi::rank0};

} // namespace cli
