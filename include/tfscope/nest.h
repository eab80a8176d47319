// The one structure walker of the C++ side: TF's nest over Values. A structure is a list, a
// tuple, a namedtuple or a dict; everything else (None included) is a leaf. Flattening is depth
// first, a dict's values in the order Python's sorted() gives its keys; packing rebuilds each
// structure's own kind, a dict in its own key order. Binding, placeholders, flat calls and
// outputs all walk nests through these functions (python/tfscope/_nest.py is the Python one).
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "tfscope/value.h"

namespace tfs::nest {

// Whether `v` is a structure (list, tuple, namedtuple or dict), not a leaf.
bool is_nested(const Value& v);

// The positions of `keys` in the order Python's sorted() puts them: numbers by value (bool, int
// and float together), strings by code point, tuples element by element. Keys Python cannot
// order raise Python's TypeError ("'<' not supported between instances of 'int' and 'str'"),
// found by the comparisons CPython's sort makes. A dict with an opaque object key (which only
// Python could compare) keeps its insertion order.
std::vector<size_t> sorted_key_order(std::span<const Value> keys);
std::vector<size_t> sorted_key_order(const ValueItems& items);

// The direct children of a structure in flattening order (a dict's values by sorted key).
ValueList children(const Value& v);

// The leaves of `v`, depth first, dicts by sorted key ([v] for a leaf).
ValueList flatten(const Value& v);

// The number of leaves flatten(v) would give.
size_t count_leaves(const Value& v);

// `flat` in the shape of `structure`, with TF's ValueError when the counts differ.
Value pack_sequence_as(const Value& structure, std::span<const Value> flat);

// `fn` applied to each leaf of `structure` in flattening order, packed as `structure`.
Value map_structure(const Value& structure, const std::function<Value(const Value&)>& fn);

// TF's assert_same_structure: ValueError (TypeError for a different sequence type when
// `check_types`) with TF's text unless `a` and `b` nest alike.
void assert_same_structure(const Value& a, const Value& b, bool check_types = true);

}  // namespace tfs::nest
