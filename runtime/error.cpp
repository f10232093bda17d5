// Status names and the per-thread message of the last error.
#include "runtime/internal.h"
#include "codelets/codelets.h"
#include <cerrno>
#include <cstdarg>
#include <cstdio>

namespace {
thread_local char last_error[1024] = "";
}

extern "C" int exstar_set_error(int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return status;
}

const char *exstar_last_error(void) { return last_error; }

const char *exstar_status_name(int status)
{
  switch (status) {
  case EXSTAR_SUCCESS: return "success";
  case EXSTAR_ERR_ARG: return "invalid argument";
  case EXSTAR_ERR_NOT_INIT: return "exstar not initialized";
  case EXSTAR_ERR_STARPU: return "StarPU error";
  case EXSTAR_ERR_NO_WORKER: return "no worker for the requested back end";
  case EXSTAR_ERR_OPENCL: return "OpenCL error";
  case EXSTAR_ERR_CUDA: return "CUDA error";
  case EXSTAR_ERR_NOMEM: return "out of memory";
  case EXSTAR_ERR_SINGULAR: return "singular";
  case EXSTAR_ERR_NONFINITE: return "non-finite result";
  case EXSTAR_ERR_NOT_POSDEF: return "not positive definite";
  default: return "unknown status";
  }
}

namespace exstar_rt {

void clear_error() { last_error[0] = '\0'; }

int take_codelet_error()
{
  char msg[512];
  int s = exstar_codelet_take_error(msg, sizeof msg);
  return s ? exstar_set_error(s, "%s", msg) : EXSTAR_SUCCESS;
}

int submit_status(int ret, const char *who)
{
  if (ret == 0) return EXSTAR_SUCCESS;
  if (ret == -ENODEV)
    return exstar_set_error(EXSTAR_ERR_NO_WORKER, "%s: no StarPU worker can run this task", who);
  return exstar_set_error(EXSTAR_ERR_STARPU, "%s: task submission failed (%d)", who, ret);
}

int check_vector(const char *who, const char *name, int64_t n, const void *x, int64_t inc)
{
  if (n < 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: n = %lld < 0", who, (long long)n);
  if (inc == 0) return exstar_set_error(EXSTAR_ERR_ARG, "%s: inc%s = 0", who, name);
  if (n > 0 && !x) return exstar_set_error(EXSTAR_ERR_ARG, "%s: %s is NULL", who, name);
  return EXSTAR_SUCCESS;
}

} // namespace exstar_rt
