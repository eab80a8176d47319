#include <gtest/gtest.h>

#include <cmath>

#include "tfscope/value.h"

namespace tfs {
namespace {

TEST(Value, PythonNumericEquality) {
  EXPECT_TRUE(Value(2) == Value(2.0));
  EXPECT_TRUE(Value(true) == Value(1));
  EXPECT_TRUE(Value(false) == Value(0.0));
  EXPECT_FALSE(Value(2) == Value(3));
  EXPECT_FALSE(Value(std::nan("")) == Value(std::nan("")));
  EXPECT_FALSE(Value("2") == Value(2));
}

TEST(Value, EqualNumbersHashAlike) {
  EXPECT_EQ(Value(2).hash(), Value(2.0).hash());
  EXPECT_EQ(Value(true).hash(), Value(1).hash());
  EXPECT_EQ(Value(-0.0).hash(), Value(0).hash());
}

TEST(Value, ListAndTupleDiffer) {
  EXPECT_FALSE(Value::list({1, 2}) == Value::tuple({1, 2}));
  EXPECT_TRUE(Value::list({1, 2}) == Value::list({1, 2.0}));
}

TEST(Value, DictEqualityIgnoresOrder) {
  Value a = Value::dict({{"a", 1}, {"b", 2}});
  Value b = Value::dict({{"b", 2}, {"a", 1}});
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.hash(), b.hash());
}

TEST(Value, ReprMatchesPython) {
  EXPECT_EQ(Value(2.0).repr(), "2.0");
  EXPECT_EQ(Value(0.1).repr(), "0.1");
  EXPECT_EQ(Value(1e16).repr(), "1e+16");
  EXPECT_EQ(Value(1e-5).repr(), "1e-05");
  EXPECT_EQ(Value(123.456).repr(), "123.456");
  EXPECT_EQ(Value(true).repr(), "True");
  EXPECT_EQ(Value("it's").repr(), "\"it's\"");
  EXPECT_EQ(Value::tuple({1}).repr(), "(1,)");
  EXPECT_EQ(Value::list({1, "a", Value()}).repr(), "[1, 'a', None]");
  EXPECT_EQ(Value::dict({{"a", 1}}).repr(), "{'a': 1}");
}

}  // namespace
}  // namespace tfs
