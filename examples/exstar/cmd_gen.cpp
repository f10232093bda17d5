// exstar gen vector|matrix|triangular: writes test data with a chosen condition number.
#include "gen.hpp"

namespace cli {

namespace {

std::vector<OptSpec> options()
{
  std::vector<OptSpec> o = runtime_options();
  for (const char *name : {"--n", "--cond", "--seed", "-o", "-o2", "--uplo"}) o.push_back({name, true});
  return o;
}

int run(const Args &args)
{
  args.expect_files(1, 1, "one kind: vector, matrix or triangular");
  const std::string &kind = args.files()[0];
  if (!args.has("--n")) throw UsageError("missing --n N");
  GenParams p;
  p.n = args.integer("--n", 0, 1, kind == "vector" ? 100000000 : 20000);
  p.cond = args.real("--cond", 1e10);
  if (!(p.cond >= 1.0 && p.cond <= 1e300)) throw UsageError("--cond: expected a number in [1, 1e300]");
  p.seed = (uint64_t)args.integer("--seed", 1, 0, INT64_MAX);
  if (kind != "vector" && args.has("-o2")) throw UsageError("-o2 is for 'gen vector' only");
  if (kind != "triangular" && args.has("--uplo")) throw UsageError("--uplo is for 'gen triangular' only");
  if (kind == "vector") return gen_vector(args, p);
  if (kind == "matrix") return gen_matrix(args, p);
  if (kind == "triangular") return gen_triangular(args, p);
  throw UsageError("unknown kind '" + kind + "' (vector, matrix or triangular)");
}

std::string help()
{
  return std::string(
             "usage: exstar gen vector     --n N [--cond C] [--seed S] -o X.mtx [-o2 Y.mtx]\n"
             "       exstar gen matrix     --n N [--cond C] [--seed S] -o A.mtx\n"
             "       exstar gen triangular --n N [--cond C] [--seed S] [--uplo U|L] -o T.mtx\n\n"
             "Writes test data whose condition number is about C (default 1e10, 1 <= C <= 1e300);\n"
             "the same seed (default 1) gives the same files.\n\n"
             "  vector      x, y (n >= 2) with cond(x.y) = 2|x|.|y| / |x.y| about C: the GenDot\n"
             "              algorithm of Ogita, Rump and Oishi (2005), whose partial dot products are\n"
             "              computed exactly by exstar itself (so it runs StarPU: the runtime options\n"
             "              apply). Prints the exact dot RN(x.y) and the condition number reached.\n"
             "              Y goes to -o2, by default to X's name with '_y' before '.mtx'.\n"
             "  matrix      A = Q1 diag(s) Q2 (n x n), Q1, Q2 random Householder reflectors, s geometric\n"
             "              from 1 down to 1/C, computed in double: the 2-norm condition number is C\n"
             "              only approximately, and beyond about 1e15 rounding errors (relative\n"
             "              1e-16 of the largest entries) bound what is reached.\n"
             "  triangular  the R factor of the Householder QR of such an A (same singular values up\n"
             "              to rounding); --uplo L writes its transpose (lower triangular). Default U.\n\n"
             "options:\n") +
         runtime_options_help;
}

} // namespace

extern const Command cmd_gen;
const Command cmd_gen = {"gen", "write test data with a chosen condition number", help, options, run, UnderMpi::rank0};

} // namespace cli
