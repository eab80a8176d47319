// The trace cache on its own: TF's dispatch (exact match, else the most specific supertype,
// ties to the earliest), reduce_retracing's generalisation, the bound, and the skeleton index
// that keeps a miss from comparing against every cached trace.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include "tfscope/trace_cache.h"
#include "tfscope/value.h"

namespace tfs {
namespace {

constexpr int64_t kNone = PartialShape::kUnknown;

FunctionType type_of(std::vector<TraceType> params) {
  FunctionType t;
  for (size_t i = 0; i < params.size(); ++i)
    t.params.push_back({"p" + std::to_string(i), ParamKind::kPositionalOrKeyword, params[i]});
  return t;
}

TraceType spec(PartialShape s, DType d = DType::kInt32) {
  return TraceType::tensor_spec(TensorSpec(std::move(s), d));
}

TraceType scalar() {
  return spec(PartialShape(std::vector<int64_t>{}));
}

// Distinct ConcreteFunction identities are all the cache needs; it never dereferences them.
std::shared_ptr<ConcreteFunction> token(int i) {
  return std::shared_ptr<ConcreteFunction>(
      std::shared_ptr<int>(), reinterpret_cast<ConcreteFunction*>(static_cast<uintptr_t>(i + 1)));
}

TEST(TraceCache, ExactMatchThenMostSpecificSupertype) {
  TraceCache c;
  c.insert(type_of({spec({kNone})}), 0, token(1));
  c.insert(type_of({spec({2})}), 0, token(2));
  c.insert(type_of({spec(PartialShape())}), 0, token(3));
  EXPECT_EQ(c.lookup(type_of({spec({2})}), 0).get(), token(2).get());
  EXPECT_EQ(c.lookup(type_of({spec({5})}), 0).get(),
            token(1).get());  // (None,) is more specific than <unknown>
  EXPECT_EQ(c.lookup(type_of({spec({5, 5})}), 0).get(), token(3).get());
  EXPECT_EQ(c.lookup(type_of({spec({5}, DType::kFloat32)}), 0).get(), nullptr);
  EXPECT_EQ(c.lookup(type_of({spec({2})}), 1).get(), nullptr);  // another scope
}

TEST(TraceCache, LiteralsNeverShareASkeleton) {
  TraceCache c;
  for (int n = 0; n < 500; ++n)
    c.insert(type_of({scalar(), TraceType::literal(Value(n))}), 0, token(n));
  EXPECT_EQ(c.lookup(type_of({scalar(), TraceType::literal(Value(600))}), 0).get(), nullptr);
  EXPECT_EQ(c.last_miss_candidates(), 0u);
  EXPECT_EQ(c.lookup(type_of({spec({3}), TraceType::literal(Value(7))}), 0).get(), nullptr);
  EXPECT_EQ(c.last_miss_candidates(), 1u);  // only (int32 (), 7) shares its skeleton
  // 2 == 2.0 == Literal[2]: Python equality, so the same trace.
  EXPECT_EQ(c.lookup(type_of({scalar(), TraceType::literal(Value(2.0))}), 0).get(), token(2).get());
}

TEST(TraceCache, EverySupertypeSharesTheRequestsSkeleton) {
  // Random shapes and their generalisations: whenever one type is a supertype of another (the
  // relation dispatch uses), their skeletons are equal, so the index cannot hide a trace.
  std::mt19937 gen(7);
  auto random_shape = [&]() -> PartialShape {
    int rank = static_cast<int>(gen() % 4) - 1;
    if (rank < 0) return PartialShape();
    std::vector<int64_t> d;
    for (int i = 0; i < rank; ++i)
      d.push_back(gen() % 3 == 0 ? kNone : static_cast<int64_t>(gen() % 3));
    return PartialShape(d);
  };
  int related = 0;
  for (int i = 0; i < 2000; ++i) {
    FunctionType a =
        type_of({spec(random_shape()), TraceType::literal(Value(static_cast<int>(gen() % 2)))});
    FunctionType b =
        type_of({spec(random_shape()), TraceType::literal(Value(static_cast<int>(gen() % 2)))});
    if (a.is_supertype_of(b) || b.is_supertype_of(a) || a.most_specific_common_subtype(b)) {
      ++related;
      EXPECT_EQ(a.skeleton_hash(), b.skeleton_hash())
          << a.signature_text() << " " << b.signature_text();
    }
  }
  EXPECT_GT(related, 100);
}

TEST(TraceCache, GeneralizeRelaxesAgainstTracesOfTheSameSkeleton) {
  TraceCache c;
  c.insert(type_of({spec({2}), TraceType::literal(Value(1))}), 0, token(1));
  c.insert(type_of({spec({2}), TraceType::literal(Value(2))}), 0, token(2));
  FunctionType g = c.generalize(type_of({spec({4}), TraceType::literal(Value(1))}), 0);
  EXPECT_EQ(g.signature_text(),
            "(p0: TensorSpec(shape=(None,), dtype=tf.int32, name=None), p1: Literal[1])");
  FunctionType h = c.generalize(type_of({spec({4}), TraceType::literal(Value(3))}), 0);
  EXPECT_EQ(h.signature_text(),
            "(p0: TensorSpec(shape=(4,), dtype=tf.int32, name=None), p1: Literal[3])");
}

TEST(TraceCache, BoundEvictsTheLeastRecentlyUsed) {
  TraceCache c(2);
  c.insert(type_of({spec({1})}), 0, token(1));
  c.insert(type_of({spec({2})}), 0, token(2));
  EXPECT_EQ(c.lookup(type_of({spec({1})}), 0).get(), token(1).get());
  auto evicted = c.insert(type_of({spec({3})}), 0, token(3));
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0].cf.get(), token(2).get());
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(c.lookup(type_of({spec({2})}), 0).get(), nullptr);
  auto all = c.concrete_functions();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].get(), token(1).get());
  EXPECT_EQ(all[1].get(), token(3).get());
}

// lookup_exact tries the last exact hit first: a call with the types of the call before is not
// hashed; any other call is, and finds its own trace; an evicted or other-scope trace is never
// returned.
TEST(TraceCache, LookupExactTriesTheLastHitFirst) {
  TraceCache c(2);
  FunctionType a = type_of({spec({1})}), b = type_of({spec({2})}), d = type_of({spec({3})});
  c.insert(a, 0, token(1));
  c.insert(b, 0, token(2));
  int hashed = 0;
  auto find = [&](const FunctionType& req, int scope) {
    size_t h = 0;
    auto cf = c.lookup_exact(
        scope, [&](const FunctionType& t) { return t == req; },
        [&] {
          ++hashed;
          return req.hash();
        },
        h);
    EXPECT_EQ(h, req.hash());
    return cf.get();
  };
  EXPECT_EQ(find(b, 0), token(2).get());  // the last insertion: not hashed
  EXPECT_EQ(hashed, 0);
  EXPECT_EQ(find(a, 0), token(1).get());
  EXPECT_EQ(hashed, 1);
  EXPECT_EQ(find(a, 0), token(1).get());  // the last hit again
  EXPECT_EQ(hashed, 1);
  EXPECT_EQ(find(a, 1), nullptr);  // the last hit's type in another scope
  EXPECT_EQ(hashed, 2);
  // b was used least recently: inserting d evicts it; then a is the last hit no more (d is).
  auto evicted = c.insert(d, 0, token(3));
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0].cf.get(), token(2).get());
  EXPECT_EQ(find(b, 0), nullptr);
  EXPECT_EQ(find(d, 0), token(3).get());
  EXPECT_EQ(hashed, 3);
  c.insert(b, 0, token(4));  // evicts a, the least recently used
  EXPECT_EQ(find(a, 0), nullptr);
  EXPECT_EQ(find(d, 0), token(3).get());
  EXPECT_EQ(find(b, 0), token(4).get());
}

TEST(TraceCache, ClosestPrefersTheNewestTraceDifferingLeast) {
  TraceCache c;
  c.insert(type_of({spec({2}), TraceType::literal(Value(1))}), 0, token(1));
  c.insert(type_of({spec({3}), TraceType::literal(Value(1))}), 0, token(2));
  const TraceCache::Entry* e = c.closest(type_of({spec({4}), TraceType::literal(Value(1))}), 0);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->cf.get(), token(2).get());
  EXPECT_EQ(c.closest(type_of({spec({4}), TraceType::literal(Value(1))}), 1), nullptr);
}

}  // namespace
}  // namespace tfs

namespace tfs {
namespace {

// The hit path's shortcuts against building the types: for every value (and every sequence of
// values, as a call's arguments, where variables are numbered across the call), hash_of gives
// from_value's hash and matches gives from_value's equality.
std::vector<std::vector<Value>> sample_calls() {
  auto v1 = std::make_shared<VariableState>(DType::kFloat32, PartialShape({3}), "a:0", true);
  auto v2 = std::make_shared<VariableState>(DType::kFloat32, PartialShape({3}), "b:0", true);
  auto obj = std::make_shared<Object>();
  Tensor t2 = Tensor::from_vector<int32_t>({1, 2});
  Tensor t3 = Tensor::from_vector<int32_t>({1, 2, 3});
  Tensor f2 = Tensor::from_vector<float>({1, 2});
  std::vector<Value> singles = {
      Value(),
      Value(2),
      Value(2.0),
      Value(true),
      Value(1),
      Value(0),
      Value(false),
      Value(1.0),
      Value(0.0),
      Value(-0.0),
      Value(2.5),
      Value(-3),
      Value(-3.0),
      Value(int64_t{1} << 62),
      Value(static_cast<double>(int64_t{1} << 62)),
      Value(1e300),
      Value(std::numeric_limits<double>::infinity()),
      Value(std::nan("")),
      Value(std::nan("1")),
      Value(""),
      Value("a"),
      Value(t2),
      Value(t3),
      Value(f2),
      Value(TensorSpec(PartialShape({2}), DType::kInt32)),
      Value(TensorSpec(PartialShape({2}), DType::kInt32, "x")),
      Value(TensorSpec(PartialShape({PartialShape::kUnknown}), DType::kInt32)),
      Value::list({Value(1), Value(t2)}),
      Value::tuple({Value(1), Value(t2)}),
      Value::list({Value::tuple({Value(t2)}), Value(2.5)}),
      Value::named_tuple("P", {"x", "y"}, {Value(1), Value(t2)}),
      Value::named_tuple("Q", {"x", "y"}, {Value(1), Value(t2)}),
      Value::dict({{Value("a"), Value(1)}, {Value("b"), Value(t2)}}),
      Value::dict({{Value("b"), Value(t2)}, {Value("a"), Value(1)}}),
      Value::dict({{Value("a"), Value(v1)}, {Value("b"), Value(v2)}}),
      Value::dict({{Value("b"), Value(v2)}, {Value("a"), Value(v1)}}),
      Value(v1),
      Value(v2),
      Value(obj)};
  std::vector<std::vector<Value>> calls;
  for (auto& v : singles) calls.push_back({v});
  calls.push_back({Value(v1), Value(v2)});
  calls.push_back({Value(v1), Value(v1)});
  calls.push_back({Value(v2), Value(v1)});
  calls.push_back({Value::list({Value(v1), Value(v2)}), Value(v1)});
  calls.push_back({Value(t2), Value(3)});
  calls.push_back({Value(t2), Value(3.0)});
  return calls;
}

TEST(TraceTypeShortcuts, HashOfIsTheBuiltTypesHash) {
  for (auto& call : sample_calls()) {
    TraceTypeBuilder built, shortcut;
    for (auto& v : call) {
      TraceType t = built.from_value(v);
      EXPECT_EQ(shortcut.hash_of(v), t.hash()) << t.repr();
    }
  }
}

TEST(TraceTypeShortcuts, MatchesIsTheBuiltTypesEquality) {
  auto calls = sample_calls();
  int equal = 0;
  for (auto& a : calls) {
    TraceTypeBuilder ba;
    std::vector<TraceType> ta;
    for (auto& v : a) ta.push_back(ba.from_value(v));
    for (auto& b : calls) {
      if (a.size() != b.size()) continue;
      TraceTypeBuilder bb, bm;
      bool all_equal = true, all_match = true;
      for (size_t i = 0; i < b.size(); ++i) {
        TraceType tb = bb.from_value(b[i]);
        const bool eq = ta[i] == tb;
        // Equal types hash alike (1, 1.0 and True are one literal), or the cache would miss.
        if (eq) {
          EXPECT_EQ(ta[i].hash(), tb.hash()) << ta[i].repr() << " " << tb.repr();
        }
        all_equal = eq && all_equal;
        all_match = bm.matches(ta[i], b[i]) && all_match;
      }
      EXPECT_EQ(all_match, all_equal) << ta[0].repr();
      equal += all_equal ? 1 : 0;
    }
  }
  EXPECT_GT(equal, static_cast<int>(calls.size()));  // some pairs of different values are equal
}

}  // namespace
}  // namespace tfs
