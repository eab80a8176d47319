// The execution context: init_scope, run_functions_eagerly, executing_eagerly in every place,
// and TF's errors for a graph tensor used where its graph is not being built. Expected texts and
// counts are TF 2.21's (conformance/cases/fn_context_*.py and fn_scope_*.py record them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tfscope/context.h"
#include "tfscope/control_flow.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using Strings = std::vector<std::string>;

Strings ops_of(const ConcreteFunction& cf) {
  Strings out;
  for (auto& n : cf.graph()->nodes()) out.push_back(n->name + ":" + n->op());
  return out;
}

bool starts_with(const std::string& s, const std::string& p) {
  return s.rfind(p, 0) == 0;
}
bool ends_with(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

TEST(Context, InitScopeRunsOpsEagerlyInsideATrace) {
  // fn_context_init_scope: inside init_scope tf.executing_eagerly() is True and tf.constant(5)
  // is eager; used after it, the constant is captured as the Const "add/y".
  std::vector<bool> eager;
  auto g = function("ctx_init_scope", {"x"}, [&eager](Tensor x) {
    Tensor c;
    {
      InitScope init;
      eager.push_back(executing_eagerly());
      c = convert_to_tensor(Value(5));
    }
    eager.push_back(executing_eagerly());
    eager.push_back(c.is_eager());
    return add(x, Value(c));
  });
  EXPECT_EQ(g->call({Tensor::scalar<int32_t>(1)}).as_tensor().item<int32_t>(), 6);
  EXPECT_EQ(eager, (std::vector<bool>{true, false, true}));
  auto cf = g->get_concrete_function({Tensor::scalar<int32_t>(1)});
  EXPECT_EQ(ops_of(*cf),
            (Strings{"x:Placeholder", "add/y:Const", "add:AddV2", "Identity:Identity"}));
}

TEST(Context, RunFunctionsEagerlyRunsTheBodyWithoutTracing) {
  // fn_context_run_eagerly: with run_functions_eagerly(True) the body sees eager tensors and the
  // tracing count stays 0; switched off again, the next call traces.
  std::vector<bool> eager;
  auto f = function("ctx_run_eagerly", {"x"}, [&eager](Tensor x) {
    eager.push_back(executing_eagerly());
    return multiply(x, Value(2));
  });
  Context::get().set_run_functions_eagerly(true);
  EXPECT_TRUE(Context::get().functions_run_eagerly());
  EXPECT_EQ(f->call({Tensor::scalar<int32_t>(1)}).as_tensor().item<int32_t>(), 2);
  EXPECT_EQ(f->call({Tensor::scalar<int32_t>(2)}).as_tensor().item<int32_t>(), 4);
  EXPECT_EQ(f->experimental_get_tracing_count(), 0);
  Context::get().set_run_functions_eagerly(false);
  EXPECT_EQ(f->call({Tensor::scalar<int32_t>(1)}).as_tensor().item<int32_t>(), 2);
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  EXPECT_EQ(eager, (std::vector<bool>{true, true, false}));
}

TEST(Context, ALeakedGraphTensorUsedEagerlyIsOutOfScope) {
  // fn_scope_leak_eager: TF's TypeError, first paragraph and last line as TF writes them.
  std::vector<Tensor> saved;
  auto f1 = function("f1", {"x"}, [&saved](Tensor x) {
    Tensor y = add(x, Value(1));
    saved.push_back(y);
    return y;
  });
  f1->call({Tensor::scalar<int32_t>(1)});
  try {
    add(saved.at(0), Value(1));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    std::string m = e.what();
    EXPECT_TRUE(starts_with(m,
                            "<tf.Tensor 'add:0' shape=() dtype=int32> is out of scope and "
                            "cannot be used here. Use return values, explicit Python locals "
                            "or TensorFlow collections to access it.\nPlease see "
                            "https://www.tensorflow.org/guide/function#all_outputs_of_a_"
                            "tffunction_must_be_return_values for more information.\n\n"))
        << m;
    EXPECT_NE(m.find("\n\nThe tensor <tf.Tensor 'add:0' shape=() dtype=int32> cannot be accessed "
                     "from here, because it was defined in FuncGraph(name=f1, id="),
              std::string::npos)
        << m;
    EXPECT_TRUE(ends_with(m, "), which is out of scope.")) << m;
  }
}

TEST(Context, ALeakedTensorCapturedByAnotherFunctionFailsWhenItRuns) {
  // fn_scope_leak_capture: f2 traces (count 1) but its call raises the out-of-scope TypeError.
  std::vector<Tensor> saved;
  auto f1 = function("leak_f1", {"x"}, [&saved](Tensor x) {
    Tensor y = add(x, Value(1));
    saved.push_back(y);
    return y;
  });
  f1->call({Tensor::scalar<int32_t>(1)});
  auto f2 = function("leak_f2", {}, [&saved]() { return multiply(saved.at(0), Value(2)); });
  try {
    f2->call({});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    EXPECT_TRUE(starts_with(e.what(), "<tf.Tensor 'add:0' shape=() dtype=int32> is out of scope"))
        << e.what();
  }
  EXPECT_EQ(f2->experimental_get_tracing_count(), 1);
}

TEST(Context, ATensorLeakedOutOfAWhileBodyIsInaccessible) {
  // fn_scope_leak_while: the body's tensor, kept in a list and returned by the function, is
  // TF's InaccessibleTensorError naming both graphs; nothing is cached.
  std::vector<Tensor> leak;
  auto wl = function("wl", {"n"}, [&leak](Tensor n) {
    auto out = while_loop([n](const std::vector<Tensor>& v) { return less(v[0], Value(n)); },
                          [&leak](const std::vector<Tensor>& v) {
                            Tensor next = add(v[0], Value(1));
                            leak.push_back(next);
                            return std::vector<Tensor>{next};
                          },
                          {convert_to_tensor(Value(0))});
    (void)out;
    return Value(leak.at(0));
  });
  try {
    wl->call({Tensor::scalar<int32_t>(3)});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInaccessibleTensor);
    std::string m = e.what();
    EXPECT_TRUE(starts_with(m, "<tf.Tensor 'while/add:0' shape=() dtype=int32> is out of scope"))
        << m;
    EXPECT_NE(m.find("cannot be accessed from FuncGraph(name=wl, id="), std::string::npos) << m;
    EXPECT_NE(m.find("because it was defined in FuncGraph(name=while_body_"), std::string::npos)
        << m;
  }
  EXPECT_EQ(wl->experimental_get_tracing_count(), 0);
}

}  // namespace
}  // namespace tfs
