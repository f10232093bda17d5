// Errors raised inside codelet functions, kept until the runtime takes them.
#include "codelets/glue.h"
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

namespace {
std::mutex error_mutex;
int first_status = 0;
std::string first_message;
} // namespace

void exstar_codelet_fail(int status, const char *fmt, ...)
{
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  std::lock_guard<std::mutex> lock(error_mutex);
  if (first_status == 0) {
    first_status = status;
    first_message = buf;
  }
}

int exstar_codelet_take_error(char *msg, size_t len)
{
  std::lock_guard<std::mutex> lock(error_mutex);
  int s = first_status;
  if (s != 0 && msg && len) std::snprintf(msg, len, "%s", first_message.c_str());
  first_status = 0;
  first_message.clear();
  return s;
}

const char *exstar_codelet_current_name(void)
{
  struct starpu_task *t = starpu_task_get_current();
  return t && t->cl && t->cl->name ? t->cl->name : "a task";
}

#ifdef EXSTAR_WITH_CUDA_CODELETS
void exstar_codelet_cuda_check(int status, const char *what)
{
  if (status != 0)
    exstar_codelet_fail(EXSTAR_ERR_CUDA, "%s: %s", what, exstar_cuda_error_string(status));
}
#endif
