// The tool's output files: checked before computing, written through temporary files that are
// renamed over their targets together at the end and removed on failure or on a signal.
#include "mmio.hpp"
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cli {

namespace {

[[noreturn]] void fail_errno(const std::string &path, const std::string &what, int err)
{
  throw Failure(path + ": " + what + ": " + std::strerror(err));
}

[[noreturn]] void fail_io(const std::string &path, const std::string &what) { fail_errno(path, what, errno); }

// ---- temporary files that a signal must remove (async-signal-safe: fixed arrays, unlink) ----

const int max_temps = 8;
char temp_names[max_temps][PATH_MAX];
volatile sig_atomic_t temp_live[max_temps];
const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

extern "C" void remove_temps_and_reraise(int sig)
{
  for (int i = 0; i < max_temps; ++i)
    if (temp_live[i]) unlink(temp_names[i]);
  signal(sig, SIG_DFL); // SA_RESETHAND did it; said again for clarity
  raise(sig);           // delivered, with the default action, when the handler returns
}

// Once per process; a signal ignored (nohup, a background job's SIGINT) stays ignored.
void install_cleanup_handlers()
{
  static bool installed = false;
  if (installed) return;
  installed = true;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = remove_temps_and_reraise;
  sigemptyset(&sa.sa_mask);
  for (int sig : cleanup_signals) sigaddset(&sa.sa_mask, sig);
  sa.sa_flags = SA_RESETHAND;
  for (int sig : cleanup_signals) {
    struct sigaction old;
    if (sigaction(sig, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

// Holds the cleanup signals back in this thread while a temporary file is created and listed.
class CleanupSignalsBlocked {
public:
  CleanupSignalsBlocked()
  {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : cleanup_signals) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~CleanupSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

private:
  sigset_t old_;
};

int list_temp(const std::string &name)
{
  for (int i = 0; i < max_temps; ++i) {
    if (temp_live[i]) continue;
    std::memcpy(temp_names[i], name.c_str(), name.size() + 1); // mkstemp's name fits PATH_MAX
    std::atomic_signal_fence(std::memory_order_seq_cst);        // the name before the flag
    temp_live[i] = 1;
    return i;
  }
  return -1;
}

void unlist_temp(int slot)
{
  if (slot >= 0) temp_live[slot] = 0;
}

// ---- what an output path names ----

std::string parent_dir(const std::string &path)
{
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_name(const std::string &path)
{
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The file a chain of symlinks ends at (it may not exist yet: a dangling link names the file
// to create), one link at a time.
std::string follow_links(const std::string &path)
{
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    char link[PATH_MAX];
    ssize_t n = readlink(p.c_str(), link, sizeof link - 1);
    if (n < 0) fail_io(path, "cannot read the symbolic link");
    std::string to(link, (size_t)n);
    p = to[0] == '/' ? to : parent_dir(p) + "/" + to;
  }
  throw Failure(path + ": too many levels of symbolic links");
}

const char *nothing_computed = " (nothing computed)";

// A failed check, before anything is computed: "PATH: what: strerror (nothing computed)".
[[noreturn]] void refuse_io(const std::string &path, const std::string &what)
{
  throw Failure(path + ": " + what + ": " + std::strerror(errno) + nothing_computed);
}

struct Target {
  enum Kind { absent, regular, directory, in_place, unusable };
  std::string path; // as given
  std::string file; // what is written or replaced
  Kind kind = absent;
  struct stat st;   // file's, when it exists
};

Target::Kind kind_of(const struct stat &st)
{
  if (S_ISREG(st.st_mode)) return Target::regular;
  if (S_ISDIR(st.st_mode)) return Target::directory;
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return Target::in_place;
  return Target::unusable;
}

// A device or FIFO is opened by the name given (/dev/stdout's link may lead to "pipe:[...]").
Target resolve(const std::string &path)
{
  Target t;
  t.path = path;
  t.file = path;
  if (stat(path.c_str(), &t.st) == 0) {
    t.kind = kind_of(t.st);
    if (t.kind == Target::regular) t.file = follow_links(path);
    return t;
  }
  if (errno != ENOENT && errno != ENOTDIR) refuse_io(path, "cannot access");
  t.file = follow_links(path);
  return t;
}

void check_directory(const Target &t)
{
  std::string dir = parent_dir(t.file);
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) throw Failure(t.path + ": directory '" + dir + "' does not exist" + nothing_computed);
    refuse_io(t.path, "cannot access directory '" + dir + "'");
  }
  if (!S_ISDIR(st.st_mode)) throw Failure(t.path + ": '" + dir + "' is not a directory" + nothing_computed);
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    refuse_io(t.path, "cannot write in directory '" + dir + "'");
}

void check_target(const Target &t)
{
  if (!t.file.empty() && t.file.back() == '/')
    throw Failure(t.path + ": names a directory" + nothing_computed);
  switch (t.kind) {
  case Target::directory: throw Failure(t.path + ": is a directory" + nothing_computed);
  case Target::unusable:
    throw Failure(t.path + ": not a regular file, a character device or a FIFO" + nothing_computed);
  case Target::in_place:
    if (access(t.file.c_str(), W_OK) != 0) refuse_io(t.path, "cannot write");
    return;
  case Target::regular:
    if (access(t.file.c_str(), W_OK) != 0) refuse_io(t.path, "cannot write");
    check_directory(t);
    return;
  case Target::absent: check_directory(t); return;
  }
}

// Equal for two spellings of one file: device and inode when it exists, else the real path of
// its directory and its name. Empty for a character device, which any number of outputs share.
std::string identity(const Target &t)
{
  if (t.kind == Target::in_place && S_ISCHR(t.st.st_mode)) return "";
  if (t.kind != Target::absent)
    return "inode " + std::to_string((unsigned long long)t.st.st_dev) + ":" +
           std::to_string((unsigned long long)t.st.st_ino);
  char *dir = realpath(parent_dir(t.file).c_str(), nullptr);
  if (!dir) fail_io(t.path, "cannot resolve its directory");
  std::string id = std::string("path ") + dir + "/" + base_name(t.file);
  free(dir);
  return id;
}

// ---- opening ----

int open_in_place(const Target &t)
{
  int fd = open(t.file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail_io(t.path, "cannot open");
  return fd;
}

// An existing file's owner (best effort) and mode; a new file 0666 & ~umask (mkstemp's is 0600).
void set_mode(int fd, const Target &t)
{
  if (t.kind == Target::regular) {
    if (fchown(fd, t.st.st_uid, t.st.st_gid) != 0) { /* not the owner: the mode still applies */ }
    fchmod(fd, t.st.st_mode & 07777);
    return;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
}

// mkstemp beside the target, listed for the signal handler before any signal can see it.
int create_temp(const Target &t, std::string &temp, int &slot)
{
  install_cleanup_handlers();
  CleanupSignalsBlocked blocked;
  std::string tmpl = t.file + ".tmpXXXXXX";
  if (tmpl.size() >= PATH_MAX) throw Failure(t.path + ": name too long");
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) fail_io(t.path, "cannot create a temporary file beside it");
  slot = list_temp(name.data());
  if (slot < 0) {
    close(fd);
    unlink(name.data());
    throw Failure(t.path + ": too many output files");
  }
  temp = name.data();
  set_mode(fd, t);
  return fd;
}

} // namespace

void check_outputs(const std::vector<NamedOutput> &outputs)
{
  std::vector<std::string> ids;
  for (const NamedOutput &o : outputs) {
    Target t = resolve(o.path);
    check_target(t);
    ids.push_back(identity(t));
  }
  for (size_t i = 0; i < ids.size(); ++i)
    for (size_t j = i + 1; j < ids.size(); ++j)
      if (!ids[i].empty() && ids[i] == ids[j])
        throw UsageError(std::string(outputs[i].option) + " and " + outputs[j].option + " name the same file ('" +
                         outputs[i].path + "' and '" + outputs[j].path + "')");
}

OutputFile::OutputFile(std::string path) : path_(std::move(path))
{
  Target t = resolve(path_); // check_outputs checked it before the work
  target_ = t.file;
  int fd = t.kind == Target::in_place ? open_in_place(t) : create_temp(t, temp_, temp_slot_);
  stream_ = fdopen(fd, "w");
  if (!stream_) {
    int e = errno;
    close(fd);
    if (!temp_.empty()) unlink(temp_.c_str());
    unlist_temp(temp_slot_);
    fail_errno(path_, "cannot open", e);
  }
}

OutputFile::~OutputFile()
{
  if (stream_) std::fclose(stream_);
  if (committed_ || temp_.empty()) return;
  unlink(temp_.c_str());
  unlist_temp(temp_slot_);
}

void OutputFile::finish()
{
  if (!stream_) return;
  int err = 0;
  errno = 0;
  if (std::fflush(stream_) != 0 || std::ferror(stream_)) err = errno ? errno : EIO;
  if (std::fclose(stream_) != 0 && !err) err = errno;
  stream_ = nullptr;
  if (err) fail_errno(path_, "write error", err);
}

void OutputFile::commit()
{
  finish();
  if (!temp_.empty() && std::rename(temp_.c_str(), target_.c_str()) != 0)
    fail_io(path_, "cannot rename the temporary file onto it");
  unlist_temp(temp_slot_);
  committed_ = true;
}

void commit_together(const std::vector<OutputFile *> &files)
{
  for (OutputFile *f : files) f->finish();
  for (OutputFile *f : files) f->commit();
}

} // namespace cli
