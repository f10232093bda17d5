// Every public *_insert call checks every StarPU handle it takes, before it submits anything:
// a wrong handle gives EXSTAR_ERR_ARG and a message "<call>: <argument> ...", no task, and the
// library keeps working. StarPU itself trusts handles: without these checks a vector of float
// is read past its end and a plain vector in STARPU_REDUX mode aborts the process.
//
// The sweep: each call is listed with its handle parameters and the kind each must be; for each
// property below, every parameter of every call is replaced in turn by each wrong handle of that
// property for its kind, the others staying well formed.
#include <catch2/catch.hpp>
#include "tests/cases.hpp"
#include "tests/exstar_env.hpp"
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace exstar_test;

namespace {

// What a handle parameter must be.
enum class kind {
  vec,    // vector of doubles: the calls use n = 4 from offset 1 with stride 2, so 8 elements
  mat,    // matrix of doubles: 4 x 4 blocks at (1, 1) (getrf: 5 x 5 at (0, 0)), so 5 x 5
  dense,  // matrix or vector of doubles (laswp's a: rows 1..4; invscal_h's divisor: element 6)
  acc,    // one exstar accumulator
  ipiv,   // vector of int32 (up to 8 entries read)
  index,  // variable of one int64
  result, // variable of one double
};

struct param {
  const char *name; // as the header spells it: the message must name it
  kind k;
};

using handles = std::vector<starpu_data_handle_t>;

struct insert_call {
  const char *who;
  std::vector<param> params;
  std::function<int(const handles &)> run; // the call, with h[i] for params[i]
};

const std::vector<insert_call> &insert_calls()
{
  static const std::vector<insert_call> calls = {
      {"exstar_acc_round_insert", {{"acc", kind::acc}, {"result", kind::result}},
       [](const handles &h) { return exstar_acc_round_insert(h[0], h[1]); }},
      {"exstar_dsum_insert", {{"x", kind::vec}, {"acc", kind::acc}},
       [](const handles &h) { return exstar_dsum_insert(4, h[0], 1, 2, h[1], 2); }},
      {"exstar_ddot_insert", {{"x", kind::vec}, {"y", kind::vec}, {"acc", kind::acc}},
       [](const handles &h) { return exstar_ddot_insert(4, h[0], 1, 2, h[1], 1, 2, h[2], 2); }},
      {"exstar_dscal_insert", {{"x", kind::vec}},
       [](const handles &h) { return exstar_dscal_insert(4, 2.0, h[0], 1, 2); }},
      {"exstar_dinvscal_insert", {{"x", kind::vec}},
       [](const handles &h) { return exstar_dinvscal_insert(4, 2.0, h[0], 1, 2); }},
      {"exstar_dinvscal_insert_h", {{"h_alpha", kind::dense}, {"x", kind::vec}},
       [](const handles &h) { return exstar_dinvscal_insert_h(4, h[0], 6, h[1], 1, 2, 0); }},
      {"exstar_daxpy_insert", {{"x", kind::vec}, {"y", kind::vec}},
       [](const handles &h) { return exstar_daxpy_insert(4, 2.0, h[0], 1, 2, h[1], 1, 2); }},
      {"exstar_dswap_insert", {{"x", kind::vec}, {"y", kind::vec}},
       [](const handles &h) { return exstar_dswap_insert(4, h[0], 1, 2, h[1], 1, 2); }},
      {"exstar_dlaswp_insert_h", {{"a", kind::dense}, {"h_ipiv", kind::ipiv}},
       [](const handles &h) { return exstar_dlaswp_insert_h(1, h[0], 0, 1, 4, h[1], 1, 1); }},
      {"exstar_idamax_insert", {{"x", kind::vec}, {"index", kind::index}},
       [](const handles &h) { return exstar_idamax_insert(4, h[0], 1, 2, h[1], 2); }},
      {"exstar_idamax_ipiv_insert", {{"x", kind::vec}, {"h_ipiv", kind::ipiv}},
       [](const handles &h) { return exstar_idamax_ipiv_insert(4, h[0], 1, 2, h[1], 7, 1, 2); }},
      {"exstar_dgemv_insert", {{"A", kind::mat}, {"x", kind::vec}, {"y", kind::vec}},
       [](const handles &h) {
         return exstar_dgemv_insert('N', 4, 4, 1.0, h[0], 1, 1, h[1], 1, 2, 0.5, h[2], 1, 2, 0, 0);
       }},
      {"exstar_dtrsv_insert", {{"T", kind::mat}, {"x", kind::vec}},
       [](const handles &h) { return exstar_dtrsv_insert('L', 'N', 'N', 4, h[0], 1, 1, h[1], 1, 2, 0); }},
      {"exstar_dtrsv_refined_insert", {{"T", kind::mat}, {"x", kind::vec}},
       [](const handles &h) { return exstar_dtrsv_refined_insert('U', 'T', 'N', 4, h[0], 1, 1, h[1], 1, 2, 1, 2); }},
      {"exstar_dgetrf_insert", {{"hA", kind::mat}, {"hipiv", kind::ipiv}},
       [](const handles &h) { return exstar_dgetrf_insert(5, 5, h[0], h[1], 2); }},
      {"exstar_dgetrf_plain_insert", {{"hA", kind::mat}, {"hipiv", kind::ipiv}},
       [](const handles &h) { return exstar_dgetrf_plain_insert(5, 5, h[0], h[1]); }},
  };
  return calls;
}

// The well-formed handles of each kind (three of each, so that a call's two vectors are two
// handles) and the ill-formed ones, all on buffers of this object.
class fixture {
public:
  fixture()
  {
    for (int i = 0; i < 3; ++i) {
      good_[kind::vec].push_back(vector_of<double>(8, 1.0 + i));
      good_[kind::mat].push_back(matrix_of<double>(5, 5, 5));
      good_[kind::dense].push_back(matrix_of<double>(5, 5, 5));
      good_[kind::ipiv].push_back(vector_of<int32_t>(8, 1));
      good_[kind::index].push_back(variable_of<int64_t>(0));
      good_[kind::result].push_back(variable_of<double>(0));
      starpu_data_handle_t acc;
      REQUIRE(exstar_acc_register(&acc) == EXSTAR_SUCCESS);
      accs_.push_back(acc);
      good_[kind::acc].push_back(acc);
    }
    REQUIRE(exstar_acc_register(&spare_acc_) == EXSTAR_SUCCESS);
    accs_.push_back(spare_acc_);
    REQUIRE(exstar_accs_register(&acc_array_, 2) == EXSTAR_SUCCESS);
    accs_.push_back(acc_array_);
    acc_words_ = (int64_t)starpu_vector_get_nx(spare_acc_);
    starpu_task_wait_for_all(); // the accumulators' zero tasks: from here on, no task runs
  }
  ~fixture()
  {
    starpu_task_wait_for_all();
    for (starpu_data_handle_t h : plain_) starpu_data_unregister(h);
    for (starpu_data_handle_t h : accs_) exstar_acc_unregister(h);
  }
  fixture(const fixture &) = delete;
  fixture &operator=(const fixture &) = delete;

  handles good(const insert_call &c)
  {
    handles h;
    std::map<kind, int> used;
    for (const param &p : c.params) h.push_back(good_[p.k][used[p.k]++]);
    return h;
  }

  // NULL for every kind.
  std::vector<starpu_data_handle_t> null_handle(kind) { return {nullptr}; }

  // A handle of another StarPU interface than the kind's.
  std::vector<starpu_data_handle_t> wrong_interface(kind k)
  {
    switch (k) {
    case kind::vec: return {variable_of<double>(1.0), matrix_of<double>(8, 1, 8)};
    case kind::mat: return {vector_of<double>(25, 1.0), variable_of<double>(1.0)};
    case kind::dense: return {variable_of<double>(1.0)};
    case kind::acc: return {variable_of<double>(0.0)};
    case kind::ipiv: return {variable_of<int32_t>(1), matrix_of<int32_t>(8, 1, 8)};
    case kind::index: return {vector_of<int64_t>(1, 0)};
    case kind::result: return {vector_of<double>(1, 0.0)};
    }
    return {};
  }

  // The right interface with elements of another size (a float vector: half the bytes).
  std::vector<starpu_data_handle_t> wrong_element_size(kind k)
  {
    switch (k) {
    case kind::vec: return {vector_of<float>(8, 1.0f), vector_of<int32_t>(16, 1)};
    case kind::mat: return {matrix_of<float>(5, 5, 5)};
    case kind::dense: return {vector_of<float>(8, 1.0f), matrix_of<float>(5, 5, 5)};
    case kind::ipiv: return {vector_of<int64_t>(8, 1), vector_of<double>(8, 1.0)};
    case kind::index: return {variable_of<int32_t>(0)};
    case kind::result: return {variable_of<float>(0.0f)};
    case kind::acc: return {}; // an accumulator is recognised by its mark, see below
    }
    return {};
  }

  // The right interface and elements, too few of them for the call's offset, stride or block.
  std::vector<starpu_data_handle_t> too_short(kind k)
  {
    switch (k) {
    case kind::vec: return {vector_of<double>(7, 1.0), vector_of<double>(1, 1.0)};
    case kind::mat: return {matrix_of<double>(5, 4, 5), matrix_of<double>(4, 5, 4)};
    case kind::dense: return {vector_of<double>(3, 1.0), matrix_of<double>(3, 2, 3)};
    case kind::ipiv: return {vector_of<int32_t>(3, 1)};
    default: return {};
    }
  }

  // Data where an accumulator is expected: the double vector, a look-alike of an
  // accumulator's shape (words of 8 bytes) registered by the user, an array of accumulators.
  std::vector<starpu_data_handle_t> not_an_accumulator(kind k)
  {
    if (k != kind::acc) return {};
    return {vector_of<double>(8, 0.0), vector_of<int64_t>(acc_words_, 0), acc_array_};
  }

  // An exstar accumulator where data is expected.
  std::vector<starpu_data_handle_t> an_accumulator(kind k)
  {
    if (k == kind::acc) return {};
    return {spare_acc_};
  }

  // A matrix registered with ld < nx (StarPU accepts it; its columns overlap).
  std::vector<starpu_data_handle_t> overlapping_columns(kind k)
  {
    if (k != kind::mat && k != kind::dense) return {};
    return {matrix_of<double>(5, 5, 4)};
  }

  starpu_data_handle_t good_vector(int i) { return good_[kind::vec][i]; }
  starpu_data_handle_t good_acc() { return good_[kind::acc][0]; }
  starpu_data_handle_t good_result() { return good_[kind::result][0]; }
  double *buffer_of_vector(int i) { return (double *)buffer_of_[good_vector(i)]; }

private:
  template <class T> T *storage(size_t count)
  {
    std::shared_ptr<T> p(new T[count](), std::default_delete<T[]>());
    buffers_.push_back(p);
    return p.get();
  }
  template <class T> starpu_data_handle_t vector_of(int64_t n, T value)
  {
    T *p = storage<T>((size_t)n);
    for (int64_t i = 0; i < n; ++i) p[i] = value + (T)i;
    starpu_data_handle_t h;
    starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)p, (uint32_t)n, sizeof(T));
    plain_.push_back(h);
    buffer_of_[h] = p;
    return h;
  }
  // nx x ny, column-major with leading dimension ld; diagonally dominant (4 + ..., 1 elsewhere).
  template <class T> starpu_data_handle_t matrix_of(int64_t nx, int64_t ny, int64_t ld)
  {
    T *p = storage<T>((size_t)(ld * ny + nx));
    for (int64_t j = 0; j < ny; ++j)
      for (int64_t i = 0; i < nx; ++i) p[i + j * ld] = (T)(i == j ? 4 + i : 1);
    starpu_data_handle_t h;
    starpu_matrix_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)p, (uint32_t)ld, (uint32_t)nx, (uint32_t)ny,
                                sizeof(T));
    plain_.push_back(h);
    return h;
  }
  template <class T> starpu_data_handle_t variable_of(T value)
  {
    T *p = storage<T>(1);
    *p = value;
    starpu_data_handle_t h;
    starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)p, sizeof(T));
    plain_.push_back(h);
    return h;
  }

  std::vector<std::shared_ptr<void>> buffers_;
  std::vector<starpu_data_handle_t> plain_, accs_;
  std::map<kind, std::vector<starpu_data_handle_t>> good_;
  std::map<starpu_data_handle_t, void *> buffer_of_;
  starpu_data_handle_t spare_acc_ = nullptr, acc_array_ = nullptr;
  int64_t acc_words_ = 0;
};

using wrong_handles = std::vector<starpu_data_handle_t> (fixture::*)(kind);

// Every call, every parameter replaced in turn by each wrong handle of its kind: EXSTAR_ERR_ARG,
// a message "<call>: <parameter> ...", and no task submitted. Returns the rejections checked.
int expect_all_rejected(fixture &f, wrong_handles wrong)
{
  int checked = 0;
  for (const insert_call &c : insert_calls())
    for (size_t i = 0; i < c.params.size(); ++i)
      for (starpu_data_handle_t bad : (f.*wrong)(c.params[i].k)) {
        handles h = f.good(c);
        h[i] = bad;
        const int status = c.run(h);
        const std::string msg = exstar_last_error(), prefix = std::string(c.who) + ": " + c.params[i].name + " ";
        INFO(c.who << ", argument " << c.params[i].name << ": " << msg);
        CHECK(status == EXSTAR_ERR_ARG);
        CHECK(msg.compare(0, prefix.size(), prefix) == 0);
        CHECK(starpu_task_nsubmitted() == 0);
        ++checked;
      }
  return checked;
}

} // namespace

TEST_CASE("every insert call accepts the well-formed handles of the sweep", "[handles]")
{
  session s;
  fixture f;
  for (const insert_call &c : insert_calls()) {
    INFO(c.who << ": " << exstar_last_error());
    CHECK(c.run(f.good(c)) == EXSTAR_SUCCESS);
    starpu_task_wait_for_all();
  }
}

TEST_CASE("a NULL handle is rejected, naming the argument", "[handles]")
{
  session s;
  fixture f;
  CHECK(expect_all_rejected(f, &fixture::null_handle) > 30);
}

TEST_CASE("a handle of the wrong StarPU interface is rejected", "[handles]")
{
  session s;
  fixture f;
  CHECK(expect_all_rejected(f, &fixture::wrong_interface) > 30);
}

TEST_CASE("a handle with elements of the wrong size is rejected, not read past its end", "[handles]")
{
  session s;
  fixture f;
  CHECK(expect_all_rejected(f, &fixture::wrong_element_size) > 30);
}

TEST_CASE("a handle too short for the offset, stride or block is rejected", "[handles]")
{
  session s;
  fixture f;
  CHECK(expect_all_rejected(f, &fixture::too_short) > 30);
}

TEST_CASE("a matrix registered with ld < nx is rejected", "[handles]")
{
  session s;
  fixture f;
  CHECK(expect_all_rejected(f, &fixture::overlapping_columns) >= 7);
}

TEST_CASE("data where an accumulator is expected is rejected, and StarPU does not abort", "[handles]")
{
  session s;
  fixture f;
  CHECK(expect_all_rejected(f, &fixture::not_an_accumulator) >= 9);
}

TEST_CASE("an accumulator where data is expected is rejected", "[handles]")
{
  session s;
  fixture f;
  CHECK(expect_all_rejected(f, &fixture::an_accumulator) > 25);
}

TEST_CASE("after rejected calls, correct calls succeed with the exact result", "[handles]")
{
  session s;
  fixture f;
  for (wrong_handles w : {&fixture::null_handle, &fixture::wrong_interface, &fixture::wrong_element_size,
                          &fixture::too_short, &fixture::not_an_accumulator, &fixture::an_accumulator})
    expect_all_rejected(f, w);
  // x·y over elements 1, 3, 5, 7 of two good vectors, then x := 2·x there.
  std::vector<double> x, y;
  for (int i = 1; i < 8; i += 2) {
    x.push_back(f.buffer_of_vector(0)[i]);
    y.push_back(f.buffer_of_vector(1)[i]);
  }
  REQUIRE(exstar_ddot_insert(4, f.good_vector(0), 1, 2, f.good_vector(1), 1, 2, f.good_acc(), 2) == EXSTAR_SUCCESS);
  REQUIRE(exstar_acc_round_insert(f.good_acc(), f.good_result()) == EXSTAR_SUCCESS);
  REQUIRE(exstar_dscal_insert(4, 2.0, f.good_vector(0), 1, 2) == EXSTAR_SUCCESS);
  starpu_task_wait_for_all();
  REQUIRE(starpu_data_acquire(f.good_result(), STARPU_R) == 0);
  CHECK(same_bits(*(double *)starpu_variable_get_local_ptr(f.good_result()), ref_dot(x, y)));
  starpu_data_release(f.good_result());
  REQUIRE(starpu_data_acquire(f.good_vector(0), STARPU_R) == 0);
  for (int i = 0; i < 4; ++i) CHECK(same_bits(f.buffer_of_vector(0)[1 + 2 * i], 2.0 * x[(size_t)i]));
  starpu_data_release(f.good_vector(0));
}
