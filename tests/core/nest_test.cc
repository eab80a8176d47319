// tfs::nest against TF 2.21's tf.nest: every expected value and text below was printed by
// tensorflow-cpu 2.21.0 (Python 3.11) for the same structure.
#include "tfscope/nest.h"

#include <gtest/gtest.h>

#include "tfscope/errors.h"

namespace tfs {
namespace {

using nest::flatten;

Value D(ValueItems items) {
  return Value::dict(std::move(items));
}
Value L(ValueList items) {
  return Value::list(std::move(items));
}
Value T(ValueList items) {
  return Value::tuple(std::move(items));
}
Value P(Value x, Value y) {
  return Value::named_tuple("P", {"x", "y"}, {std::move(x), std::move(y)});
}

std::string flat_repr(const Value& v) {
  return L(flatten(v)).repr();
}

// The error `fn` raises, as "Kind: text".
template <class F>
std::string error_of(F fn) {
  try {
    fn();
  } catch (const Error& e) {
    return std::string(e.kind() == ErrorKind::kTypeError ? "TypeError: " : "ValueError: ") +
           e.what();
  }
  return "no error";
}

TEST(Nest, FlattensDepthFirstDictsBySortedKey) {
  // tf.nest.flatten({'b': 1, 'a': [2, (3, P(4, 5))], 'c': None})
  Value v = D({{"b", 1}, {"a", L({2, T({3, P(4, 5)})})}, {"c", Value()}});
  EXPECT_EQ(flat_repr(v), "[2, 3, 4, 5, 1, None]");
  EXPECT_EQ(nest::count_leaves(v), 6u);
  EXPECT_EQ(flat_repr(Value(7)), "[7]");
}

TEST(Nest, SortsKeysAsPythonSorted) {
  // Numbers by value across bool, int and float (not by their text: 10 after 2).
  EXPECT_EQ(flat_repr(D({{2, "a"}, {10, "b"}, {1, "c"}})), "['c', 'a', 'b']");
  EXPECT_EQ(flat_repr(D({{3, "a"}, {1.5, "b"}, {-2, "c"}, {true, "d"}, {2.5, "e"}, {0, "f"}})),
            "['c', 'f', 'd', 'b', 'e', 'a']");
  // Strings by code point ('Z' < 'z' < e-acute < an emoji); a quote in a key changes nothing.
  EXPECT_EQ(flat_repr(D({{"\xc3\xa9", 0}, {"z", 1}, {"\xf0\x9f\x98\x80", 2}, {"Z", 3}})),
            "[3, 1, 0, 2]");
  EXPECT_EQ(flat_repr(D({{"b", 1}, {"B", 2}, {"a", 3}, {"a'", 4}})), "[2, 3, 4, 1]");
  // Tuples element by element, a prefix first.
  EXPECT_EQ(flat_repr(D({{T({1}), 0}, {T({0, 5, 1}), 1}, {T({0, 5}), 2}})), "[2, 1, 0]");
  // Large ints against a float exactly: 2**62 < 2**62 + 1 < 2.0**62 + 2**11.
  const int64_t big = int64_t{1} << 62;
  EXPECT_EQ(flat_repr(D({{big, 0}, {static_cast<double>(big) + 2048.0, 1}, {big + 1, 2}})),
            "[0, 2, 1]");
}

TEST(Nest, UnorderableKeysRaisePythonsTypeErrorForTheFirstFailingComparison) {
  auto flat = [](Value v) { return [v] { flatten(v); }; };
  EXPECT_EQ(error_of(flat(D({{"a", 1}, {2, 3}}))),
            "TypeError: '<' not supported between instances of 'int' and 'str'");
  EXPECT_EQ(error_of(flat(D({{1, 0}, {"a", 1}, {2, 2}}))),
            "TypeError: '<' not supported between instances of 'str' and 'int'");
  EXPECT_EQ(error_of(flat(D({{"a", 0}, {"b", 1}, {3, 2}}))),
            "TypeError: '<' not supported between instances of 'int' and 'str'");
  EXPECT_EQ(error_of(flat(D({{Value(), 0}, {1, 1}}))),
            "TypeError: '<' not supported between instances of 'int' and 'NoneType'");
  EXPECT_EQ(error_of(flat(D({{T({1, "a"}), 0}, {T({1, 2}), 1}}))),
            "TypeError: '<' not supported between instances of 'int' and 'str'");
}

TEST(Nest, PacksEachStructureInItsOwnKindAndDictOrder) {
  // tf.nest.pack_sequence_as({'b': 0, 'a': [0, 0]}, [1, 2, 3]) == {'b': 3, 'a': [1, 2]}
  ValueList flat{1, 2, 3};
  Value packed = nest::pack_sequence_as(D({{"b", 0}, {"a", L({0, 0})}}), flat);
  EXPECT_EQ(packed.repr(), "{'b': 3, 'a': [1, 2]}");
  ValueList two{5, 6};
  EXPECT_EQ(nest::pack_sequence_as(T({P(0, 0)}), two).repr(), "(P(x=5, y=6),)");
  Value mapped = nest::map_structure(D({{10, 1}, {2, 2}}),
                                     [](const Value& x) { return Value(x.as_int() * 10); });
  EXPECT_EQ(mapped.repr(), "{10: 10, 2: 20}");
}

TEST(Nest, PackErrorsAreTFs) {
  EXPECT_EQ(error_of([] {
              ValueList f{5, 6, 7};
              nest::pack_sequence_as(L({1, L({2})}), f);
            }),
            "ValueError: Could not pack sequence. Structure had 2 atoms, but flat_sequence had 3 "
            "items.  Structure: [1, [2]], flat_sequence: [5, 6, 7].");
  EXPECT_EQ(error_of([] {
              ValueList f{5, 6};
              nest::pack_sequence_as(Value(1), f);
            }),
            "ValueError: The target structure is of type `<class 'int'>`\n  1\nHowever the input "
            "is a sequence (<class 'list'>) of length 2.\n  [5, 6]\nnest cannot guarantee that it "
            "is safe to map one to the other.");
}

TEST(Nest, AssertSameStructureTextsAreTFs) {
  const std::string head = "The two structures don't have the same nested structure.\n\n";
  EXPECT_EQ(error_of([] {
              nest::assert_same_structure(L({1, T({2, 3})}), L({1, 2}));
            }),
            "ValueError: " + head +
                "First structure: type=list str=[1, (2, 3)]\n\nSecond structure: type=list "
                "str=[1, 2]\n\nMore specifically: Substructure \"type=tuple str=(2, 3)\" is a "
                "sequence, while substructure \"type=int str=2\" is not\nEntire first "
                "structure:\n[., (., .)]\nEntire second structure:\n[., .]");
  EXPECT_EQ(error_of([] {
              nest::assert_same_structure(L({1, 2}), T({1, 2}));
            }),
            "TypeError: " + head +
                "First structure: type=list str=[1, 2]\n\nSecond structure: type=tuple str=(1, "
                "2)\n\nMore specifically: The two namedtuples don't have the same sequence type. "
                "First structure type=list str=[1, 2] has type list, while second structure "
                "type=tuple str=(1, 2) has type tuple\nEntire first structure:\n[., .]\nEntire "
                "second structure:\n(., .)");
  EXPECT_EQ(error_of([] {
              nest::assert_same_structure(D({{"a", 1}, {"b", 2}}), D({{"a", 1}, {"c", 2}}));
            }),
            "ValueError: " + head +
                "First structure: type=dict str={'a': 1, 'b': 2}\n\nSecond structure: type=dict "
                "str={'a': 1, 'c': 2}\n\nMore specifically: The two dictionaries don't have the "
                "same set of keys. First structure has keys type=list str=['a', 'b'], while "
                "second structure has keys type=list str=['a', 'c']\nEntire first "
                "structure:\n{'a': ., 'b': .}\nEntire second structure:\n{'a': ., 'c': .}");
  EXPECT_EQ(error_of([] {
              nest::assert_same_structure(L({1, 2}), L({1, 2, 3}));
            }),
            "ValueError: " + head +
                "First structure: type=list str=[1, 2]\n\nSecond structure: type=list str=[1, 2, "
                "3]\n\nMore specifically: The two structures don't have the same number of "
                "elements. First structure: type=list str=[1, 2]. Second structure: type=list "
                "str=[1, 2, 3]\nEntire first structure:\n[., .]\nEntire second structure:\n[., "
                "., .]");
  EXPECT_EQ(error_of([] {
              nest::assert_same_structure(P(1, 2), T({1, 2}));
            }),
            "TypeError: " + head +
                "First structure: type=P str=P(x=1, y=2)\n\nSecond structure: type=tuple str=(1, "
                "2)\n\nMore specifically: The two namedtuples don't have the same sequence type. "
                "First structure type=P str=P(x=1, y=2) has type P, while second structure "
                "type=tuple str=(1, 2) has type tuple\nEntire first structure:\nP(x=., y=.)\n"
                "Entire second structure:\n(., .)");
  EXPECT_EQ(error_of([] { nest::assert_same_structure(L({1, 2}), T({1, 2}), false); }), "no error");
}

}  // namespace
}  // namespace tfs
