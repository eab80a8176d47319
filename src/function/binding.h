// Argument binding as Python's inspect.Signature.bind + apply_defaults, then TF's unrolling of
// *args (args_0, args_1, ... positional-only) and **kwargs (keyword-only, sorted by name); and
// the cast of bound arguments to an input_signature, with TF's binding errors.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tfscope/function_type.h"

namespace tfs::detail {

// The names and kinds of bound arguments, in order. A call that fills the parameters one to
// one shares the Function's own layout, so binding it copies no name.
struct ArgLayout {
  std::vector<std::string> names;
  std::vector<ParamKind> kinds;
  std::vector<size_t> name_hashes;  // std::hash of each name, as FunctionType::hash mixes them
  static std::shared_ptr<const ArgLayout> make(std::vector<std::string> names,
                                               std::vector<ParamKind> kinds);
};

struct BoundArguments {
  std::vector<Value> values;
  std::shared_ptr<const ArgLayout> layout;
  // How the body is called: positional values, then keyword-only ones by name.
  size_t num_positional = 0;
  size_t size() const { return values.size(); }
  const std::string& name(size_t i) const { return layout->names[i]; }
  ParamKind kind(size_t i) const { return layout->kinds[i]; }
};

// The layout of a call that fills `params` one to one (null when a parameter is *args/**kwargs).
std::shared_ptr<const ArgLayout> plain_layout(const std::vector<Parameter>& params);

// Throws TypeError with CPython's inner texts ("missing a required argument: 'factor'").
// `plain` is plain_layout(params), when the caller keeps it.
BoundArguments bind_arguments(const std::vector<Parameter>& params, const std::vector<Value>& args,
                              const Kwargs& kwargs,
                              const std::shared_ptr<const ArgLayout>& plain = nullptr);

// Casts each bound value to its input_signature type, as TF's function_type cast does: tensors
// must fit their spec, host values convert to the spec's dtype (a Const while a graph is being
// built), nests must match. `fail` raises the binding error around an inner message (it must
// throw).
using BindingFailure = std::function<void(const std::string& inner)>;

// TF 2.21's text when a value is not the container a list, tuple or dict type wants (a tensor,
// a number, the other kind of sequence, a tuple of the wrong length, a dict with other keys);
// empty when the value is the right container. The one place for these texts: binding to an
// input_signature and a ConcreteFunction's structured call both use it.
std::string container_mismatch(const Value& v, const TraceType& t);

// TF's NamedTuple.cast check: "" when `v` is a namedtuple with the fields of `t` (any type name:
// TF casts a Q(x, y) to a P(x, y)), else TF's text ("Cannot cast (1, 2) to type <class
// '__main__.P'>.", "... has different attributes with the TraceType P[...]").
std::string namedtuple_mismatch(const Value& v, const TraceType& t);
void cast_to_signature(BoundArguments& b, const std::vector<TypedParameter>& signature,
                       const BindingFailure& fail);

// TF's add_type_constraints: the parameters of a function with an input_signature. *args takes
// the constraints left after the positional ones (args_0, args_1, ... positional-only; every
// positional-or-keyword parameter becomes positional-only beside it), **kwargs is dropped, a
// parameter without a constraint takes its default's type. `params` becomes the parameters calls
// bind against (defaults kept); throws TypeError with TF's texts. `signature` must hold
// TensorSpecs in lists, tuples, namedtuples and dicts (checked first, as TF does).
std::vector<TypedParameter> add_type_constraints(std::vector<Parameter>& params,
                                                 const std::vector<Value>& signature);

// "(x, factor=<captured_default_value>)": how TF prints a signature with no input_signature.
std::string plain_signature_text(const std::vector<Parameter>& params);
// "(<tf.Tensor: ...>, 2)" and "{'y': 1}".
std::string args_repr(const std::vector<Value>& args);
std::string kwargs_repr(const Kwargs& kwargs);
// repr(type(v)) for a host value, as TF's messages print it: "<class 'int'>".
std::string python_class_repr(const Value& v);

}  // namespace tfs::detail
