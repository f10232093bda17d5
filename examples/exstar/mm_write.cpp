// MatrixMarket writer and the atomic output file (temporary file + rename).
#include "cli.hpp"
#include "mmio.hpp"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace cli {

namespace {

[[noreturn]] void fail_io(const std::string &path, const char *what)
{
  throw Failure(path + ": " + what + ": " + std::strerror(errno));
}

// mkstemp creates files 0600; outputs get the usual 0666 & ~umask.
void set_default_mode(int fd)
{
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
}

} // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path))
{
  // Same directory as the target, so that rename() replaces it atomically.
  std::string tmpl = path_ + ".tmpXXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) fail_io(path_, "cannot create");
  temp_ = name.data();
  set_default_mode(fd);
  stream_ = fdopen(fd, "w");
  if (!stream_) {
    int e = errno;
    close(fd);
    std::remove(temp_.c_str());
    errno = e;
    fail_io(path_, "cannot open");
  }
}

OutputFile::~OutputFile()
{
  if (stream_) std::fclose(stream_);
  if (!committed_) std::remove(temp_.c_str());
}

void OutputFile::finish()
{
  if (!stream_) return;
  bool bad = std::fflush(stream_) != 0 || std::ferror(stream_);
  bad = (std::fclose(stream_) != 0) || bad;
  stream_ = nullptr;
  if (bad) fail_io(path_, "write error");
}

void OutputFile::commit()
{
  finish();
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) fail_io(path_, "cannot rename the temporary file onto it");
  committed_ = true;
}

void write_matrix(OutputFile &out, int64_t rows, int64_t cols, const std::vector<double> &values,
                  const std::string &comment)
{
  FILE *f = out.stream();
  std::fprintf(f, "%%%%MatrixMarket matrix array real general\n");
  if (!comment.empty()) std::fprintf(f, "%% %s\n", comment.c_str());
  std::fprintf(f, "%lld %lld\n", (long long)rows, (long long)cols);
  for (double v : values) std::fprintf(f, "%s\n", format_double(v).c_str());
}

} // namespace cli
