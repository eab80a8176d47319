// A function call is an op: a Function or ConcreteFunction called while another function is
// traced adds a PartitionedCall (StatefulPartitionedCall for a stateful callee) to the graph
// being built, with the callee in that graph's library and the callee's captures fed by the
// caller; eagerly the same call op runs through the op dispatch. Every expected graph, count and
// value is TF 2.21's for the same program (conformance/cases/fn_*.py record them under real TF;
// the case is named beside each test).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/variable.h"

namespace tfs {
namespace {

using Strings = std::vector<std::string>;

Strings ops_of(const ConcreteFunction& cf) {
  Strings out;
  for (auto& n : cf.graph()->nodes()) out.push_back(n->name + ":" + n->op());
  return out;
}

Strings inputs_of(const ConcreteFunction& cf, const std::string& node) {
  Strings out;
  Node* n = cf.graph()->find_node(node);
  if (!n) return {"<no node " + node + ">"};
  for (auto& i : n->inputs)
    out.push_back(i.node->name + (i.index ? ":" + std::to_string(i.index) : ""));
  for (auto* c : n->control_inputs) out.push_back("^" + c->name);
  return out;
}

Tensor i32(std::vector<int32_t> v) {
  return Tensor::from_vector<int32_t>(v);
}

TEST(NestedCall, InnerFunctionBecomesAPartitionedCall) {
  // fn_nested_basic: outer(x) = inner(x) + 1, inner(x) = x * 2.
  auto inner = function("nc_inner", {"x"}, [](Tensor x) { return multiply(x, Value(2)); });
  auto outer = function("nc_outer", {"x"},
                        [inner](Tensor x) { return add(inner->call({x}).as_tensor(), Value(1)); });
  auto cf = outer->get_concrete_function({i32({1, 2})});
  EXPECT_EQ(ops_of(*cf), (Strings{"x:Placeholder", "PartitionedCall:PartitionedCall", "add/y:Const",
                                  "add:AddV2", "Identity:Identity"}));
  EXPECT_EQ(inputs_of(*cf, "PartitionedCall"), Strings{"x"});
  Node* call = cf->graph()->find_node("PartitionedCall");
  const std::string callee = attr_func(call->attrs, "f").name;
  EXPECT_EQ(callee, inner->concrete_functions().at(0)->name());
  EXPECT_NE(cf->graph()->find_function(callee), nullptr);
  EXPECT_EQ(attr_types(call->attrs, "Tin"), std::vector<DType>{DType::kInt32});
  EXPECT_EQ(attr_types(call->attrs, "Tout"), std::vector<DType>{DType::kInt32});
  EXPECT_EQ(attr_ints(call->attrs, "_read_only_resource_inputs"), std::vector<int64_t>{});
  EXPECT_EQ(outer->call({i32({1, 2})}).as_tensor().to_vector<int32_t>(),
            (std::vector<int32_t>{3, 5}));
  EXPECT_EQ(inner->experimental_get_tracing_count(), 1);
  EXPECT_EQ(outer->experimental_get_tracing_count(), 1);
  // The inner function keeps its own cache: called eagerly with the same type, it hits.
  EXPECT_EQ(inner->call({i32({5, 6})}).as_tensor().to_vector<int32_t>(),
            (std::vector<int32_t>{10, 12}));
  EXPECT_EQ(inner->experimental_get_tracing_count(), 1);
  EXPECT_EQ(inner->ledger().traces(), 1);
  EXPECT_EQ(inner->ledger().calls(), 2);
}

TEST(NestedCall, TwoLiteralsTraceTwoCalleesAndRepeatsShareOne) {
  // fn_nested_literals: inner(x, 2) + inner(x, 3) + inner(x, 2) -> PartitionedCall,
  // PartitionedCall_1, PartitionedCall_2, two library functions, inner count 2.
  auto inner =
      function("nc_lit_inner", {"x", "n"}, [](Tensor x, Value n) { return multiply(x, n); });
  auto outer = function("nc_lit_outer", {"x"}, [inner](Tensor x) {
    Tensor a = inner->call({x, 2}).as_tensor();
    Tensor b = inner->call({x, 3}).as_tensor();
    Tensor ab = add(a, b);  // Python's left-to-right order: the add comes before the third call
    return add(ab, inner->call({x, 2}).as_tensor());
  });
  auto cf = outer->get_concrete_function({i32({1, 2})});
  EXPECT_EQ(ops_of(*cf),
            (Strings{"x:Placeholder", "PartitionedCall:PartitionedCall",
                     "PartitionedCall_1:PartitionedCall", "add:AddV2",
                     "PartitionedCall_2:PartitionedCall", "add_1:AddV2", "Identity:Identity"}));
  EXPECT_EQ(cf->graph()->library().size(), 2u);
  EXPECT_EQ(attr_func(cf->graph()->find_node("PartitionedCall")->attrs, "f").name,
            attr_func(cf->graph()->find_node("PartitionedCall_2")->attrs, "f").name);
  EXPECT_EQ(inner->experimental_get_tracing_count(), 2);
  EXPECT_EQ(outer->call({i32({1, 2})}).as_tensor().to_vector<int32_t>(),
            (std::vector<int32_t>{7, 14}));
}

TEST(NestedCall, StatefulCalleeIsAStatefulPartitionedCallTheCallerWaitsFor) {
  // fn_nested_stateful: a callee holding a tf.print.
  set_print_sink([](const std::string&, const std::string&) {});
  auto pr = function("nc_print", {"x"}, [](Tensor x) {
    print({Value("x"), Value(x)});
    return x;
  });
  auto o2 = function("nc_print_outer", {"x"}, [pr](Tensor x) { return pr->call({x}); });
  auto cf = o2->get_concrete_function({Tensor::scalar<int32_t>(1)});
  EXPECT_EQ(ops_of(*cf),
            (Strings{"x:Placeholder", "StatefulPartitionedCall:StatefulPartitionedCall",
                     "Identity:Identity", "NoOp:NoOp"}));
  EXPECT_EQ(inputs_of(*cf, "NoOp"), Strings{"^StatefulPartitionedCall"});
  EXPECT_EQ(inputs_of(*cf, "Identity"), (Strings{"StatefulPartitionedCall", "^NoOp"}));
  set_print_sink(nullptr);
}

TEST(NestedCall, CalleeCapturesBecomeTheCallersCaptures) {
  // fn_nested_variable_capture: inner reads a variable it closes over; outer captures its
  // handle as a placeholder named by a fresh uid and feeds it to the call, which lists it as a
  // read-only resource input.
  Variable v(Value(Tensor::scalar<float>(3.0f)));
  auto inner =
      function("nc_var_inner", {"x"}, [v](Tensor x) { return multiply(x, Value(v.read_value())); });
  auto outer = function("nc_var_outer", {"x"}, [inner](Tensor x) {
    return add(inner->call({x}).as_tensor(), Value(1.0));
  });
  auto cf = outer->get_concrete_function({Tensor::from_vector<float>({1, 2})});
  ASSERT_EQ(cf->captured_inputs().size(), 1u);
  EXPECT_EQ(cf->captured_inputs()[0].dtype(), DType::kResource);
  Strings in = inputs_of(*cf, "StatefulPartitionedCall");
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0], "x");
  EXPECT_TRUE(!in[1].empty() && std::all_of(in[1].begin(), in[1].end(), ::isdigit)) << in[1];
  Node* call = cf->graph()->find_node("StatefulPartitionedCall");
  EXPECT_EQ(attr_ints(call->attrs, "_read_only_resource_inputs"), std::vector<int64_t>{1});
  EXPECT_EQ(attr_types(call->attrs, "Tin"),
            (std::vector<DType>{DType::kFloat32, DType::kResource}));
  EXPECT_EQ(outer->call({Tensor::from_vector<float>({1, 2})}).as_tensor().to_vector<float>(),
            (std::vector<float>{4, 7}));
  v.assign(Value(Tensor::scalar<float>(10.0f)));
  EXPECT_EQ(outer->call({Tensor::from_vector<float>({1, 2})}).as_tensor().to_vector<float>(),
            (std::vector<float>{11, 21}));
}

TEST(NestedCall, CallOutputShapesComeFromTheBodyWithTheCallersShapes) {
  // fn_nested_concrete: a ConcreteFunction traced for (None,) called with a (2,) tensor gives a
  // (2,) result in the caller's graph (TF's shape refiner infers through the body).
  auto sq = function("nc_sq", {"x"}, [](Tensor x) { return multiply(x, x); });
  auto cf_sq = sq->get_concrete_function(
      {Value(TensorSpec(PartialShape({PartialShape::kUnknown}), DType::kFloat32))});
  std::string seen;
  auto use = function("nc_use_cf", {"x"}, [cf_sq, &seen](Tensor x) {
    Tensor y = cf_sq->call_flat({x}).as_tensor();
    seen = y.shape().str();
    return add(y, Value(1.0));
  });
  EXPECT_EQ(use->call({Tensor::from_vector<float>({1, 2})}).as_tensor().to_vector<float>(),
            (std::vector<float>{2, 5}));
  EXPECT_EQ(seen, "(2,)");
  EXPECT_EQ(sq->experimental_get_tracing_count(), 1);
}

TEST(NestedCall, ConcreteFunctionWithADictAndANamedTupleCalledEagerlyAndInATrace) {
  // fn_nested_concrete_structured (issue 13): a ConcreteFunction traced for a dict and a
  // namedtuple took no feeds from a structured call ("expected 4 feeds, got 0") and crashed
  // inside another trace. Weights 1, 10, 100, 1000 show each leaf reaches its own input.
  auto f = std::make_shared<Function>(
      "nc_structured",
      std::vector<Parameter>{{"d", ParamKind::kPositionalOrKeyword, std::nullopt},
                             {"p", ParamKind::kPositionalOrKeyword, std::nullopt}},
      [](const std::vector<Value>& a, const Kwargs&) -> Value {
        const Value& d = a[0];
        const Value& p = a[1];
        Tensor s = add(d.dict_get(Value("a"))->as_tensor(),
                       multiply(d.dict_get(Value("b"))->as_tensor(), Value(10.0)));
        Tensor q = add(multiply(p.items()[0].as_tensor(), Value(100.0)),
                       multiply(p.items()[1].as_tensor(), Value(1000.0)));
        return add(s, q);
      });
  auto spec = Value(TensorSpec(PartialShape({}), DType::kFloat32));
  auto cf = f->get_concrete_function({Value::dict({{Value("a"), spec}, {Value("b"), spec}}),
                                      Value::named_tuple("Point", {"x", "y"}, {spec, spec})});
  auto scalar = [](float v) { return Value(Tensor::from_vector<float>({v}, {})); };
  // Keys in another order than traced: matched by key, not position.
  Value r = (*cf)({Value::dict({{Value("b"), scalar(2)}, {Value("a"), scalar(1)}}),
                   Value::named_tuple("Point", {"x", "y"}, {scalar(3), scalar(4)})},
                  {});
  EXPECT_EQ(r.as_tensor().item<float>(), 4321.0f);
  auto outer = function("nc_structured_outer", {"a", "b"}, [cf](Tensor a, Tensor b) {
    return (*cf)({Value::dict({{Value("a"), Value(a)}, {Value("b"), Value(b)}}),
                  Value::named_tuple("Point", {"x", "y"}, {Value(b), Value(a)})},
                 {})
        .as_tensor();
  });
  // a=1, b=2: 1 + 20 + 200 + 1000.
  EXPECT_EQ(outer->call({scalar(1), scalar(2)}).as_tensor().item<float>(), 1221.0f);
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  // A dict without one of the traced keys is not an instance of the traced type.
  EXPECT_THROW((*cf)({Value::dict({{Value("a"), scalar(1)}}),
                      Value::named_tuple("Point", {"x", "y"}, {scalar(3), scalar(4)})},
                     {}),
               Error);
}

TEST(NestedCall, InnerInputSignatureWithPythonInts) {
  // fn_nested_signature_ints (issue 12's segfault): g() calls f(1, 2, 3), f with an
  // input_signature of three int32 scalars: the ints become Consts of g's graph.
  FunctionOptions o;
  o.input_signature = std::vector<Value>(3, Value(TensorSpec(PartialShape({}), DType::kInt32)));
  auto f = function(
      "nc_sig_f", {"a", "b", "c"}, [](Tensor a, Tensor b, Tensor c) { return add(add(a, b), c); },
      o);
  auto g = function("nc_sig_g", {}, [f]() { return f->call({1, 2, 3}); });
  EXPECT_EQ(g->call({}).as_tensor().item<int32_t>(), 6);
  auto cf = g->get_concrete_function();
  EXPECT_EQ(ops_of(*cf), (Strings{"Const:Const", "Const_1:Const", "Const_2:Const",
                                  "PartitionedCall:PartitionedCall", "Identity:Identity"}));
  EXPECT_EQ(inputs_of(*cf, "PartitionedCall"), (Strings{"Const", "Const_1", "Const_2"}));
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
}

TEST(NestedCall, RecursionOnPythonValuesTracesOncePerValue) {
  // fn_recursion_python_int: fact(4) traces fact(4), fact(3), fact(2), fact(1); each trace's
  // library holds the ones below it.
  std::shared_ptr<Function> fact;
  fact = function("nc_fact", {"n"}, [&fact](int64_t n) -> Value {
    if (n <= 1) return Value(convert_to_tensor(Value(1)));
    return Value(multiply(Value(n), fact->call({Value(n - 1)}).as_tensor()));
  });
  EXPECT_EQ(fact->call({Value(int64_t{4})}).as_tensor().item<int32_t>(), 24);
  EXPECT_EQ(fact->experimental_get_tracing_count(), 4);
  auto cf3 = fact->get_concrete_function({Value(int64_t{3})});
  EXPECT_EQ(cf3->graph()->library().size(), 2u);  // fact(2) and fact(1)
  EXPECT_EQ(fact->experimental_get_tracing_count(), 4);
  fact.reset();
}

TEST(NestedCall, EagerCallsAreCallOpsResolvedInTheContextLibrary) {
  // A traced function is in the context's library while it lives: a PartitionedCall op naming
  // it runs it eagerly, as TF's eager runtime runs a function by name.
  auto f = function("nc_by_name", {"x"}, [](Tensor x) { return add(x, Value(10)); });
  auto cf = f->get_concrete_function({Tensor::scalar<int32_t>(0)});
  ASSERT_NE(Context::get().find_function(cf->name()), nullptr);
  auto out = execute("PartitionedCall", {Tensor::scalar<int32_t>(5)},
                     {{"f", FuncAttr{cf->name()}},
                      {"Tin", std::vector<DType>{DType::kInt32}},
                      {"Tout", std::vector<DType>{DType::kInt32}}});
  EXPECT_EQ(out.at(0).item<int32_t>(), 15);
  std::string name = cf->name();
  cf.reset();
  f.reset();
  EXPECT_EQ(Context::get().find_function(name), nullptr);
}

}  // namespace
}  // namespace tfs
