// Exact accumulators as StarPU data with reduction methods, and their rounding task.
#include "runtime/internal.h"
#include "core/accumulator.h"

int exstar_acc_register(starpu_data_handle_t *acc)
{
  if (int s = exstar_rt::require_init("exstar_acc_register")) return s;
  if (!acc) return exstar_set_error(EXSTAR_ERR_ARG, "exstar_acc_register: acc is NULL");
  // No home buffer: StarPU allocates where the first task runs, and the REDUX init codelet
  // zeroes every per-worker copy. A first W access (the zero task) gives it a value.
  starpu_vector_data_register(acc, -1, 0, EXSTAR_ACC_WORDS, sizeof(exstar_i64));
  starpu_data_set_reduction_methods(*acc, &exstar_acc_redux_cl, &exstar_acc_init_cl);
  int ret = starpu_task_insert(&exstar_acc_init_cl, STARPU_W, *acc, STARPU_NAME, "exstar_acc_zero", 0);
  if (ret != 0) {
    starpu_data_unregister_submit(*acc);
    return exstar_rt::submit_status(ret, "exstar_acc_register");
  }
  return EXSTAR_SUCCESS;
}

int exstar_acc_round_insert(starpu_data_handle_t acc, starpu_data_handle_t result)
{
  if (int s = exstar_rt::require_init("exstar_acc_round_insert")) return s;
  if (!acc || !result) return exstar_set_error(EXSTAR_ERR_ARG, "exstar_acc_round_insert: NULL handle");
  int ret = starpu_task_insert(&exstar_acc_round_cl, STARPU_R, acc, STARPU_W, result, STARPU_NAME,
                               "exstar_acc_round", 0);
  return exstar_rt::submit_status(ret, "exstar_acc_round_insert");
}

void exstar_acc_unregister(starpu_data_handle_t acc)
{
  if (acc) starpu_data_unregister(acc);
}
