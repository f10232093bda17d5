// The exstar tool: what every subcommand shares (errors, parsed arguments, the library session).
#ifndef EXSTAR_TOOL_CLI_HPP
#define EXSTAR_TOOL_CLI_HPP

#include "errors.hpp"
#include <exstar/exstar.h>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cli {

// Exit codes: 0 success, 1 failure (bad input file, library error), 2 usage error,
// 3 getrf's factors written but U singular (LAPACK's info > 0), 4 a result (getrf's factors,
// gesv's solution) written but overflowed: it holds inf or NaN where the exact values lie beyond
// the double range.
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_SINGULAR = 3, EXIT_OVERFLOW = 4 };

// An option a subcommand accepts: "--name" or "-o"; takes_value says whether it has an argument.
struct OptSpec {
  const char *name;
  bool takes_value;
};

// The command line after parsing: option values by name ("" for flags) and the files.
class Args {
public:
  Args(std::string command, const std::vector<OptSpec> &specs, const std::vector<std::string> &argv);
  const std::string &command() const { return command_; }
  bool has(const std::string &name) const { return values_.count(name) != 0; }
  std::string text(const std::string &name, const std::string &fallback = "") const;
  int64_t integer(const std::string &name, int64_t fallback, int64_t lo, int64_t hi) const;
  double real(const std::string &name, double fallback) const;
  const std::vector<std::string> &files() const { return files_; }
  // Throws UsageError unless lo <= files().size() <= hi.
  void expect_files(size_t lo, size_t hi, const char *what) const;
  // The output file of -o (required: UsageError when missing).
  std::string output(const char *name = "-o") const;

private:
  std::string command_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> files_;
};

// Options that every computing subcommand accepts (--backend, --sched, --ncpus) and their help.
std::vector<OptSpec> runtime_options();
extern const char *const runtime_options_help;
// What the subcommands that read files say about them (after their options).
extern const char *const files_help;

// Throws UsageError when --sched names no StarPU scheduler; main calls it before a subcommand
// runs, so the mistake is reported before any file is read (and with --plain too).
void check_runtime_args(const Args &args);

// exstar_init from --backend/--sched/--ncpus for the lifetime of the object; exstar_shutdown after.
class Session {
public:
  explicit Session(const Args &args);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
};

// Throws Failure with exstar_last_error() unless status is EXSTAR_SUCCESS.
void check(int status);

// A scalar result on stdout: %.17g, or %a with --hex; NaN always as "nan".
void print_scalar(double value, bool hex);
// The same formatting into a string (%.17g; inf, -inf, nan), used by the MatrixMarket writer.
std::string format_double(double value, bool hex = false);

// The note printed on stderr by --plain runs, so a baseline is never mistaken for an exstar result.
void note_plain(const char *what);

// How a subcommand runs under 'mpirun -np N': distributed over the N processes (it has a
// StarPU-MPI form), or on rank 0 alone while the other ranks wait and then exit with rank 0's
// code (main.cpp); either way one process reads, prints and writes.
enum class UnderMpi { rank0, distributed };

// A subcommand: its name, one line for the overview, its full help, its options, its body and
// how it runs under mpirun.
struct Command {
  const char *name;
  const char *summary;
  std::string (*help)();
  std::vector<OptSpec> (*options)();
  int (*run)(const Args &args);
  UnderMpi under_mpi;
};

// The registered subcommands (main.cpp holds the table).
const std::vector<Command> &commands();

} // namespace cli

#endif
