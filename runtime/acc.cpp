// Exact accumulators as StarPU data with reduction methods, and their rounding task.
#include "runtime/internal.h"
#include "runtime/check_handles.h"
#include "core/accumulator.h"

namespace exstar_rt {

int register_accs(const char *who, starpu_data_handle_t *accs, int64_t count)
{
  // No home buffer: StarPU allocates where the first task runs, and the REDUX init codelet
  // zeroes every per-worker copy. A first W access (the zero task) gives it a value.
  starpu_vector_data_register(accs, -1, 0, (uint32_t)(count * EXSTAR_ACC_WORDS), sizeof(exstar_i64));
  starpu_data_set_reduction_methods(*accs, &exstar_acc_redux_cl, &exstar_acc_init_cl);
  mark_accumulators(*accs); // what check_acc_handle recognises
  int ret = starpu_task_insert(&exstar_acc_init_cl, STARPU_W, *accs, STARPU_NAME, "exstar_acc_zero", 0);
  if (ret != 0) {
    starpu_data_unregister_submit(*accs);
    *accs = nullptr;
    return submit_status(ret, who);
  }
  return EXSTAR_SUCCESS;
}

} // namespace exstar_rt

int exstar_acc_register(starpu_data_handle_t *acc)
{
  if (int s = exstar_rt::require_init("exstar_acc_register")) return s;
  if (!acc) return exstar_set_error(EXSTAR_ERR_ARG, "exstar_acc_register: acc is NULL");
  return exstar_rt::register_accs("exstar_acc_register", acc, 1);
}

int exstar_acc_round_insert(starpu_data_handle_t acc, starpu_data_handle_t result)
{
  const char *who = "exstar_acc_round_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = exstar_rt::check_acc_handle(who, "acc", acc)) return s;
  if (int s = exstar_rt::check_variable_handle(who, "result", result, sizeof(double))) return s;
  int ret = starpu_task_insert(&exstar_acc_round_cl, STARPU_R, acc, STARPU_W, result, STARPU_NAME,
                               "exstar_acc_round", 0);
  return exstar_rt::submit_status(ret, who);
}

int exstar_acc_round_sqrt_insert(starpu_data_handle_t acc, starpu_data_handle_t result)
{
  const char *who = "exstar_acc_round_sqrt_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (int s = exstar_rt::check_acc_handle(who, "acc", acc)) return s;
  if (int s = exstar_rt::check_variable_handle(who, "result", result, sizeof(double))) return s;
  int ret = starpu_task_insert(&exstar_acc_round_sqrt_cl, STARPU_R, acc, STARPU_W, result, STARPU_NAME,
                               "exstar_acc_round_sqrt", 0);
  return exstar_rt::submit_status(ret, who);
}

int exstar_acc_zero_insert(starpu_data_handle_t acc)
{
  const char *who = "exstar_acc_zero_insert";
  if (int s = exstar_rt::require_init(who)) return s;
  if (!acc) return exstar_set_error(EXSTAR_ERR_ARG, "%s: acc is NULL", who);
  if (!exstar_rt::is_accumulator(acc)) // one accumulator or an array of them
    return exstar_set_error(EXSTAR_ERR_ARG, "%s: acc is not an exstar accumulator (exstar_acc_register, "
                            "exstar_accs_register)", who);
  int ret = starpu_task_insert(&exstar_acc_init_cl, STARPU_W, acc, STARPU_NAME, "exstar_acc_zero", 0);
  return exstar_rt::submit_status(ret, who);
}

void exstar_acc_unregister(starpu_data_handle_t acc)
{
  if (acc) starpu_data_unregister(acc);
}
