#include "tfscope/nest.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "tfscope/errors.h"

namespace tfs::nest {

namespace {

using K = Value::Kind;

// type(x).__name__ as Python prints it in TF's messages.
std::string type_name(const Value& v) {
  switch (v.kind()) {
    case K::kNone:
      return "NoneType";
    case K::kBool:
      return "bool";
    case K::kInt:
      return "int";
    case K::kFloat:
      return "float";
    case K::kStr:
      return "str";
    case K::kList:
      return "list";
    case K::kTuple:
      return "tuple";
    case K::kDict:
      return "dict";
    case K::kNamedTuple:
      return v.named_tuple().type_name;
    case K::kTensor:
      return v.as_tensor().is_symbolic() ? "SymbolicTensor" : "EagerTensor";
    case K::kVariable:
      return "ResourceVariable";
    case K::kTensorSpec:
      return "TensorSpec";
    case K::kObject:
      return "object";
  }
  return "object";
}

bool is_sequence(const Value& v) {
  K k = v.kind();
  return k == K::kList || k == K::kTuple || k == K::kNamedTuple;
}

[[noreturn]] void not_orderable(const Value& a, const Value& b) {
  type_error("'<' not supported between instances of '" + type_name(a) + "' and '" + type_name(b) +
             "'");
}

// Python's `a < b` for the keys a dict can hold.
bool py_less(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.kind() == K::kFloat || b.kind() == K::kFloat) {
      // long double holds every int64 exactly, so an int compares with a float as Python does.
      long double x = a.kind() == K::kFloat ? a.as_double() : a.as_int();
      long double y = b.kind() == K::kFloat ? b.as_double() : b.as_int();
      return x < y;  // false when either is NaN
    }
    return a.as_int() < b.as_int();
  }
  if (a.kind() == K::kStr && b.kind() == K::kStr)
    return a.as_str() < b.as_str();  // UTF-8: code points
  bool ta = a.kind() == K::kTuple || a.kind() == K::kNamedTuple;
  bool tb = b.kind() == K::kTuple || b.kind() == K::kNamedTuple;
  if (ta && tb) {
    const ValueList& x = a.items();
    const ValueList& y = b.items();
    size_t n = std::min(x.size(), y.size());
    for (size_t i = 0; i < n; ++i)
      if (!(x[i] == y[i])) return py_less(x[i], y[i]);
    return x.size() < y.size();
  }
  not_orderable(a, b);
}

// A leaf printed as '.', structures as Python prints them: TF's "Entire structure" text.
std::string dot_text(const Value& v) {
  switch (v.kind()) {
    case K::kList:
    case K::kTuple: {
      bool list = v.kind() == K::kList;
      std::string s = list ? "[" : "(";
      const ValueList& it = v.items();
      for (size_t i = 0; i < it.size(); ++i) s += (i ? ", " : "") + dot_text(it[i]);
      if (!list && it.size() == 1) s += ",";
      return s + (list ? "]" : ")");
    }
    case K::kNamedTuple: {
      const NamedTupleValue& nt = v.named_tuple();
      std::string s = nt.type_name + "(";
      for (size_t i = 0; i < nt.values.size(); ++i)
        s += (i ? ", " : "") + nt.fields[i] + "=" + dot_text(nt.values[i]);
      return s + ")";
    }
    case K::kDict: {
      std::string s = "{";
      const ValueItems& it = v.dict_items();
      for (size_t i = 0; i < it.size(); ++i)
        s += (i ? ", " : "") + it[i].first.repr() + ": " + dot_text(it[i].second);
      return s + "}";
    }
    default:
      return ".";
  }
}

std::string describe(const Value& v) {
  return "type=" + type_name(v) + " str=" + v.str();
}

std::string list_repr(std::span<const Value> flat) {
  std::string s = "[";
  for (size_t i = 0; i < flat.size(); ++i) s += (i ? ", " : "") + flat[i].repr();
  return s + "]";
}

// The first difference between a and b as (is a type error, detail), or an empty detail.
std::pair<bool, std::string> first_difference(const Value& a, const Value& b, bool check_types) {
  bool na = is_nested(a), nb = is_nested(b);
  if (na != nb) {
    const Value& seq = na ? a : b;
    const Value& leaf = na ? b : a;
    return {false, "Substructure \"" + describe(seq) + "\" is a sequence, while substructure \"" +
                       describe(leaf) + "\" is not"};
  }
  if (!na) return {false, {}};
  if (check_types && type_name(a) != type_name(b)) {
    return {true, "The two namedtuples don't have the same sequence type. First structure " +
                      describe(a) + " has type " + type_name(a) + ", while second structure " +
                      describe(b) + " has type " + type_name(b)};
  }
  if (a.kind() == K::kDict && b.kind() == K::kDict) {
    bool same = a.dict_items().size() == b.dict_items().size();
    for (size_t i = 0; same && i < a.dict_items().size(); ++i)
      same = b.dict_get(a.dict_items()[i].first) != nullptr;
    if (!same) {
      ValueList ka, kb;
      for (auto& kv : a.dict_items()) ka.push_back(kv.first);
      for (auto& kv : b.dict_items()) kb.push_back(kv.first);
      return {false,
              "The two dictionaries don't have the same set of keys. First structure has "
              "keys " +
                  describe(Value::list(ka)) + ", while second structure has keys " +
                  describe(Value::list(kb))};
    }
  }
  ValueList ca = children(a), cb = children(b);
  if (ca.size() != cb.size()) {
    return {false, "The two structures don't have the same number of elements. First structure: " +
                       describe(a) + ". Second structure: " + describe(b)};
  }
  for (size_t i = 0; i < ca.size(); ++i) {
    auto d = first_difference(ca[i], cb[i], check_types);
    if (!d.second.empty()) return d;
  }
  return {false, {}};
}

void flatten_into(const Value& v, ValueList& out) {
  switch (v.kind()) {
    case K::kList:
    case K::kTuple:
    case K::kNamedTuple:
      for (const Value& x : v.items()) flatten_into(x, out);
      return;
    case K::kDict: {
      const ValueItems& it = v.dict_items();
      for (size_t i : sorted_key_order(it)) flatten_into(it[i].second, out);
      return;
    }
    default:
      out.push_back(v);
  }
}

// Rebuilds `s` with each leaf replaced by next(leaf), leaves taken in flattening order.
template <class Next>
Value rebuild(const Value& s, Next& next) {
  switch (s.kind()) {
    case K::kList:
    case K::kTuple:
    case K::kNamedTuple: {
      ValueList items;
      items.reserve(s.items().size());
      for (const Value& x : s.items()) items.push_back(rebuild(x, next));
      if (s.kind() == K::kList) return Value::list(std::move(items));
      if (s.kind() == K::kTuple) return Value::tuple(std::move(items));
      return Value::named_tuple(s.named_tuple().type_name, s.named_tuple().fields,
                                std::move(items));
    }
    case K::kDict: {
      const ValueItems& it = s.dict_items();
      ValueItems out(it.size());
      for (size_t i : sorted_key_order(it)) out[i] = {it[i].first, rebuild(it[i].second, next)};
      return Value::dict(std::move(out));
    }
    default:
      return next(s);
  }
}

}  // namespace

bool is_nested(const Value& v) {
  return is_sequence(v) || v.kind() == K::kDict;
}

namespace {

// CPython's list.sort of n keys, key(i) the i-th: the positions in sorted order.
template <class Key>
std::vector<size_t> python_sort(size_t n, const Key& key) {
  std::vector<size_t> a(n);
  std::iota(a.begin(), a.end(), size_t{0});
  if (n < 2) return a;
  for (size_t i = 0; i < n; ++i)
    if (key(i).kind() == K::kObject) return a;  // only Python could order these: kept as inserted
  auto lt = [&](size_t x, size_t y) { return py_less(key(x), key(y)); };
  if (n >= 64) {  // CPython merges runs here; the order is the same, only a failing pair may differ
    std::stable_sort(a.begin(), a.end(), lt);
    return a;
  }
  // CPython's sort of a short list: the leading run (reversed when strictly descending), then
  // binary insertion of the rest, making the same comparisons in the same order.
  size_t run = 2;
  if (lt(a[1], a[0])) {
    while (run < n && lt(a[run], a[run - 1])) ++run;
    std::reverse(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(run));
  } else {
    while (run < n && !lt(a[run], a[run - 1])) ++run;
  }
  for (size_t start = run; start < n; ++start) {
    size_t pivot = a[start], l = 0, r = start;
    do {
      size_t p = l + ((r - l) >> 1);
      if (lt(pivot, a[p]))
        r = p;
      else
        l = p + 1;
    } while (l < r);
    std::rotate(a.begin() + static_cast<std::ptrdiff_t>(l),
                a.begin() + static_cast<std::ptrdiff_t>(start),
                a.begin() + static_cast<std::ptrdiff_t>(start) + 1);
  }
  return a;
}

}  // namespace

std::vector<size_t> sorted_key_order(std::span<const Value> keys) {
  return python_sort(keys.size(), [&](size_t i) -> const Value& { return keys[i]; });
}

std::vector<size_t> sorted_key_order(const ValueItems& items) {
  return python_sort(items.size(), [&](size_t i) -> const Value& { return items[i].first; });
}

ValueList children(const Value& v) {
  if (is_sequence(v)) return v.items();
  ValueList out;
  if (v.kind() != K::kDict) return out;
  const ValueItems& it = v.dict_items();
  out.reserve(it.size());
  for (size_t i : sorted_key_order(it)) out.push_back(it[i].second);
  return out;
}

ValueList flatten(const Value& v) {
  ValueList out;
  flatten_into(v, out);
  return out;
}

size_t count_leaves(const Value& v) {
  if (is_sequence(v)) {
    size_t n = 0;
    for (const Value& x : v.items()) n += count_leaves(x);
    return n;
  }
  if (v.kind() == K::kDict) {
    size_t n = 0;
    for (const auto& kv : v.dict_items()) n += count_leaves(kv.second);
    return n;
  }
  return 1;
}

Value pack_sequence_as(const Value& structure, std::span<const Value> flat) {
  if (!is_nested(structure)) {
    if (flat.size() != 1) {
      value_error("The target structure is of type `<class '" + type_name(structure) + "'>`\n  " +
                  structure.str() +
                  "\nHowever the input is a sequence (<class 'list'>) of length " +
                  std::to_string(flat.size()) + ".\n  " + list_repr(flat) +
                  "\nnest cannot guarantee that it is safe to map one to the other.");
    }
    return flat[0];
  }
  size_t n = count_leaves(structure);
  if (n != flat.size()) {
    value_error("Could not pack sequence. Structure had " + std::to_string(n) +
                " atoms, but flat_sequence had " + std::to_string(flat.size()) +
                " items.  Structure: " + structure.str() + ", flat_sequence: " + list_repr(flat) +
                ".");
  }
  size_t k = 0;
  auto next = [&](const Value&) -> Value { return flat[k++]; };
  return rebuild(structure, next);
}

Value map_structure(const Value& structure, const std::function<Value(const Value&)>& fn) {
  return rebuild(structure, fn);
}

void assert_same_structure(const Value& a, const Value& b, bool check_types) {
  auto [is_type, detail] = first_difference(a, b, check_types);
  if (detail.empty()) return;
  std::string msg =
      "The two structures don't have the same nested structure.\n\nFirst structure: " +
      describe(a) + "\n\nSecond structure: " + describe(b) + "\n\nMore specifically: " + detail +
      "\nEntire first structure:\n" + dot_text(a) + "\nEntire second structure:\n" + dot_text(b);
  if (is_type) type_error(msg);
  value_error(msg);
}

}  // namespace tfs::nest
