// Replays inputs through the MatrixMarket reader, without libFuzzer: replay_mm_read FILE|DIR...
// Every input must either read or be refused with cli::Failure (the reader's error type); a
// crash, a sanitizer report or any other exception fails the test. ctest runs it over
// tests/fuzz/regressions (every crash the fuzzer ever found) and tests/fuzz/corpus.
#include "examples/exstar/mmio.hpp"
#include "tests/fuzz/fuzz_limits.hpp"
#include <algorithm>
#include <cstdio>
#include <dirent.h>
#include <exception>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

// The file, or the files of the directory (an empty one is fine: no crash found yet).
bool inputs(const std::string &path, std::vector<std::string> &files)
{
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return false;
  if (!S_ISDIR(st.st_mode)) {
    files.push_back(path);
    return true;
  }
  if (DIR *d = opendir(path.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == ".." || name == "README.md") continue;
      files.push_back(path + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return true;
}

} // namespace

int main(int argc, char **argv)
{
  int bad = 0, count = 0;
  for (int a = 1; a < argc; ++a) {
    std::vector<std::string> files;
    if (!inputs(argv[a], files)) {
      std::fprintf(stderr, "replay_mm_read: %s: no such file or directory\n", argv[a]);
      return 1;
    }
    for (const std::string &f : files) {
      ++count;
      std::ifstream in(f, std::ios::binary);
      try {
        cli::Matrix m = cli::read_matrix(in, f, exstar_fuzz::max_elements);
        std::printf("read    %s: %lld x %lld\n", f.c_str(), (long long)m.rows, (long long)m.cols);
      } catch (const cli::Failure &e) {
        std::printf("refused %s\n", e.what());
      } catch (const std::exception &e) {
        std::printf("FAIL    %s: not a cli::Failure: %s\n", f.c_str(), e.what());
        ++bad;
      }
    }
  }
  std::printf("%d inputs, %d failures\n", count, bad);
  return bad == 0 ? 0 : 1;
}
