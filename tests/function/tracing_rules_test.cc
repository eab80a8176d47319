// One test per tracing rule of the tf.function engine (issue 3, "Behaviour"), each with the trace
// count written out. Every expected count, printed line, result and error text is TF 2.21's, as
// recorded by the conformance suite running real TF (conformance/expected_tf.json; the scenario of
// each case is conformance/cases/<case>.py, and conformance/TF_FACTS.md summarises them). The case
// a number comes from is named next to it. The last tests cover tfscope's extras beyond TF (ledger,
// RetraceProbe, fail-on-retrace, the bounded cache); their trace counts are still TF's where TF has
// the same calls.
//
// The frequent-retracing detector is global and keyed by the function's name (TF keys it on
// __code__), so every Function here has a name of its own.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfscope/detail/namedtuple_class.h"
#include "tfscope/errors.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/variable.h"

namespace tfs {
namespace {

using Lines = std::vector<std::string>;

constexpr int64_t kNone = PartialShape::kUnknown;

class TracingRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    set_print_sink([this](const std::string& stream, const std::string& text) {
      std::string line = text;
      if (!line.empty() && line.back() == '\n') line.pop_back();
      (stream == "stderr" ? run_lines_ : stdout_lines_).push_back(line);
    });
    set_warning_sink([this](const std::string& msg) { warnings_.push_back(msg); });
  }
  void TearDown() override {
    set_print_sink(nullptr);
    set_warning_sink(nullptr);
  }

  // The seed's `scaled`: host code records "TRACE <shape> <factor>" once per trace, tfs::print
  // prints "RUN <tf.shape(x)> <factor>" on every call.
  std::shared_ptr<Function> make_scaled(const std::string& name, FunctionOptions options = {}) {
    return function(
        name, {"x", "factor"},
        [this](Tensor x, Value factor) {
          trace_lines_.push_back("TRACE " + x.shape().str() + " " + factor.str());
          print({Value("RUN"), Value(shape(x)), factor});
          return multiply(x, factor);
        },
        std::move(options));
  }

  // Calls `fn` and returns the TF error's Python type and message.
  static std::pair<std::string, std::string> error_of(Function& fn, const std::vector<Value>& args,
                                                      const Kwargs& kwargs = {}) {
    try {
      fn.call(args, kwargs);
    } catch (const Error& e) {
      return {e.python_type(), e.what()};
    }
    return {"", "no error"};
  }

  Lines trace_lines_;   // host code inside bodies (Python's print)
  Lines run_lines_;     // tfs::print to stderr (tf.print)
  Lines stdout_lines_;  // tfs::print to stdout
  Lines warnings_;
};

Tensor i32(std::vector<int32_t> v) { return Tensor::from_vector<int32_t>(v); }
Tensor f32(std::vector<float> v) { return Tensor::from_vector<float>(v); }
std::string str(const Value& v) { return v.as_tensor().str(); }

// ---------------------------------------------------------------------------------------------
// Binding
// ---------------------------------------------------------------------------------------------

TEST_F(TracingRulesTest, BindingPositionalVsKeywordNeverRetraces) {
  // s08_binding_keywords: scaled(a,2), scaled(a,factor=2), scaled(x=a,factor=2),
  // scaled(factor=2,x=a) -> 1 trace.
  auto scaled = make_scaled("rules_bind_kw");
  Tensor a = i32({1, 2});
  scaled->call({a, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({a}, {{"factor", 2}});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({}, {{"x", a}, {"factor", 2}});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({}, {{"factor", 2}, {"x", a}});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  EXPECT_EQ(trace_lines_, (Lines{"TRACE (2,) 2"}));
  EXPECT_EQ(run_lines_, (Lines{"RUN [2] 2", "RUN [2] 2", "RUN [2] 2", "RUN [2] 2"}));
}

TEST_F(TracingRulesTest, BindingDefaultsAreInjected) {
  // bind_defaults: func(foo, bar=1, baz=2); explicit values equal to the defaults hit the trace
  // that used the defaults. Counts 1, 2, 2, 2, 3, 3, 3; results 21, 4, 4, 4, 6, 6, 6.
  Lines& lines = trace_lines_;
  Function func(
      "rules_bind_defaults",
      {Parameter{"foo", ParamKind::kPositionalOrKeyword, std::nullopt},
       Parameter{"bar", ParamKind::kPositionalOrKeyword, Value(1)},
       Parameter{"baz", ParamKind::kPositionalOrKeyword, Value(2)}},
      [&lines](const std::vector<Value>& args, const Kwargs&) {
        lines.push_back("trace " + args[0].str() + " " + args[1].str() + " " + args[2].str());
        return Value(constant(Value(args[0].as_int() + args[1].as_int() + args[2].as_int())));
      });
  struct Step {
    std::vector<Value> args;
    Kwargs kwargs;
    int count;
    int32_t result;
  };
  std::vector<Step> steps = {
      {{0}, {{"baz", 20}}, 1, 21},            // func(0, baz=20)
      {{1}, {}, 2, 4},                        // func(1)
      {{}, {{"foo", 1}}, 2, 4},               // func(foo=1)
      {{1, 1, 2}, {}, 2, 4},                  // func(1, 1, 2)
      {{1, 2, 3}, {}, 3, 6},                  // func(1, 2, 3)
      {{1}, {{"bar", 2}, {"baz", 3}}, 3, 6},  // func(1, bar=2, baz=3)
      {{1}, {{"baz", 3}, {"bar", 2}}, 3, 6},  // func(1, baz=3, bar=2)
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    Value r = func.call(steps[i].args, steps[i].kwargs);
    EXPECT_EQ(func.experimental_get_tracing_count(), steps[i].count) << "step " << i;
    EXPECT_EQ(r.as_tensor().item<int32_t>(), steps[i].result) << "step " << i;
  }
  EXPECT_EQ(lines, (Lines{"trace 0 1 20", "trace 1 1 2", "trace 1 2 3"}));
}

// ---------------------------------------------------------------------------------------------
// TraceTypes
// ---------------------------------------------------------------------------------------------

TEST_F(TracingRulesTest, TraceTypeTensorIsShapeAndDtype) {
  // s04_tensor_factor: scaled(a,t2), scaled(b,t2), scaled(c,t2), scaled(c,t3) -> 1, 1, 2, 2: a
  // tensor factor is keyed by TensorSpec, so its value never retraces; x's shape does.
  auto scaled = make_scaled("rules_tensor_factor");
  Tensor a = i32({1, 2}), b = i32({8, 9}), c = i32({1, 2, 3, 4});
  Tensor t2 = Tensor::scalar<int32_t>(2), t3 = Tensor::scalar<int32_t>(3);
  scaled->call({a, t2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({b, t2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({c, t2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 2);
  Value r = scaled->call({c, t3});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 2);
  EXPECT_EQ(r.as_tensor().to_vector<int32_t>(), (std::vector<int32_t>{3, 6, 9, 12}));
  EXPECT_EQ(trace_lines_,
            (Lines{"TRACE (2,) Tensor(\"factor:0\", shape=(), dtype=int32)",
                   "TRACE (4,) Tensor(\"factor:0\", shape=(), dtype=int32)"}));
  EXPECT_EQ(run_lines_, (Lines{"RUN [2] 2", "RUN [2] 2", "RUN [4] 2", "RUN [4] 3"}));
}

TEST_F(TracingRulesTest, TraceTypeLiteralIntAndEqualFloatShareATrace) {
  // s06_literal_2_then_2_0: scaled(a,2), scaled(a,2.0) -> 1 trace; the 2 is frozen in, so both
  // calls print "RUN [2] 2".
  auto scaled = make_scaled("rules_lit_2_2_0");
  Tensor a = i32({1, 2});
  scaled->call({a, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({a, 2.0});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  EXPECT_EQ(trace_lines_, (Lines{"TRACE (2,) 2"}));
  EXPECT_EQ(run_lines_, (Lines{"RUN [2] 2", "RUN [2] 2"}));
}

TEST_F(TracingRulesTest, TraceTypeLiteralTrueAndOneShareATrace) {
  // s07_true_then_1: scaled(a,True), scaled(a,1) -> 1 trace; both print "RUN [2] True".
  auto scaled = make_scaled("rules_lit_true_1");
  Tensor a = i32({1, 2});
  scaled->call({a, true});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({a, 1});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  EXPECT_EQ(trace_lines_, (Lines{"TRACE (2,) True"}));
  EXPECT_EQ(run_lines_, (Lines{"RUN [2] True", "RUN [2] True"}));
}

TEST_F(TracingRulesTest, TraceTypeNanMatchesNan) {
  // s13_nan: k(nan), k(nan), k(1.0) -> 1, 1, 2.
  Lines& lines = trace_lines_;
  auto k = function("rules_nan", {"arg"}, [&lines](Value arg) {
    lines.push_back("trace " + arg.str());
    return multiply(constant(Value(1.0)), arg);
  });
  k->call({std::nan("")});
  EXPECT_EQ(k->experimental_get_tracing_count(), 1);
  k->call({std::nan("")});
  EXPECT_EQ(k->experimental_get_tracing_count(), 1);
  k->call({1.0});
  EXPECT_EQ(k->experimental_get_tracing_count(), 2);
  EXPECT_EQ(lines, (Lines{"trace nan", "trace 1.0"}));
}

std::shared_ptr<Function> make_k(const std::string& name, Lines& lines) {
  return function(name, {"arg"}, [&lines](Value arg) {
    lines.push_back("trace " + arg.str());
    return constant(Value(0));
  });
}

TEST_F(TracingRulesTest, TraceTypeListAndTupleDiffer) {
  // s11_list_vs_tuple: k([1,2]), k((1,2)), k([1,2]), k([2,1]) -> 1, 2, 2, 3.
  auto k = make_k("rules_list_tuple", trace_lines_);
  k->call({Value::list({1, 2})});
  EXPECT_EQ(k->experimental_get_tracing_count(), 1);
  k->call({Value::tuple({1, 2})});
  EXPECT_EQ(k->experimental_get_tracing_count(), 2);
  k->call({Value::list({1, 2})});
  EXPECT_EQ(k->experimental_get_tracing_count(), 2);
  k->call({Value::list({2, 1})});
  EXPECT_EQ(k->experimental_get_tracing_count(), 3);
  EXPECT_EQ(trace_lines_, (Lines{"trace [1, 2]", "trace (1, 2)", "trace [2, 1]"}));
}

TEST_F(TracingRulesTest, TraceTypeDictKeyedByKeySetNotOrder) {
  // s12_dict_order: k({a:1,b:2}), k({b:2,a:1}), k({a:1,c:2}), k({a:1,b:3}) -> 1, 1, 2, 3.
  auto k = make_k("rules_dict_order", trace_lines_);
  k->call({Value::dict({{"a", 1}, {"b", 2}})});
  EXPECT_EQ(k->experimental_get_tracing_count(), 1);
  k->call({Value::dict({{"b", 2}, {"a", 1}})});
  EXPECT_EQ(k->experimental_get_tracing_count(), 1);
  k->call({Value::dict({{"a", 1}, {"c", 2}})});
  EXPECT_EQ(k->experimental_get_tracing_count(), 2);
  k->call({Value::dict({{"a", 1}, {"b", 3}})});
  EXPECT_EQ(k->experimental_get_tracing_count(), 3);
  EXPECT_EQ(trace_lines_, (Lines{"trace {'a': 1, 'b': 2}", "trace {'a': 1, 'c': 2}",
                                 "trace {'a': 1, 'b': 3}"}));
}

TEST_F(TracingRulesTest, TraceTypeNamedTupleByNameAndFields) {
  // nest_namedtuple: Point(t1,t1), another Point class (same name and fields), Other(t1,t1),
  // Point with (2,) tensors -> 1, 1, 2, 3.
  Lines& lines = trace_lines_;
  auto f = function("rules_namedtuple", {"p"}, [&lines](Value p) {
    const NamedTupleValue& nt = p.named_tuple();
    lines.push_back("trace " + nt.type_name + " " + nt.values[0].as_tensor().shape().str());
    return add(nt.values[0], nt.values[1]);
  });
  Tensor t1 = f32({1.0f});
  auto point = [](Tensor x, Tensor y) { return Value::named_tuple("Point", {"x", "y"}, {x, y}); };
  f->call({point(t1, t1)});
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  f->call({point(t1, t1)});
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  f->call({Value::named_tuple("Other", {"x", "y"}, {t1, t1})});
  EXPECT_EQ(f->experimental_get_tracing_count(), 2);
  Value r = f->call({point(f32({1.0f, 2.0f}), f32({3.0f, 4.0f}))});
  EXPECT_EQ(f->experimental_get_tracing_count(), 3);
  EXPECT_EQ(r.as_tensor().to_vector<float>(), (std::vector<float>{4.0f, 6.0f}));
  EXPECT_EQ(lines, (Lines{"trace Point (1,)", "trace Other (1,)", "trace Point (2,)"}));
}

struct Fruit : Object {
  explicit Fruit(int64_t f) : flavor(f) {}
  int64_t flavor;
};

TEST_F(TracingRulesTest, TraceTypeObjectsByIdentity) {
  // obj_identity: taste(apple), taste(apple), taste(Fruit(1)), then apple.flavor = 5 and
  // taste(apple) -> 1, 1, 2, 2; the last call runs the stale graph and still returns 1.
  Lines& lines = trace_lines_;
  auto taste = function("rules_obj_identity", {"f"}, [&lines](Value f) {
    auto* fruit = dynamic_cast<Fruit*>(f.as_object().get());
    lines.push_back("trace " + std::to_string(fruit->flavor));
    return constant(Value(fruit->flavor));
  });
  auto apple = std::make_shared<Fruit>(1);
  EXPECT_EQ(taste->call({Value(std::shared_ptr<Object>(apple))}).as_tensor().item<int32_t>(), 1);
  EXPECT_EQ(taste->experimental_get_tracing_count(), 1);
  taste->call({Value(std::shared_ptr<Object>(apple))});
  EXPECT_EQ(taste->experimental_get_tracing_count(), 1);
  auto other = std::make_shared<Fruit>(1);
  taste->call({Value(std::shared_ptr<Object>(other))});
  EXPECT_EQ(taste->experimental_get_tracing_count(), 2);
  apple->flavor = 5;
  Value stale = taste->call({Value(std::shared_ptr<Object>(apple))});
  EXPECT_EQ(taste->experimental_get_tracing_count(), 2);
  EXPECT_EQ(stale.as_tensor().item<int32_t>(), 1);
  EXPECT_EQ(lines, (Lines{"trace 1", "trace 1"}));
}

TEST_F(TracingRulesTest, TraceTypeVariablesOfOneSpecShareATrace) {
  // s10_variables_distinct: g(v1), g(v2) with two (3,) float32 variables -> 1 trace; the
  // variable is an input (VariableSpec), not a capture.
  Lines& lines = trace_lines_;
  auto g = function("rules_var_spec", {"v"}, [&lines](Value v) {
    lines.push_back("trace g");
    return add(Variable(v.as_variable()).read_value(), Value(1.0));
  });
  Variable v1(Value(Tensor::zeros(DType::kFloat32, Shape{3})));
  Variable v2(Value(ones({3})));
  g->call({v1});
  EXPECT_EQ(g->experimental_get_tracing_count(), 1);
  Value r = g->call({v2});
  EXPECT_EQ(g->experimental_get_tracing_count(), 1);
  EXPECT_EQ(r.as_tensor().to_vector<float>(), (std::vector<float>{2.0f, 2.0f, 2.0f}));
  EXPECT_EQ(lines, (Lines{"trace g"}));
  auto cf = g->get_concrete_function({v1});
  EXPECT_EQ(cf->pretty_printed_signature(false),
            "(v: VariableSpec(shape=(3,), dtype=tf.float32, trainable=True, alias_id=0)) -> "
            "TensorSpec(shape=(3,), dtype=tf.float32, name=None)");
  EXPECT_TRUE(cf->captured_inputs().empty());
  EXPECT_EQ(g->experimental_get_tracing_count(), 1);
}

TEST_F(TracingRulesTest, TraceTypeOneVariablePassedTwiceDiffers) {
  // s10b_variable_alias_patterns: h(v1,v2), h(v2,v1), h(v1,v1), h(v2,v2) -> 1, 1, 2, 2 (alias
  // patterns (0,1) and (0,0)).
  Lines& lines = trace_lines_;
  auto h = function("rules_var_alias", {"p", "q"}, [&lines](Value p, Value q) {
    lines.push_back("trace h");
    return add(Variable(p.as_variable()).read_value(), Variable(q.as_variable()).read_value());
  });
  Variable v1(Value(Tensor::zeros(DType::kFloat32, Shape{3})));
  Variable v2(Value(ones({3})));
  h->call({v1, v2});
  EXPECT_EQ(h->experimental_get_tracing_count(), 1);
  h->call({v2, v1});
  EXPECT_EQ(h->experimental_get_tracing_count(), 1);
  h->call({v1, v1});
  EXPECT_EQ(h->experimental_get_tracing_count(), 2);
  Value r = h->call({v2, v2});
  EXPECT_EQ(h->experimental_get_tracing_count(), 2);
  EXPECT_EQ(r.as_tensor().to_vector<float>(), (std::vector<float>{2.0f, 2.0f, 2.0f}));
  EXPECT_EQ(lines, (Lines{"trace h", "trace h"}));
}

// ---------------------------------------------------------------------------------------------
// Cache
// ---------------------------------------------------------------------------------------------

TEST_F(TracingRulesTest, CacheDispatchesToTheMostSpecificSupertype) {
  // cf_dispatch_most_specific: concrete [None,3] -> 1, concrete [2,None] -> 2; calls (2,3) (the
  // earliest, [None,3]), (5,3) -> [None,3], (2,7) -> [2,None], all at 2; concrete [None,None] -> 3;
  // (4,4) -> [None,None]; (2,3) still [None,3]; concrete spec [2,3] dispatches (no trace, the
  // [None,3] function); count 3.
  Lines& lines = trace_lines_;
  auto f = function("rules_dispatch", {"x"}, [&lines](Tensor x) {
    lines.push_back("trace " + x.shape().str());
    return constant(Value(x.shape().str()));
  });
  auto served_by = [&](std::vector<int64_t> shape) {
    return f->call({ones(shape)}).as_tensor().str();
  };
  auto tf_str = [](const std::string& s) {
    return "tf.Tensor(b'" + s + "', shape=(), dtype=string)";
  };
  auto cf_n3 = f->get_concrete_function({TensorSpec(PartialShape{kNone, 3}, DType::kFloat32)});
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  f->get_concrete_function({TensorSpec(PartialShape{2, kNone}, DType::kFloat32)});
  EXPECT_EQ(f->experimental_get_tracing_count(), 2);
  EXPECT_EQ(served_by({2, 3}), tf_str("(None, 3)"));
  EXPECT_EQ(served_by({5, 3}), tf_str("(None, 3)"));
  EXPECT_EQ(served_by({2, 7}), tf_str("(2, None)"));
  EXPECT_EQ(f->experimental_get_tracing_count(), 2);
  f->get_concrete_function({TensorSpec(PartialShape{kNone, kNone}, DType::kFloat32)});
  EXPECT_EQ(f->experimental_get_tracing_count(), 3);
  EXPECT_EQ(served_by({4, 4}), tf_str("(None, None)"));
  EXPECT_EQ(served_by({2, 3}), tf_str("(None, 3)"));
  auto cf_23 = f->get_concrete_function({TensorSpec(PartialShape{2, 3}, DType::kFloat32)});
  EXPECT_EQ(cf_23, cf_n3);  // TF_FACTS §1 row 15
  EXPECT_EQ(served_by({2, 3}), tf_str("(None, 3)"));
  EXPECT_EQ(f->experimental_get_tracing_count(), 3);
  EXPECT_EQ(lines, (Lines{"trace (None, 3)", "trace (2, None)", "trace (None, None)"}));

  // Same case, g: an unknown-rank float32 trace serves a scalar and a matrix (count 1); an int32
  // scalar traces again (count 2).
  Lines& glines = trace_lines_;
  auto g = function("rules_dispatch_g", {"x"}, [&glines](Tensor x) {
    glines.push_back("g trace " + x.shape().str());
    return constant(Value(x.shape().str()));
  });
  g->get_concrete_function({TensorSpec(PartialShape::unknown(), DType::kFloat32)});
  EXPECT_EQ(g->experimental_get_tracing_count(), 1);
  EXPECT_EQ(str(g->call({constant(Value(1.0))})), tf_str("<unknown>"));
  EXPECT_EQ(str(g->call({ones({2, 2})})), tf_str("<unknown>"));
  EXPECT_EQ(g->experimental_get_tracing_count(), 1);
  EXPECT_EQ(str(g->call({constant(Value(1))})), tf_str("()"));
  EXPECT_EQ(g->experimental_get_tracing_count(), 2);
}

TEST_F(TracingRulesTest, CacheTracingCountIsCacheSizeAndAFailedTraceAddsNothing) {
  // err_trace_failure_counts: f(x,"bad") raises while tracing -> 0; f(x,"good") -> 1;
  // f(x,"bad") traces again and raises -> 1; f(x,"good") hits -> 1. The host code of the failed
  // traces ran ("trace bad" twice).
  Lines& lines = trace_lines_;
  auto f = function("rules_trace_failure", {"x", "mode"}, [&lines](Tensor x, std::string mode) {
    lines.push_back("trace " + mode);
    if (mode == "bad") value_error("bad mode");
    return add(x, Value(1));
  });
  Tensor x = Tensor::scalar<int32_t>(1);
  EXPECT_EQ(error_of(*f, {x, "bad"}).first, "ValueError");
  EXPECT_EQ(f->experimental_get_tracing_count(), 0);
  EXPECT_EQ(f->call({x, "good"}).as_tensor().item<int32_t>(), 2);
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  EXPECT_EQ(error_of(*f, {x, "bad"}).first, "ValueError");
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  f->call({x, "good"});
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  EXPECT_EQ(f->concrete_functions().size(), 1u);
  EXPECT_EQ(lines, (Lines{"trace bad", "trace good", "trace bad"}));
}

// ---------------------------------------------------------------------------------------------
// input_signature
// ---------------------------------------------------------------------------------------------

FunctionOptions seed_signature() {
  FunctionOptions o;
  o.input_signature = std::vector<Value>{TensorSpec(PartialShape{kNone}, DType::kInt32),
                                         TensorSpec(PartialShape(std::vector<int64_t>{}),
                                                    DType::kInt32)};
  return o;
}

TEST_F(TracingRulesTest, InputSignatureTracesOnceAndConverts) {
  // s03_input_signature: scaled(a,2), (b,2), (c,2), (c,3) with [TensorSpec([None], int32),
  // TensorSpec([], int32)] -> 1, 1, 1, 1; the ints are converted to tensors.
  auto scaled = make_scaled("rules_input_signature", seed_signature());
  Tensor a = i32({1, 2}), b = i32({8, 9}), c = i32({1, 2, 3, 4});
  scaled->call({a, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({b, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({c, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  Value r = scaled->call({c, 3});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  EXPECT_EQ(r.as_tensor().to_vector<int32_t>(), (std::vector<int32_t>{3, 6, 9, 12}));
  EXPECT_EQ(trace_lines_,
            (Lines{"TRACE (None,) Tensor(\"factor:0\", shape=(), dtype=int32)"}));
  EXPECT_EQ(run_lines_, (Lines{"RUN [2] 2", "RUN [2] 2", "RUN [4] 2", "RUN [4] 3"}));
  auto cf = scaled->get_concrete_function();
  std::map<std::string, int> want{{"Identity", 1},    {"Mul", 1},   {"NoOp", 1},
                                  {"Placeholder", 2}, {"PrintV2", 1}, {"Shape", 1},
                                  {"StringFormat", 1}};
  EXPECT_EQ(cf->graph()->op_counts(), want);
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
}

std::string main_module_class(const std::string& name, const std::vector<std::string>&) {
  return "<class '__main__." + name + "'>";
}

TEST_F(TracingRulesTest, NamedTupleSignatureCastsAsTF) {
  // TF 2.21 (bind_namedtuple_cast): a namedtuple with the spec's fields casts whatever its type
  // name; a plain tuple is "Cannot cast ... to type <class ...>." with the class the front end
  // names; other fields are "... has different attributes with the TraceType ...".
  TensorSpec sp(PartialShape(std::vector<int64_t>{}), DType::kFloat32);
  FunctionOptions o;
  o.input_signature = std::vector<Value>{Value::named_tuple("P", {"x", "y"}, {sp, sp})};
  auto h = function(
      "h", {"p"}, [](Value p) { return add(p.items()[0].as_tensor(), p.items()[1].as_tensor()); },
      o);
  Tensor one = Tensor::scalar<float>(1.0f), two = Tensor::scalar<float>(2.0f);
  EXPECT_EQ(h->call({Value::named_tuple("Q", {"x", "y"}, {one, two})}).as_tensor().str(),
            "tf.Tensor(3.0, shape=(), dtype=float32)");
  const std::string sig =
      " and kwargs: {} for signature: (p: P[['x', TensorSpec(shape=(), dtype=tf.float32, "
      "name=None)], ['y', TensorSpec(shape=(), dtype=tf.float32, name=None)]]).";
  const std::string pair =
      "(<tf.Tensor: shape=(), dtype=float32, numpy=1.0>, <tf.Tensor: shape=(), dtype=float32, "
      "numpy=2.0>)";
  detail::set_namedtuple_class_repr(&main_module_class);
  auto plain = error_of(*h, {Value::tuple({one, two})});
  detail::set_namedtuple_class_repr(nullptr);
  EXPECT_EQ(plain, std::make_pair(std::string("TypeError"),
                                  "Binding inputs to tf.function failed due to `Cannot cast " +
                                      pair + " to type <class '__main__.P'>.`. Received args: (" +
                                      pair + ",)" + sig));
  const std::string r =
      "P(x=<tf.Tensor: shape=(), dtype=float32, numpy=1.0>, z=<tf.Tensor: shape=(), "
      "dtype=float32, numpy=2.0>)";
  EXPECT_EQ(error_of(*h, {Value::named_tuple("P", {"x", "z"}, {one, two})}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `" + r +
                               " has different attributes with the TraceType P[['x', "
                               "TensorSpec(shape=(), dtype=tf.float32, name=None)], ['y', "
                               "TensorSpec(shape=(), dtype=tf.float32, name=None)]]`. Received "
                               "args: (" +
                               r + ",)" + sig));
  EXPECT_EQ(h->experimental_get_tracing_count(), 1);
}

TEST_F(TracingRulesTest, InputSignatureMismatchRaisesTypeError) {
  // sig_call_errors: the seed's signature; every rejected call leaves the count at 1.
  auto scaled = make_scaled("rules_signature_errors", seed_signature());
  Tensor a = i32({1, 2});
  scaled->call({a, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  const std::string sig =
      " for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None), factor: "
      "TensorSpec(shape=(), dtype=tf.int32, name=None)).";
  EXPECT_EQ(error_of(*scaled, {f32({1.0f, 2.0f}), 2}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `Can not cast "
                           "TensorSpec(shape=(2,), dtype=tf.float32, name=None) to "
                           "TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received "
                           "args: (<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], "
                           "dtype=float32)>, 2) and kwargs: {}" + sig));
  EXPECT_EQ(error_of(*scaled, {Tensor::from_vector<int32_t>({1, 2, 3, 4}, Shape{2, 2}), 2}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `Can not cast "
                           "TensorSpec(shape=(2, 2), dtype=tf.int32, name=None) to "
                           "TensorSpec(shape=(None,), dtype=tf.int32, name=None)`. Received "
                           "args: (<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[1, 2],\n"
                           "       [3, 4]], dtype=int32)>, 2) and kwargs: {}" + sig));
  EXPECT_EQ(error_of(*scaled, {a, 2.5}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `Cannot convert 2.5 to "
                           "EagerTensor of dtype int32`. Received args: (<tf.Tensor: shape=(2,), "
                           "dtype=int32, numpy=array([1, 2], dtype=int32)>, 2.5) and kwargs: {}" +
                               sig));
  EXPECT_EQ(error_of(*scaled, {a, "two"}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `Cannot convert 'two' to "
                           "EagerTensor of dtype int32`. Received args: (<tf.Tensor: shape=(2,), "
                           "dtype=int32, numpy=array([1, 2], dtype=int32)>, 'two') and kwargs: {}" +
                               sig));
  EXPECT_EQ(error_of(*scaled, {a, 2, 3}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `too many positional "
                           "arguments`. Received args: (<tf.Tensor: shape=(2,), dtype=int32, "
                           "numpy=array([1, 2], dtype=int32)>, 2, 3) and kwargs: {}" + sig));
  EXPECT_EQ(error_of(*scaled, {a}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `missing a required "
                           "argument: 'factor'`. Received args: (<tf.Tensor: shape=(2,), "
                           "dtype=int32, numpy=array([1, 2], dtype=int32)>,) and kwargs: {}" +
                               sig));
  EXPECT_EQ(error_of(*scaled, {a, 2}, {{"y", 1}}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `got an unexpected "
                           "keyword argument 'y'`. Received args: (<tf.Tensor: shape=(2,), "
                           "dtype=int32, numpy=array([1, 2], dtype=int32)>, 2) and kwargs: "
                           "{'y': 1}" + sig));
  scaled->call({a}, {{"factor", 2}});  // "by keyword ok"
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
}

// ---------------------------------------------------------------------------------------------
// reduce_retracing
// ---------------------------------------------------------------------------------------------

FunctionOptions reducing() {
  FunctionOptions o;
  o.reduce_retracing = true;
  return o;
}

TEST_F(TracingRulesTest, ReduceRetracingGeneralizesDimsButNotLiterals) {
  // s02_reduce_retracing: scaled(a,2), (b,2), (c,2), (c,3), ([1,2,3],2) -> 1, 1, 2, 3, 3; the
  // traces are (2,) 2, (None,) 2, (4,) 3 (the literal 3 blocks relaxing).
  auto scaled = make_scaled("rules_reduce_retracing", reducing());
  Tensor a = i32({1, 2}), b = i32({8, 9}), c = i32({1, 2, 3, 4});
  scaled->call({a, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({b, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({c, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 2);
  scaled->call({c, 3});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 3);
  scaled->call({i32({1, 2, 3}), 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 3);
  EXPECT_EQ(trace_lines_, (Lines{"TRACE (2,) 2", "TRACE (None,) 2", "TRACE (4,) 3"}));
  EXPECT_EQ(run_lines_,
            (Lines{"RUN [2] 2", "RUN [2] 2", "RUN [4] 2", "RUN [4] 3", "RUN [3] 2"}));
}

TEST_F(TracingRulesTest, ReduceRetracingGeneralizesRankToUnknown) {
  // rr_rank_change: float32 shapes (2,), (3,), (2,2), (5,5,5), (7,) -> 1, 2, 3, 3, 3; traces
  // (2,), (None,), <unknown>.
  Lines& lines = trace_lines_;
  auto f = function(
      "rules_rr_rank",
      {"x"},
      [&lines](Tensor x) {
        lines.push_back("trace " + x.shape().str());
        return reduce_sum(x);
      },
      reducing());
  std::vector<std::vector<int64_t>> shapes = {{2}, {3}, {2, 2}, {5, 5, 5}, {7}};
  std::vector<int> counts = {1, 2, 3, 3, 3};
  for (size_t i = 0; i < shapes.size(); ++i) {
    f->call({ones(shapes[i])});
    EXPECT_EQ(f->experimental_get_tracing_count(), counts[i]) << "call " << i;
  }
  EXPECT_EQ(lines, (Lines{"trace (2,)", "trace (None,)", "trace <unknown>"}));
}

TEST_F(TracingRulesTest, ReduceRetracingLiteralsNeverWiden) {
  // rr_literal_blocks: ((1,),"hi"), ((2,),"hi"), ((3,),"bye"), ((4,),"bye"), ((5,),"hi")
  // -> 1, 2, 3, 4, 4; traces (1,) hi, (None,) hi, (3,) bye, (None,) bye.
  Lines& lines = trace_lines_;
  auto f = function(
      "rules_rr_literal",
      {"x", "tag"},
      [&lines](Tensor x, std::string tag) {
        lines.push_back("trace " + x.shape().str() + " " + tag);
        return x;
      },
      reducing());
  std::vector<std::pair<int64_t, std::string>> calls = {
      {1, "hi"}, {2, "hi"}, {3, "bye"}, {4, "bye"}, {5, "hi"}};
  std::vector<int> counts = {1, 2, 3, 4, 4};
  for (size_t i = 0; i < calls.size(); ++i) {
    f->call({ones({calls[i].first}), calls[i].second});
    EXPECT_EQ(f->experimental_get_tracing_count(), counts[i]) << "call " << i;
  }
  EXPECT_EQ(lines, (Lines{"trace (1,) hi", "trace (None,) hi", "trace (3,) bye",
                          "trace (None,) bye"}));
}

// ---------------------------------------------------------------------------------------------
// The frequent-retracing warning
// ---------------------------------------------------------------------------------------------

std::string retracing_warning(int traced, int calls, const std::string& fn) {
  return std::to_string(traced) + " out of the last " + std::to_string(calls) + " calls to " + fn +
         " triggered tf.function retracing. Tracing is expensive and the excessive number of "
         "tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) passing "
         "tensors with different shapes, (3) passing Python objects instead of tensors. For (1), "
         "please define your @tf.function outside of the loop. For (2), @tf.function has "
         "reduce_retracing=True option that can avoid unnecessary retracing. For (3), please "
         "refer to https://www.tensorflow.org/guide/function#controlling_retracing and "
         "https://www.tensorflow.org/api_docs/python/tf/function for  more details.";
}

TEST_F(TracingRulesTest, FrequentRetracingWarningAtFiveAndSixTracesOnly) {
  // warn_five_traces: f(0) .. f(7) -> counts 1 .. 8; warnings on the 5th call ("5 out of the
  // last 5") and the 6th ("6 out of the last 6"), none after (at most 2 per function).
  FunctionOptions o;
  o.display_name = "<function rules_warn_f at 0x7f0000000000>";
  auto f = function("rules_warn_f", {"n"}, [](int64_t n) { return constant(Value(n)); }, o);
  for (int i = 0; i < 8; ++i) {
    f->call({i});
    EXPECT_EQ(f->experimental_get_tracing_count(), i + 1);
    if (i == 3) {
      EXPECT_TRUE(warnings_.empty());
    }
  }
  EXPECT_EQ(warnings_, (Lines{retracing_warning(5, 5, o.display_name),
                              retracing_warning(6, 6, o.display_name)}));
}

TEST_F(TracingRulesTest, FunctionBuiltInALoopTracesEveryTimeAndWarns) {
  // s09_function_in_loop_warning: seven Functions over one body (one detector), one call each
  // -> each count 1, every call traces; the warning on iterations 4 and 5 (0-based) only.
  FunctionOptions o;
  o.detector_key = "rules_loop_scaled";
  o.display_name = "<function rules_loop_scaled at 0x7f0000000000>";
  Tensor a = i32({1, 2});
  for (int i = 0; i < 7; ++i) {
    auto scaled = make_scaled("rules_loop_scaled", o);
    scaled->call({a, 2});
    EXPECT_EQ(scaled->experimental_get_tracing_count(), 1) << "iteration " << i;
    EXPECT_EQ(warnings_.size(), i < 4 ? 0u : i == 4 ? 1u : 2u) << "iteration " << i;
  }
  EXPECT_EQ(trace_lines_.size(), 7u);
  EXPECT_EQ(warnings_, (Lines{retracing_warning(5, 5, o.display_name),
                              retracing_warning(6, 6, o.display_name)}));
}

// ---------------------------------------------------------------------------------------------
// Captures
// ---------------------------------------------------------------------------------------------

TEST_F(TracingRulesTest, CaptureHostValuesAreBakedInAtTraceTime) {
  // seed_global_capture: buggy_add() returns 1 + foo; foo = 100 afterwards changes nothing:
  // results 2 and 2, count 1.
  int64_t foo = 1;
  auto buggy_add = function("rules_buggy_add", {}, [&foo] { return constant(Value(1 + foo)); });
  EXPECT_EQ(buggy_add->call({}).as_tensor().item<int32_t>(), 2);
  foo = 100;
  EXPECT_EQ(buggy_add->call({}).as_tensor().item<int32_t>(), 2);
  EXPECT_EQ(buggy_add->experimental_get_tracing_count(), 1);
}

TEST_F(TracingRulesTest, CaptureSmallEagerTensorIsAConst) {
  // cap_small_tensor: f(x) = x + t with a 4-element t; rebinding t is not seen: results
  // [2 3 4 5] twice, count 1; ops AddV2 1, Const 1, Identity 1, Placeholder 1; the Const is still
  // listed in captured_inputs.
  Tensor t = f32({1.0f, 2.0f, 3.0f, 4.0f});
  auto f = function("rules_cap_small", {"x"}, [&t](Tensor x) { return add(x, Value(t)); });
  std::vector<float> want{2.0f, 3.0f, 4.0f, 5.0f};
  EXPECT_EQ(f->call({Tensor::scalar<float>(1.0f)}).as_tensor().to_vector<float>(), want);
  t = f32({100.0f, 100.0f, 100.0f, 100.0f});
  EXPECT_EQ(f->call({Tensor::scalar<float>(1.0f)}).as_tensor().to_vector<float>(), want);
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  auto cf = f->get_concrete_function({Tensor::scalar<float>(1.0f)});
  std::map<std::string, int> ops{{"AddV2", 1}, {"Const", 1}, {"Identity", 1}, {"Placeholder", 1}};
  EXPECT_EQ(cf->graph()->op_counts(), ops);
  ASSERT_EQ(cf->captured_inputs().size(), 1u);
  EXPECT_EQ(cf->captured_inputs()[0].shape().str(), "(4,)");
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
}

TEST_F(TracingRulesTest, CaptureLargeEagerTensorIsAPlaceholder) {
  // cap_large_tensor: tensors of 256, 128 and 129 elements summed: 128 -> Const, 129 and 256 ->
  // captured Placeholders. Count 1; ops AddV2 3, Const 4, Identity 1, Placeholder 3, Sum 3;
  // captured_inputs shapes (256,), (128,), (129,).
  Tensor big = ones({256}), edge = ones({128}), over = ones({129});
  auto f = function("rules_cap_large", {"x"}, [&](Tensor x) {
    Tensor s = reduce_sum(big);  // one statement each: captures are numbered in trace order
    s = add(s, reduce_sum(edge));
    s = add(s, reduce_sum(over));
    return add(s, x);
  });
  EXPECT_EQ(f->call({Tensor::scalar<float>(1.0f)}).as_tensor().item<float>(), 514.0f);
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
  auto cf = f->get_concrete_function({Tensor::scalar<float>(1.0f)});
  std::map<std::string, int> ops{
      {"AddV2", 3}, {"Const", 4}, {"Identity", 1}, {"Placeholder", 3}, {"Sum", 3}};
  EXPECT_EQ(cf->graph()->op_counts(), ops);
  auto caps = cf->captured_inputs();
  ASSERT_EQ(caps.size(), 3u);
  EXPECT_EQ(caps[0].shape().str(), "(256,)");
  EXPECT_EQ(caps[1].shape().str(), "(128,)");
  EXPECT_EQ(caps[2].shape().str(), "(129,)");
}

TEST_F(TracingRulesTest, CaptureVariableIsReadAtRunTime) {
  // cap_variable: variable_add() = 1.0 + v; v.assign(100) is seen (2.0 then 101.0); pointing
  // the name at a new variable is not (101.0). Count 1; ops AddV2 1, Const 1, Identity 1, NoOp 1,
  // Placeholder 1, ReadVariableOp 1; one resource capture.
  auto v = std::make_shared<Variable>(Value(1.0));
  auto variable_add = function("rules_cap_variable", {}, [&v] {
    return add(Value(1.0), v->read_value());
  });
  EXPECT_EQ(variable_add->call({}).as_tensor().item<float>(), 2.0f);
  v->assign(Value(100.0));
  EXPECT_EQ(variable_add->call({}).as_tensor().item<float>(), 101.0f);
  v = std::make_shared<Variable>(Value(5.0));
  EXPECT_EQ(variable_add->call({}).as_tensor().item<float>(), 101.0f);
  EXPECT_EQ(variable_add->experimental_get_tracing_count(), 1);
  auto cf = variable_add->get_concrete_function({});
  std::map<std::string, int> ops{{"AddV2", 1}, {"Const", 1}, {"Identity", 1},
                                 {"NoOp", 1},  {"Placeholder", 1}, {"ReadVariableOp", 1}};
  EXPECT_EQ(cf->graph()->op_counts(), ops);
  ASSERT_EQ(cf->captured_inputs().size(), 1u);
  EXPECT_EQ(cf->captured_inputs()[0].dtype(), DType::kResource);
  EXPECT_EQ(cf->pretty_printed_signature(false),
            "() -> TensorSpec(shape=(), dtype=tf.float32, name=None)");
}

// ---------------------------------------------------------------------------------------------
// Side effects
// ---------------------------------------------------------------------------------------------

TEST_F(TracingRulesTest, SideEffectHostCodeOncePerTraceAssignAddEveryCall) {
  // seed_counter_side_effect: step(x) four times with float scalars -> count 1, py_counter 1,
  // v_counter 4. (TF's op counts for this graph are a GraphReport matter and not asserted here.)
  int py_counter = 0;
  Variable v_counter(Value(0));
  auto step = function("rules_counter_step", {"x"}, [&](Tensor x) {
    py_counter += 1;
    v_counter.assign_add(Value(1));
    return multiply(x, Value(2));
  });
  for (int i = 0; i < 4; ++i) {
    Value r = step->call({Tensor::scalar<float>(static_cast<float>(i))});
    EXPECT_EQ(r.as_tensor().item<float>(), 2.0f * static_cast<float>(i));
    EXPECT_EQ(step->experimental_get_tracing_count(), 1);
  }
  EXPECT_EQ(py_counter, 1);
  EXPECT_EQ(v_counter.numpy().item<int32_t>(), 4);
}

TEST_F(TracingRulesTest, SideEffectVariableCreatedOnFirstCallTracesTwice) {
  // var_create_first_call: a counter creating its variable on the first call -> the first call
  // traces twice (count 2, "trace" printed twice); later calls hit; the variable ends at 3.
  Lines& lines = trace_lines_;
  auto count = std::make_shared<std::optional<Variable>>();
  auto call = function("rules_var_first_call", {}, [&lines, count] {
    lines.push_back("trace");
    if (!count->has_value()) count->emplace(Value(0));
    return (*count)->assign_add(Value(1));
  });
  call->call({});
  EXPECT_EQ(call->experimental_get_tracing_count(), 2);
  call->call({});
  EXPECT_EQ(call->experimental_get_tracing_count(), 2);
  call->call({});
  EXPECT_EQ(call->experimental_get_tracing_count(), 2);
  EXPECT_EQ(lines, (Lines{"trace", "trace"}));
  ASSERT_TRUE(count->has_value());
  EXPECT_EQ((*count)->numpy().item<int32_t>(), 3);
}

TEST_F(TracingRulesTest, SideEffectVariableCreatedOnALaterCallRaises) {
  // var_create_later_call: g(x,False) -> 1 (3.0); g(x,True) traces, creates the variable and
  // raises ValueError "Creating variables on a non-first call to a function decorated with
  // tf.function." -> 2; g(x,False) again -> 3 (6.0); g(x,True) again -> 4 (6.0).
  Lines& lines = trace_lines_;
  auto holder = std::make_shared<std::vector<Variable>>();
  auto g = function("rules_var_later_call", {"x", "make"}, [&lines, holder](Tensor x, bool make) {
    lines.push_back(std::string("trace make = ") + (make ? "True" : "False"));
    if (make && holder->empty()) holder->emplace_back(Value(2.0));
    if (!holder->empty()) return multiply(x, (*holder)[0].read_value());
    return x;
  });
  Tensor x = Tensor::scalar<float>(3.0f);
  EXPECT_EQ(g->call({x, false}).as_tensor().item<float>(), 3.0f);
  EXPECT_EQ(g->experimental_get_tracing_count(), 1);
  EXPECT_EQ(error_of(*g, {x, true}),
            std::make_pair(std::string("ValueError"),
                           std::string("Creating variables on a non-first call to a function "
                                       "decorated with tf.function.")));
  EXPECT_EQ(g->experimental_get_tracing_count(), 2);
  EXPECT_EQ(g->call({x, false}).as_tensor().item<float>(), 6.0f);
  EXPECT_EQ(g->experimental_get_tracing_count(), 3);
  EXPECT_EQ(g->call({x, true}).as_tensor().item<float>(), 6.0f);
  EXPECT_EQ(g->experimental_get_tracing_count(), 4);
  EXPECT_EQ(lines, (Lines{"trace make = False", "trace make = True", "trace make = False",
                          "trace make = True"}));
}

// ---------------------------------------------------------------------------------------------
// ConcreteFunction
// ---------------------------------------------------------------------------------------------

TEST_F(TracingRulesTest, ConcreteFunctionFromSpecTracesWithoutRunning) {
  // s15_concrete_then_calls: get_concrete_function(TensorSpec([None], int32), 2) -> 1 (traced,
  // not run); scaled(a,2), (b,2), (c,2) hit it -> 1; scaled(c,3) -> 2. The concrete function's ops
  // are Const 1, Identity 1, Mul 1, NoOp 1, Placeholder 1, PrintV2 1, Shape 1, StringFormat 1.
  auto scaled = make_scaled("rules_concrete_first");
  auto cf = scaled->get_concrete_function({TensorSpec(PartialShape{kNone}, DType::kInt32), 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  EXPECT_TRUE(run_lines_.empty());
  Tensor a = i32({1, 2}), b = i32({8, 9}), c = i32({1, 2, 3, 4});
  scaled->call({a, 2});
  scaled->call({b, 2});
  scaled->call({c, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({c, 3});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 2);
  EXPECT_EQ(trace_lines_, (Lines{"TRACE (None,) 2", "TRACE (4,) 3"}));
  EXPECT_EQ(run_lines_, (Lines{"RUN [2] 2", "RUN [2] 2", "RUN [4] 2", "RUN [4] 3"}));
  std::map<std::string, int> ops{{"Const", 1}, {"Identity", 1},    {"Mul", 1},
                                 {"NoOp", 1},  {"Placeholder", 1}, {"PrintV2", 1},
                                 {"Shape", 1}, {"StringFormat", 1}};
  EXPECT_EQ(cf->graph()->op_counts(), ops);
  EXPECT_EQ(cf->pretty_printed_signature(false),
            "(x: TensorSpec(shape=(None,), dtype=tf.int32, name=None), factor: Literal[2]) -> "
            "TensorSpec(shape=(None,), dtype=tf.int32, name=None)");
  // Calling the concrete function never retraces.
  EXPECT_EQ(str((*cf)({c, 2})), "tf.Tensor([2 4 6 8], shape=(4,), dtype=int32)");
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 2);
}

TEST_F(TracingRulesTest, ConcreteFunctionCallsStructuredThenFlat) {
  // cf_call_structured_flat: cf = scaled.get_concrete_function(a, 2) -> count 1; cf(b, 2),
  // cf(b) (flat), cf(x=b, factor=2), cf(b, factor=2) give [16 18]; cf(a, 3), a (3,) tensor, a
  // float tensor and no arguments raise TF's TypeErrors; a Python list converts ([2 4]); the
  // count stays 1.
  FunctionOptions o;
  o.detector_key = "rules_cf_scaled";  // named `scaled` for the flat-signature texts
  auto scaled = function("scaled", {"x", "factor"}, [](Tensor x, Value factor) {
    return multiply(x, factor);
  }, o);
  Tensor a = i32({1, 2}), b = i32({8, 9});
  auto cf = scaled->get_concrete_function({a, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  const std::string r1618 = "tf.Tensor([16 18], shape=(2,), dtype=int32)";
  EXPECT_EQ(str((*cf)({b, 2})), r1618);
  EXPECT_EQ(str((*cf)({b})), r1618);
  EXPECT_EQ(str((*cf)({}, {{"x", b}, {"factor", 2}})), r1618);
  EXPECT_EQ(str((*cf)({b}, {{"factor", 2}})), r1618);
  auto cf_error = [&cf](const std::vector<Value>& args) -> std::pair<std::string, std::string> {
    try {
      (*cf)(args);
    } catch (const Error& e) {
      return {e.python_type(), e.what()};
    }
    return {"", "no error"};
  };
  const std::string sig =
      " for signature: (x: TensorSpec(shape=(2,), dtype=tf.int32, name=None), factor: "
      "Literal[2]) -> TensorSpec(shape=(2,), dtype=tf.int32, name=None).\nFallback to flat "
      "signature also failed due to: ";
  const std::string takes_one = "scaled(x) takes 1 positional arguments, got 2.";
  EXPECT_EQ(cf_error({a, 3}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `Can not cast 3 to "
                           "Literal[2]`. Received args: (<tf.Tensor: shape=(2,), dtype=int32, "
                           "numpy=array([1, 2], dtype=int32)>, 3) and kwargs: {}" + sig +
                               takes_one));
  EXPECT_EQ(cf_error({i32({1, 2, 3}), 2}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `Can not cast "
                           "TensorSpec(shape=(3,), dtype=tf.int32, name=None) to "
                           "TensorSpec(shape=(2,), dtype=tf.int32, name=None)`. Received args: "
                           "(<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], "
                           "dtype=int32)>, 2) and kwargs: {}" + sig + takes_one));
  EXPECT_EQ(cf_error({f32({1.0f, 2.0f}), 2}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `Can not cast "
                           "TensorSpec(shape=(2,), dtype=tf.float32, name=None) to "
                           "TensorSpec(shape=(2,), dtype=tf.int32, name=None)`. Received args: "
                           "(<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], "
                           "dtype=float32)>, 2) and kwargs: {}" + sig + takes_one));
  EXPECT_EQ(cf_error({}),
            std::make_pair(std::string("TypeError"),
                           "Binding inputs to tf.function failed due to `missing a required "
                           "argument: 'x'`. Received args: () and kwargs: {}" + sig +
                               "scaled(x) missing required arguments: x."));
  EXPECT_EQ(str((*cf)({Value::list({1, 2}), 2})), "tf.Tensor([2 4], shape=(2,), dtype=int32)");
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
}

// ---------------------------------------------------------------------------------------------
// Separate Functions and methods
// ---------------------------------------------------------------------------------------------

TEST_F(TracingRulesTest, SeparateFunctionsNeverShareTraces) {
  // seed_function_in_loop: three Functions over one callable, one call each -> each count 1;
  // one shared Function called with three int32 scalars -> count 1.
  auto plain = [](Tensor x) { return add(x, Value(1)); };
  for (int i = 0; i < 3; ++i) {
    auto f = function("rules_plain", {"x"}, plain);
    f->call({Tensor::scalar<int32_t>(1)});
    EXPECT_EQ(f->experimental_get_tracing_count(), 1) << "loop " << i;
  }
  auto g = function("rules_plain_shared", {"x"}, plain);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(g->call({Tensor::scalar<int32_t>(i)}).as_tensor().item<int32_t>(), i + 1);
    EXPECT_EQ(g->experimental_get_tracing_count(), 1) << "shared " << i;
  }
}

// A method: each instance owns its Function (TF caches the bound Function per instance).
struct M {
  explicit M(int64_t k_, Lines& lines) : k(k_) {
    f = function("rules_method_f", {"x"}, [this, &lines](Tensor x) {
      lines.push_back("trace k = " + std::to_string(k));
      return multiply(x, Value(k));
    });
  }
  int64_t k;
  std::shared_ptr<Function> f;
};

TEST_F(TracingRulesTest, MethodsGetPerInstanceCaches) {
  // meth_instances: m1.f(t) -> 1 (4), m2.f(t) -> 1 (6), m1.f(t) -> 1 (4); after m1.k = 10 the
  // stale graph still gives 4 (count 1); a new shape -> 2 (10 20).
  auto m1 = std::make_unique<M>(2, trace_lines_);
  auto m2 = std::make_unique<M>(3, trace_lines_);
  Tensor t = Tensor::scalar<int32_t>(2);
  EXPECT_EQ(m1->f->call({t}).as_tensor().item<int32_t>(), 4);
  EXPECT_EQ(m1->f->experimental_get_tracing_count(), 1);
  EXPECT_EQ(m2->f->call({t}).as_tensor().item<int32_t>(), 6);
  EXPECT_EQ(m2->f->experimental_get_tracing_count(), 1);
  EXPECT_EQ(m1->f->call({t}).as_tensor().item<int32_t>(), 4);
  EXPECT_EQ(m1->f->experimental_get_tracing_count(), 1);
  m1->k = 10;
  EXPECT_EQ(m1->f->call({t}).as_tensor().item<int32_t>(), 4);
  EXPECT_EQ(m1->f->experimental_get_tracing_count(), 1);
  EXPECT_EQ(m1->f->call({i32({1, 2})}).as_tensor().to_vector<int32_t>(),
            (std::vector<int32_t>{10, 20}));
  EXPECT_EQ(m1->f->experimental_get_tracing_count(), 2);
  EXPECT_EQ(trace_lines_, (Lines{"trace k = 2", "trace k = 3", "trace k = 10"}));
}

// ---------------------------------------------------------------------------------------------
// Beyond TF: ledger, RetraceProbe, fail-on-retrace, bounded cache
// ---------------------------------------------------------------------------------------------

TEST_F(TracingRulesTest, LedgerRecordsEachCallAndTraceReason) {
  // s04_tensor_factor's calls: 4 calls, 2 traces (TF's counts 1, 1, 2, 2); the ledger says why.
  auto scaled = make_scaled("rules_ledger");
  Tensor a = i32({1, 2}), b = i32({8, 9}), c = i32({1, 2, 3, 4});
  Tensor t2 = Tensor::scalar<int32_t>(2), t3 = Tensor::scalar<int32_t>(3);
  scaled->call({a, t2});
  scaled->call({b, t2});
  scaled->call({c, t2});
  scaled->call({c, t3});
  auto l = scaled->ledger();
  ASSERT_EQ(l.entries.size(), 4u);
  EXPECT_EQ(l.calls(), 4);
  EXPECT_EQ(l.traces(), 2);
  EXPECT_EQ(l.traces(), scaled->experimental_get_tracing_count());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(l.entries[static_cast<size_t>(i)].call, i + 1);
  EXPECT_TRUE(l.entries[0].traced);
  EXPECT_EQ(l.entries[0].reason, "first call");
  EXPECT_FALSE(l.entries[1].traced);
  EXPECT_EQ(l.entries[1].concrete_function, l.entries[0].concrete_function);
  EXPECT_TRUE(l.entries[2].traced);
  EXPECT_EQ(l.entries[2].reason, "x: shape (2,) -> (4,)");
  EXPECT_FALSE(l.entries[3].traced);
  EXPECT_EQ(l.entries[3].concrete_function, l.entries[2].concrete_function);
  EXPECT_NE(l.text().find("call 1 traced: first call"), std::string::npos) << l.text();
  EXPECT_NE(l.text().find("call 3 traced: x: shape (2,) -> (4,)"), std::string::npos) << l.text();
  EXPECT_FALSE(l.json().empty());
}

TEST_F(TracingRulesTest, RetraceProbeCountsTracesFromAttachment) {
  // seed_scaled's calls: (a,2) -> 1; the probe attaches; (b,2) -> 1, (c,2) -> 2, (c,3) -> 3. The
  // probe sees 3 calls and 2 traces.
  auto scaled = make_scaled("rules_probe");
  scaled->call({i32({1, 2}), 2});
  RetraceProbe probe(scaled);
  scaled->call({i32({8, 9}), 2});
  scaled->call({i32({1, 2, 3, 4}), 2});
  scaled->call({i32({1, 2, 3, 4}), 3});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 3);
  EXPECT_EQ(probe.calls(), 3);
  EXPECT_EQ(probe.traces(), 2);
  EXPECT_EQ(probe.entries().size(), 3u);
  EXPECT_FALSE(probe.report().empty());
}

TEST_F(TracingRulesTest, FailOnRetraceRaisesNamingTheReason) {
  // seed_scaled's calls: (a,2) -> 1, (b,2) -> 1; then fail-on-retrace: (b,2) still hits, (c,2)
  // would trace and raises instead, adding nothing (err_trace_failure_counts: a trace that raises
  // is not cached) -> 1.
  auto scaled = make_scaled("rules_fail_on_retrace");
  scaled->call({i32({1, 2}), 2});
  scaled->call({i32({8, 9}), 2});
  scaled->set_fail_on_retrace(true);
  scaled->call({i32({8, 9}), 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  auto [type, message] = error_of(*scaled, {i32({1, 2, 3, 4}), 2});
  EXPECT_FALSE(type.empty());
  EXPECT_NE(message.find("x: shape (2,) -> (4,)"), std::string::npos) << message;
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->set_fail_on_retrace(false);
  scaled->call({i32({1, 2, 3, 4}), 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 2);
}

TEST_F(TracingRulesTest, BoundedCacheEvictsLeastRecentlyUsed) {
  // tfscope's extra (TF's cache is unbounded, so there is no TF record to compare with): with
  // max_cache_entries = 2 the least recently used trace is evicted, the ledger names it, and a
  // call that needs it again traces again.
  FunctionOptions o;
  o.max_cache_entries = 2;
  auto scaled = make_scaled("rules_bounded_cache", o);
  scaled->call({i32({1, 2}), 2});
  scaled->call({i32({1, 2, 3}), 2});
  scaled->call({i32({1, 2}), 2});  // hit, (2,) becomes the most recent
  scaled->call({i32({1, 2, 3, 4}), 2});  // evicts (3,)
  scaled->call({i32({1, 2}), 2});  // hit
  scaled->call({i32({1, 2, 3}), 2});  // traces again, evicts (4,)
  auto l = scaled->ledger();
  ASSERT_EQ(l.entries.size(), 6u);
  EXPECT_EQ(l.traces(), 4);
  EXPECT_EQ(scaled->concrete_functions().size(), 2u);
  EXPECT_FALSE(l.entries[2].traced);
  EXPECT_FALSE(l.entries[4].traced);
  // Each eviction is listed as "<concrete function> (<its signature>)".
  ASSERT_EQ(l.entries[3].evicted.size(), 1u);
  EXPECT_EQ(l.entries[3].evicted[0].rfind(
                l.entries[1].concrete_function + " (x: TensorSpec(shape=(3,)", 0),
            0u)
      << l.entries[3].evicted[0];
  ASSERT_EQ(l.entries[5].evicted.size(), 1u);
  EXPECT_EQ(l.entries[5].evicted[0].rfind(
                l.entries[3].concrete_function + " (x: TensorSpec(shape=(4,)", 0),
            0u)
      << l.entries[5].evicted[0];
  for (int i : {0, 1, 2, 4}) EXPECT_TRUE(l.entries[static_cast<size_t>(i)].evicted.empty()) << i;
}

}  // namespace
}  // namespace tfs
