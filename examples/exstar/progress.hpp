// Long blocking library calls (the LU drivers) with a progress line on stderr.
#ifndef EXSTAR_TOOL_PROGRESS_HPP
#define EXSTAR_TOOL_PROGRESS_HPP

#include <functional>
#include <string>

namespace cli {

// What a library call returned, with exstar_last_error() read in the thread that made the call
// (the message is thread-local in the library).
struct CallResult {
  int status;
  std::string error;
};

// Runs call(). When stderr is a terminal, the call runs in a worker thread and, once it has
// taken more than half a second, the main thread redraws one line on stderr until it returns:
//   exstar: getrf [########------------]  40%  1520 tasks left  3.1 s /
// The fraction is the share of the StarPU tasks submitted so far that have completed
// (starpu_task_nsubmitted), so it can step back when the call submits a new phase.
// The line is erased at the end. When stderr is not a terminal nothing is printed and the call
// runs in the calling thread.
CallResult run_with_progress(const std::string &label, const std::function<int()> &call);

} // namespace cli

#endif
