// The progress line of long library calls (see progress.hpp).
#include "progress.hpp"
#include "cli.hpp"
#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;

// Counts the tasks of the call: every rise of starpu_task_nsubmitted() between two polls is new
// work, every fall is work done, so 'done' never decreases.
class TaskCounter {
public:
  void poll()
  {
    long now = starpu_task_nsubmitted();
    if (now > last_) total_ += now - last_;
    last_ = now;
  }
  long left() const { return last_; }
  double fraction() const { return total_ > 0 ? (double)(total_ - last_) / (double)total_ : 0.0; }

private:
  long last_ = 0, total_ = 0;
};

void draw(const std::string &label, const TaskCounter &tasks, double seconds, unsigned tick)
{
  static const char spinner[] = "|/-\\";
  const int width = 20;
  int filled = (int)(tasks.fraction() * width);
  std::string bar(filled, '#');
  bar.append(width - filled, '-');
  // \r and "erase to end of line" redraw in place; one write per frame.
  std::fprintf(stderr, "\r\033[Kexstar: %s [%s] %3d%%  %ld tasks left  %.1f s %c", label.c_str(), bar.c_str(),
               (int)(tasks.fraction() * 100.0), tasks.left(), seconds, spinner[tick % 4]);
  std::fflush(stderr);
}

} // namespace

CallResult run_with_progress(const std::string &label, const std::function<int()> &call)
{
  CallResult result{EXSTAR_SUCCESS, ""};
  auto body = [&] {
    result.status = call();
    if (result.status != EXSTAR_SUCCESS) result.error = exstar_last_error();
  };
  if (!isatty(STDERR_FILENO)) {
    body();
    return result;
  }
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::thread worker([&] {
    body();
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    finished.notify_one();
  });
  const auto start = Clock::now();
  // Short calls draw nothing; EXSTAR_PROGRESS_AFTER_MS moves that threshold (the tests set 0).
  const char *after = std::getenv("EXSTAR_PROGRESS_AFTER_MS");
  const auto quiet = std::chrono::milliseconds(after ? std::atol(after) : 500);
  const auto frame = std::chrono::milliseconds(20);
  TaskCounter tasks;
  bool drawn = false;
  unsigned tick = 0;
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, frame, [&] { return done; })) {
      tasks.poll();
      std::chrono::duration<double> elapsed = Clock::now() - start;
      if (elapsed < quiet) continue;  // short calls draw nothing
      draw(label, tasks, elapsed.count(), tick++);
      drawn = true;
    }
  }
  worker.join();
  if (drawn) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  return result;
}

} // namespace cli
