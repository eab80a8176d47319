// The Tensor and Variable classes and the op functions of the Python API.
#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/complex.h"
#include "tfscope/complex_ops.h"
#include "tfscope/control_flow.h"
#include "tfscope/format.h"
#include "tfscope/host_array.h"
#include "tfscope/ops.h"
#include "tfscope/ops_array.h"

namespace tfpy {

using tfs::Tensor;
using tfs::Value;

// An eager complex tensor: printed from numpy's text of its value, as TF prints every eager
// tensor (the engine's own formatter covers the real dtypes).
bool complex_eager(const Tensor& t) {
  return t.is_eager() && tfs::is_complex(t.dtype());
}

// TF's numpy_text: repr() or str() of the value, on a new line when it spans several.
std::string numpy_text(const Tensor& t, bool is_repr) {
  nb::object v = tensor_to_numpy(t);
  // numpy 2 reprs a scalar as "np.complex64(...)"; TF's text is numpy's legacy one, "(1+2j)".
  nb::object opts = registry().numpy.attr("printoptions")("legacy"_a = "1.25");
  opts.attr("__enter__")();
  std::string text;
  try {
    text = nb::cast<std::string>(is_repr ? nb::repr(v) : nb::str(v));
  } catch (...) {
    opts.attr("__exit__")(nb::none(), nb::none(), nb::none());
    throw;
  }
  opts.attr("__exit__")(nb::none(), nb::none(), nb::none());
  if (text.find('\n') != std::string::npos) text = "\n" + text;
  return text;
}

Value operand(nb::handle h) {
  if (nb::isinstance<Tensor>(h)) return Value(nb::cast<Tensor>(h));
  // A composite that converts to a tensor (tf.IndexedSlices: its UnsortedSegmentSum).
  if (nb::hasattr(h, "_tfscope_dense")) return Value(to_tensor(h));
  if (nb::hasattr(h, "_tfscope_variable")) h = h.attr("_tfscope_variable");
  // A variable stays a variable: the op wrapper reads it inside its name scope
  // ("add/ReadVariableOp").
  if (nb::isinstance<tfs::Variable>(h)) return Value(nb::cast<tfs::Variable&>(h).state());
  bool is_np = nb::hasattr(h, "__array__") && !PyType_Check(h.ptr()) && !PyList_Check(h.ptr());
  if (is_np || is_tensor_shape(h)) return Value(to_tensor(h));
  return to_value(h);
}

Value converted_operand(nb::handle h) {
  bool is_np = nb::hasattr(h, "__array__") && !PyType_Check(h.ptr()) && !PyList_Check(h.ptr()) &&
               !PyTuple_Check(h.ptr()) && !nb::isinstance<Tensor>(h) &&
               !nb::hasattr(h, "_tfscope_dense") && !nb::hasattr(h, "_tfscope_variable") &&
               !nb::isinstance<tfs::Variable>(h);
  if (is_np) {
    // TF's eager fast path takes an ndarray, not a numpy scalar (HostArray::is_ndarray).
    nb::object ndarray = registry().numpy.attr("ndarray");
    return tfs::host_array(numpy_to_tensor(h), PyObject_IsInstance(h.ptr(), ndarray.ptr()) == 1);
  }
  return operand(h);
}

namespace {

// Runs `f` inside the name scope the next op named `base` will get (graph mode), so what it
// converts is named as TF's wrappers name it ("MatMul/ReadVariableOp").
// `mark_used` reserves the scope name now (a scope of its own, like "Read"); otherwise the op
// created next takes the name.
template <typename F>
Tensor in_op_scope(const std::string& base, F f, bool mark_used = false) {
  tfs::GraphBuilder* b = tfs::current_builder();
  if (!b) return f();
  b->push_scope(b->unique_name(tfs::WrapperName::rename(base, mark_used), mark_used));
  struct Pop {
    tfs::GraphBuilder* b;
    ~Pop() { b->pop_scope(); }
  } pop{b};
  return f();
}

using BinFn = Tensor (*)(const Value&, const Value&);

// A host operand holding Python complex numbers beside a complex tensor is converted to that
// tensor's dtype, as TF's binary operators convert `z + 1j`.
Value operand_beside(nb::handle h, nb::handle other) {
  if (holds_complex(h) && nb::isinstance<Tensor>(other)) {
    const Tensor& o = nb::cast<const Tensor&>(other);
    if (tfs::is_complex(o.dtype())) return Value(to_tensor(h, o.dtype()));
  }
  return converted_operand(h);
}

template <BinFn F>
nb::object bin(nb::handle a, nb::handle b) {
  return nb::cast(F(operand_beside(a, b), operand_beside(b, a)));
}
template <BinFn F>
nb::object rbin(nb::handle a, nb::handle b) {
  return nb::cast(F(operand_beside(b, a), operand_beside(a, b)));
}

std::optional<std::vector<int64_t>> axis_arg(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  std::vector<int64_t> v;
  if (PyLong_Check(axis.ptr())) {
    v.push_back(nb::cast<int64_t>(axis));
  } else {
    for (nb::handle x : axis) v.push_back(nb::cast<int64_t>(x));
  }
  return v;
}

std::vector<int64_t> int_list(nb::handle h) {
  std::vector<int64_t> v;
  if (nb::isinstance<Tensor>(h)) {
    Tensor t = nb::cast<Tensor>(h);
    for (int64_t i = 0; i < t.num_elements(); ++i)
      v.push_back(t.dtype() == tfs::DType::kInt64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i]);
    return v;
  }
  auto one = [](nb::handle x) {
    int overflow = 0;
    long long i = PyLong_AsLongLongAndOverflow(nb::int_(x).ptr(), &overflow);
    if (overflow)  // TF's text for a shape list it cannot convert
      throw nb::value_error("Can't convert Python sequence with out-of-range integer to Tensor.");
    return static_cast<int64_t>(i);
  };
  if (PyLong_Check(h.ptr())) return {one(h)};
  for (nb::handle x : h) v.push_back(one(x));
  return v;
}

// Whether a shape argument is a list or tuple with a tensor in it (TF autopacks those).
bool holds_tensor(nb::handle h) {
  if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) return false;
  for (nb::handle x : h)
    if (nb::isinstance<Tensor>(x) || nb::hasattr(x, "_tfscope_variable")) return true;
  return false;
}

// Python's x[...] on a tensor: ints, slices, None (new axis) and Ellipsis as TF's StridedSlice.
// One index of t[...]: a Python int (or anything with __index__ but bool) or a scalar integer
// tensor; anything else raises TF's TypeError.
tfs::Value slice_index(nb::handle k) {
  static const char* kSliceTypeError =
      "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
      "tf.int32/tf.int64 tensors are valid indices, got ";
  if (nb::isinstance<Tensor>(k)) {
    const Tensor& t = nb::cast<const Tensor&>(k);
    tfs::DType dt = t.dtype();
    bool int_type =
        dt == tfs::DType::kInt32 || dt == tfs::DType::kInt64 || dt == tfs::DType::kInt16;
    if (!int_type || (t.shape().has_rank() && t.shape().rank() == 1)) {
      throw nb::type_error((kSliceTypeError + std::string(nb::repr(k).c_str())).c_str());
    }
    return tfs::Value(t);
  }
  if (!PyBool_Check(k.ptr()) && PyIndex_Check(k.ptr()))
    return tfs::Value(nb::cast<int64_t>(nb::int_(k)));
  throw nb::type_error((kSliceTypeError + std::string(nb::repr(k).c_str())).c_str());
}

Tensor getitem(const Tensor& x, nb::handle key) {
  if (PyBool_Check(key.ptr()) ||
      (nb::isinstance<Tensor>(key) && nb::cast<const Tensor&>(key).dtype() == tfs::DType::kBool)) {
    throw nb::type_error("tfscope does not support boolean-mask indexing (tf.boolean_mask)");
  }
  std::vector<nb::handle> keys;
  if (PyTuple_Check(key.ptr()) || PyList_Check(key.ptr())) {
    for (nb::handle k : key) keys.push_back(k);
  } else {
    keys.push_back(key);
  }
  std::vector<tfs::SliceItem> items;
  for (nb::handle k : keys) {
    tfs::SliceItem it;
    if (k.is_none()) {
      it.kind = tfs::SliceItem::Kind::kNewAxis;
    } else if (k.ptr() == Py_Ellipsis) {
      it.kind = tfs::SliceItem::Kind::kEllipsis;
    } else if (PySlice_Check(k.ptr())) {
      it.kind = tfs::SliceItem::Kind::kSlice;
      auto bound = [](nb::object b) -> std::optional<tfs::Value> {
        if (b.is_none()) return std::nullopt;
        return slice_index(b);
      };
      it.start = bound(k.attr("start"));
      it.stop = bound(k.attr("stop"));
      it.step = bound(k.attr("step"));
    } else {
      it.index = slice_index(k);
    }
    items.push_back(std::move(it));
  }
  return tfs::getitem(x, items);
}

}  // namespace

void bind_tensor(nb::module_& m) {
  nb::class_<Tensor>(m, "Tensor")
      .def_prop_ro("dtype", [](const Tensor& t) { return py_dtype(t.dtype()); })
      .def_prop_ro("shape", [](const Tensor& t) { return py_shape(t.shape()); })
      // TF's: an eager tensor's device is where it lives (the CPU here); a graph tensor's is its
      // op's requested device, "" (tfscope keeps no requested devices: tf.device in a graph is
      // not recorded).
      .def_prop_ro("device",
                   [](const Tensor& t) -> std::string {
                     return t.is_symbolic() ? "" : "/job:localhost/replica:0/task:0/device:CPU:0";
                   })
      .def_prop_ro("ndim", [](const Tensor& t) { return t.shape().rank(); })
      .def_prop_ro(
          "name",
          [](const Tensor& t) -> nb::object {
            if (t.is_symbolic()) return nb::str(t.name().c_str());
            throw nb::attribute_error("Tensor.name is undefined when eager execution is enabled.");
          })
      .def_prop_ro("_is_symbolic", &Tensor::is_symbolic)
      .def_prop_ro("_variable_uid",
                   [](const Tensor& t) -> nb::object {
                     // The variable an eager resource handle points to (its uid), else None.
                     if (t.is_symbolic() || t.dtype() != tfs::DType::kResource) return nb::none();
                     auto v = std::dynamic_pointer_cast<tfs::VariableState>(t.resource_handle());
                     if (!v) return nb::none();
                     return nb::int_(v->uid());
                   })
      .def_prop_ro("_id", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.id()); })
      .def("numpy",
           [](const Tensor& t) {
             if (t.is_symbolic()) {  // TF's graph tensors (SymbolicTensor) have no numpy()
               PyErr_SetString(PyExc_AttributeError,
                               "'SymbolicTensor' object has no attribute 'numpy'");
               throw nb::python_error();
             }
             return tensor_to_numpy(t);
           })
      .def("__array__",
           [](const Tensor& t, nb::args, nb::kwargs) {
             return registry().numpy.attr("asarray")(tensor_to_numpy(t));
           })
      .def("__str__",
           [](const Tensor& t) {
             if (!complex_eager(t)) return t.str();
             // EagerTensor.__str__: numpy's str of the value (so numpy formats complex elements).
             return "tf.Tensor(" + numpy_text(t, false) + ", shape=" + t.eager_shape().str() +
                    ", dtype=" + std::string(tfs::dtype_name(t.dtype())) + ")";
           })
      .def("__repr__",
           [](const Tensor& t) {
             if (!complex_eager(t)) return t.repr();
             return "<tf.Tensor: shape=" + t.eager_shape().str() +
                    ", dtype=" + std::string(tfs::dtype_name(t.dtype())) +
                    ", numpy=" + numpy_text(t, true) + ">";
           })
      .def("__bool__", [](const Tensor& t) { return static_cast<bool>(t); })
      .def("__len__",
           [](const Tensor& t) -> int64_t {
             if (t.is_symbolic()) {
               throw nb::type_error(
                   ("len is not well defined for a symbolic Tensor (" + t.name() +
                    "). Please call `x.shape` rather than `len(x)` for shape information.")
                       .c_str());
             }
             if (t.eager_shape().rank() == 0) throw nb::type_error("Scalar tensor has no `len()`");
             return t.eager_shape().dim(0);
           })
      .def("__index__", [](const Tensor& t) { return t.item<int64_t>(); })
      .def("__int__", [](const Tensor& t) { return t.item<int64_t>(); })
      .def("__float__", [](const Tensor& t) { return t.item<double>(); })
      .def("__hash__", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.id()) >> 4; })
      .def(
          "__getitem__", [](const Tensor& t, nb::handle k) { return getitem(t, k); },
          nb::arg("key").none())
      .def("__neg__", [](const Tensor& t) { return tfs::neg(t); })
      .def("__abs__", [](const Tensor& t) { return tfs::abs(t); })
      .def("__invert__", [](const Tensor& t) { return tfs::logical_not(Value(t)); })
      .def("__add__", &bin<tfs::add>)
      .def("__radd__", &rbin<tfs::add>)
      .def("__sub__", &bin<tfs::subtract>)
      .def("__rsub__", &rbin<tfs::subtract>)
      .def("__mul__", &bin<tfs::multiply>)
      .def("__rmul__", &rbin<tfs::multiply>)
      .def("__truediv__", &bin<tfs::truediv>)
      .def("__rtruediv__", &rbin<tfs::truediv>)
      .def("__floordiv__", &bin<tfs::floordiv>)
      .def("__rfloordiv__", &rbin<tfs::floordiv>)
      .def("__mod__", &bin<tfs::floormod>)
      .def("__rmod__", &rbin<tfs::floormod>)
      .def("__pow__", &bin<tfs::pow>)
      .def("__rpow__", &rbin<tfs::pow>)
      .def("__lt__", &bin<tfs::less>)
      .def("__le__", &bin<tfs::less_equal>)
      .def("__gt__", &bin<tfs::greater>)
      .def("__ge__", &bin<tfs::greater_equal>)
      .def("__and__", &bin<tfs::and_operator>)
      .def("__or__", &bin<tfs::or_operator>)
      .def("__matmul__",
           [](const Tensor& a, nb::handle b) { return tfs::matmul(a, to_tensor(b, a.dtype())); })
      .def("__eq__",
           [](const Tensor& a, nb::handle b) -> nb::object {
             if (b.is_none()) return nb::bool_(false);
             return nb::cast(tfs::equal(Value(a), operand(b)));
           })
      .def("__ne__", [](const Tensor& a, nb::handle b) -> nb::object {
        if (b.is_none()) return nb::bool_(true);
        return nb::cast(tfs::not_equal(Value(a), operand(b)));
      });

  nb::class_<tfs::Variable>(m, "VariableCore")
      .def(nb::new_([](nb::handle init, bool trainable, std::string name, nb::handle dtype) {
             tfs::DType d = dtype_arg(dtype);
             Value v;
             if (nb::isinstance<Tensor>(init))
               v = Value(nb::cast<Tensor>(init));
             else
               v = Value(to_tensor(init, d));
             return tfs::Variable(v, name, trainable, d);
           }),
           "initial_value"_a, "trainable"_a = true, "name"_a = "Variable", "dtype"_a = nb::none())
      .def_prop_ro("dtype", [](const tfs::Variable& v) { return py_dtype(v.dtype()); })
      .def_prop_ro("shape", [](const tfs::Variable& v) { return py_shape(v.shape()); })
      .def_prop_ro("name", [](const tfs::Variable& v) { return v.name(); })
      .def_prop_ro("trainable", &tfs::Variable::trainable)
      .def_prop_ro("_uid", [](const tfs::Variable& v) { return v.state()->uid(); })
      .def_prop_ro("handle", [](const tfs::Variable& v) { return v.handle(); })
      // TF's read_value(): ReadVariableOp under a "Read" name scope, then an Identity.
      .def("read_value",
           [](const tfs::Variable& v) {
             return tfs::identity(in_op_scope(
                 "Read", [&] { return tfs::read_variable(v.state()); }, true));
           })
      // value() / conversion: the ReadVariableOp alone.
      .def("value", &tfs::Variable::read_value)
      // The assignment alone; the Python wrapper returns the variable (TF reads it lazily).
      .def("_assign_op",
           [](tfs::Variable& v, const std::string& op, nb::handle x) {
             tfs::execute(op, {v.handle(), to_tensor(x, v.dtype())}, {{"dtype", v.dtype()}}, op);
           })
      .def("numpy", [](const tfs::Variable& v) { return tensor_to_numpy(v.numpy()); })
      .def("assign",
           [](tfs::Variable& v, nb::handle x) { return v.assign(Value(to_tensor(x, v.dtype()))); })
      .def("assign_add", [](tfs::Variable& v,
                            nb::handle x) { return v.assign_add(Value(to_tensor(x, v.dtype()))); })
      .def("assign_sub", [](tfs::Variable& v,
                            nb::handle x) { return v.assign_sub(Value(to_tensor(x, v.dtype()))); })
      // TF's text, numpy's repr of the value (on a line of its own when it spans several).
      .def("__repr__", [](const tfs::Variable& v) {
        std::string s = "<tf.Variable '" + v.name() + "' shape=" + v.shape().str() +
                        " dtype=" + std::string(tfs::dtype_name(v.dtype()));
        if (v.state()->initialized()) s += ", numpy=" + numpy_text(v.state()->read(), true);
        return s + ">";
      });

  // ---- ops ----
  m.def(
      "convert_to_tensor",
      [](nb::handle v, nb::handle dtype) { return to_tensor(v, dtype_arg(dtype)); }, "value"_a,
      "dtype"_a = nb::none());
  def_any(m, "constant_from_value", [](nb::handle v, nb::handle dtype) {
    tfs::DType d = dtype_arg(dtype);
    if (nb::isinstance<Tensor>(v)) {
      Tensor t = nb::cast<Tensor>(v);
      return d == tfs::DType::kInvalid || d == t.dtype() ? t : tfs::cast(t, d);
    }
    return to_tensor(v, d);
  });
  def_any(m, "add", &bin<tfs::add>);
  def_any(m, "subtract", &bin<tfs::subtract>);
  def_any(m, "multiply", &bin<tfs::multiply>);
  def_any(m, "truediv", &bin<tfs::truediv>);
  def_any(m, "floordiv", &bin<tfs::floordiv>);
  def_any(m, "floormod", &bin<tfs::floormod>);
  def_any(m, "tf_floormod", &bin<tfs::tf_floormod>);
  def_any(m, "truncatediv", &bin<tfs::truncatediv>);
  def_any(m, "truncatemod", &bin<tfs::truncatemod>);
  def_any(m, "pow", &bin<tfs::pow>);
  def_any(m, "tf_pow", &bin<tfs::tf_pow>);
  def_any(m, "maximum", &bin<tfs::maximum>);
  def_any(m, "minimum", &bin<tfs::minimum>);
  def_any(m, "less", &bin<tfs::less>);
  def_any(m, "less_equal", &bin<tfs::less_equal>);
  def_any(m, "greater", &bin<tfs::greater>);
  def_any(m, "greater_equal", &bin<tfs::greater_equal>);
  def_any(m, "equal", &bin<tfs::equal>);
  def_any(m, "not_equal", &bin<tfs::not_equal>);
  def_any(m, "logical_and", &bin<tfs::logical_and>);
  def_any(m, "logical_or", &bin<tfs::logical_or>);
  def_any(m, "logical_not", [](nb::handle x) { return tfs::logical_not(operand(x)); });
  def_any(m, "slice", [](nb::handle x, nb::handle begin, nb::handle size) {
    tfs::EagerErrorName n(eager_error_name(x, begin, size));
    return tfs::slice(operand(x), operand(begin), operand(size));
  });
  def_any(m, "unary", [](const std::string& op, nb::handle x) {
    Tensor t = to_tensor(x);
    if (op == "neg") return tfs::neg(t);
    if (op == "abs") return tfs::abs(t);
    if (op == "square") return tfs::square(t);
    if (op == "sqrt") return tfs::sqrt(t);
    if (op == "rsqrt") return tfs::rsqrt(t);
    if (op == "exp") return tfs::exp(t);
    if (op == "log") return tfs::log(t);
    if (op == "tanh") return tfs::tanh(t);
    if (op == "sigmoid") return tfs::sigmoid(t);
    if (op == "erf") return tfs::erf(t);
    if (op == "erfc") return tfs::erfc(t);
    if (op == "log1p") return tfs::log1p(t);
    if (op == "expm1") return tfs::expm1(t);
    if (op == "reciprocal") return tfs::reciprocal(t);
    if (op == "ceil") return tfs::ceil(t);
    if (op == "relu") return tfs::relu(t);
    if (op == "relu6") return tfs::relu6(t);
    if (op == "softmax") return tfs::softmax(t);
    if (op == "log_softmax") return tfs::log_softmax(t);
    if (op == "identity") return tfs::identity(t);
    throw nb::value_error(("unknown unary op " + op).c_str());
  });
  def_any(m, "clip_by_value", [](nb::handle t, nb::handle lo, nb::handle hi) {
    return tfs::clip_by_value(operand(t), operand(lo), operand(hi));
  });
  def_any(m, "add_n", [](nb::list inputs) {
    std::vector<Value> vs;
    for (nb::handle v : inputs) vs.push_back(operand(v));
    return tfs::add_n(vs);
  });
  def_any(m, "tile", [](nb::handle x, nb::handle multiples) {
    return tfs::tile(operand(x), operand(multiples));
  });
  def_any(m, "broadcast_to", [](nb::handle x, nb::handle shape) {
    return tfs::broadcast_to(operand(x), operand(shape));
  });
  def_any(m, "sign", [](nb::handle x) { return tfs::sign(operand(x)); });
  def_any(m, "floor", [](nb::handle x) { return tfs::floor(operand(x)); });
  def_any(m, "round", [](nb::handle x) { return tfs::round(operand(x)); });
  def_any(m, "leaky_relu", [](nb::handle x, double alpha) {
    return tfs::leaky_relu(operand(x), static_cast<float>(alpha));
  });
  def_any(m, "elu", [](nb::handle x) { return tfs::elu(operand(x)); });
  def_any(m, "softplus", [](nb::handle x) { return tfs::softplus(operand(x)); });
  def_any(m, "selu", [](nb::handle x) { return tfs::selu(operand(x)); });
  def_any(m, "gelu",
          [](nb::handle x, bool approximate) { return tfs::gelu(to_tensor(x), approximate); });
  def_any(m, "cast",
          [](nb::handle x, nb::handle dtype) { return tfs::cast(to_tensor(x), dtype_arg(dtype)); });
  def_any(m, "where", [](nb::handle c, nb::handle x, nb::handle y) {
    return tfs::where(to_tensor(c), converted_operand(x), converted_operand(y));
  });
  def_any(m, "matmul", [](nb::handle a, nb::handle b, bool ta, bool tb, bool adj_a, bool adj_b) {
    // tf.matmul converts its operands inside its "MatMul" name scope, b with a's dtype as a
    // hint only: a tensor b of another dtype reaches the op, whose error TF raises.
    Tensor x = in_op_scope("MatMul", [&] { return to_tensor(a); });
    Tensor y = nb::isinstance<Tensor>(b)
                   ? nb::cast<Tensor>(b)
                   : in_op_scope("MatMul", [&] { return to_tensor(b, x.dtype()); });
    // A complex operand is conjugated first (a Conj in the scope) where TF's matmul does it: for an
    // adjoint of a matrix product (MatMul only transposes), for a transpose of a batched one
    // (BatchMatMulV2 only takes adjoints).
    const bool batched = (x.shape().has_rank() && x.shape().rank() > 2) ||
                         (y.shape().has_rank() && y.shape().rank() > 2);
    auto conj = [](const Tensor& t, bool yes) {
      if (!yes || !tfs::is_complex(t.dtype())) return t;
      return in_op_scope("MatMul", [&] { return tfs::execute1("Conj", {t}, {}, "Conj"); });
    };
    x = conj(x, batched ? ta : adj_a);
    y = conj(y, batched ? tb : adj_b);
    return tfs::matmul(x, y, ta || adj_a, tb || adj_b);
  });
  def_any(m, "bias_add",
          [](nb::handle x, nb::handle b) { return tfs::bias_add(operand(x), operand(b)); });
  def_any(m, "shape", [](nb::handle x, nb::handle out_type) {
    tfs::DType d = dtype_arg(out_type);
    return tfs::shape(to_tensor(x), d == tfs::DType::kInvalid ? tfs::DType::kInt32 : d);
  });
  def_any(m, "size", [](nb::handle x) { return tfs::size(to_tensor(x)); });
  def_any(m, "rank", [](nb::handle x) { return tfs::rank(to_tensor(x)); });
  // Tensor.set_shape for what TF's wrappers pin (a graph tensor's static shape; -1 unknown).
  def_any(m, "set_static_shape", [](const Tensor& t, const std::vector<int64_t>& dims) {
    tfs::GraphBuilder* b = tfs::current_builder();
    return t.is_symbolic() && b ? b->refine_shape(t, tfs::PartialShape(dims)) : t;
  });
  def_any(m, "reshape", [](nb::handle x, nb::handle s) {
    tfs::EagerErrorName n(eager_error_name(x, s));
    return tfs::reshape(to_tensor(x), operand(s));
  });
  def_any(m, "expand_dims",
          [](nb::handle x, int64_t a) { return tfs::expand_dims(to_tensor(x), a); });
  def_any(m, "squeeze", [](nb::handle x, nb::handle axis) {
    auto a = axis_arg(axis);
    return tfs::squeeze(to_tensor(x), a ? *a : std::vector<int64_t>{});
  });
  // tf.transpose: conjugate (a complex x only, as TF's) makes it a ConjugateTranspose.
  def_any(m, "transpose", [](nb::handle x, nb::handle perm, bool conjugate) {
    tfs::EagerErrorName n(eager_error_name(x, perm));
    Tensor t = to_tensor(x);
    const bool conj = conjugate && tfs::is_complex(t.dtype());
    if (nb::isinstance<Tensor>(perm)) {
      return conj ? tfs::conjugate_transpose_by(t, nb::cast<Tensor>(perm))
                  : tfs::transpose_by(t, nb::cast<Tensor>(perm));
    }
    std::optional<std::vector<int64_t>> p;
    if (!perm.is_none()) p = int_list(perm);
    return conj ? tfs::conjugate_transpose(t, p) : tfs::transpose(t, p);
  });
  def_any(m, "concat", [](nb::list values, int64_t axis) {
    std::vector<Tensor> ts;
    for (nb::handle v : values) ts.push_back(to_tensor(v));
    return tfs::concat(ts, axis);
  });
  def_any(m, "stack", [](nb::list values, int64_t axis) {
    // Pack's values take their dtype from the first tensor among them: a numpy value converts
    // to it (op_def_library's rule for a list input), wherever it stands in the list.
    tfs::DType first = tfs::DType::kInvalid;
    for (nb::handle v : values) {
      if (nb::isinstance<Tensor>(v) || nb::hasattr(v, "_tfscope_variable") ||
          nb::isinstance<tfs::Variable>(v)) {
        first = to_tensor(v).dtype();
        break;
      }
    }
    std::vector<Tensor> ts;
    for (nb::handle v : values)
      ts.push_back(tfs::as_host_array(converted_operand(v)) ? to_tensor(v, first) : to_tensor(v));
    return tfs::stack(ts, axis);
  });
  def_any(m, "unstack", [](nb::handle x, int64_t axis, nb::handle num) {
    return tfs::unstack(to_tensor(x), axis, num.is_none() ? -1 : nb::cast<int64_t>(num));
  });
  def_any(m, "gather", [](nb::handle p, nb::handle i, int64_t axis) {
    tfs::EagerErrorName n(eager_error_name(p, i));
    return tfs::gather(to_tensor(p), operand(i), axis);
  });
  def_any(m, "fill", [](nb::handle dims, nb::handle v) {
    tfs::EagerErrorName n(eager_error_name(dims, v));
    return tfs::fill(operand(dims), operand(v));
  });
  def_any(m, "zeros", [](nb::handle shape, nb::handle dtype) {
    tfs::DType d = dtype_arg(dtype);
    if (nb::isinstance<Tensor>(shape)) {
      Tensor s = nb::cast<Tensor>(shape);
      Tensor zero =
          tfs::convert_to_tensor(Value(0), d == tfs::DType::kInvalid ? tfs::DType::kFloat32 : d);
      return tfs::fill(Value(s), Value(zero));
    }
    if (holds_tensor(shape)) {
      return tfs::zeros_from_list(to_value(shape),
                                  d == tfs::DType::kInvalid ? tfs::DType::kFloat32 : d);
    }
    return tfs::zeros(int_list(shape), d == tfs::DType::kInvalid ? tfs::DType::kFloat32 : d);
  });
  def_any(m, "ones", [](nb::handle shape, nb::handle dtype) {
    tfs::DType d = dtype_arg(dtype);
    if (nb::isinstance<Tensor>(shape)) {
      Tensor s = nb::cast<Tensor>(shape);
      Tensor one =
          tfs::convert_to_tensor(Value(1), d == tfs::DType::kInvalid ? tfs::DType::kFloat32 : d);
      return tfs::fill(Value(s), Value(one));
    }
    if (holds_tensor(shape)) {
      return tfs::ones_from_list(to_value(shape),
                                 d == tfs::DType::kInvalid ? tfs::DType::kFloat32 : d);
    }
    return tfs::ones(int_list(shape), d == tfs::DType::kInvalid ? tfs::DType::kFloat32 : d);
  });
  def_any(m, "zeros_like", [](nb::handle x) { return tfs::zeros_like(to_tensor(x)); });
  def_any(m, "ones_like", [](nb::handle x) { return tfs::ones_like(to_tensor(x)); });
  def_any(m, "range", [](nb::handle start, nb::handle limit, nb::handle delta, nb::handle dtype) {
    return tfs::range(operand(start), limit.is_none() ? Value() : operand(limit), operand(delta),
                      dtype_arg(dtype));
  });
  def_any(m, "reduce", [](const std::string& op, nb::handle x, nb::handle axis, bool keepdims) {
    static const std::map<std::string, std::string> kOps = {
        {"sum", "Sum"},   {"mean", "Mean"}, {"max", "Max"}, {"min", "Min"},
        {"prod", "Prod"}, {"any", "Any"},   {"all", "All"}};
    auto it = kOps.find(op);
    if (it == kOps.end()) throw nb::value_error("unknown reduction");
    tfs::EagerErrorName n(eager_error_name(x, axis));
    // The axis as Python gives it (None, int, list, tensor): TF converts a list to a vector even
    // when it has one element.
    tfs::Value a;
    if (nb::isinstance<Tensor>(axis)) {
      a = tfs::Value(nb::cast<Tensor>(axis));
    } else if (!axis.is_none()) {
      if (PyLong_Check(axis.ptr())) {
        a = tfs::Value(nb::cast<int64_t>(axis));
      } else {
        tfs::ValueList items;
        for (nb::handle v : axis) items.push_back(tfs::Value(nb::cast<int64_t>(nb::int_(v))));
        a = tfs::Value::list(std::move(items));
      }
    }
    // Any/All take bool input: a host value converts to bool ("Cannot convert [1, 0] to ...").
    bool logical = it->second == "Any" || it->second == "All";
    Tensor t =
        logical && !nb::isinstance<Tensor>(x) ? to_tensor(x, tfs::DType::kBool) : to_tensor(x);
    return tfs::reduce(it->second, t, a, keepdims);
  });
  def_any(m, "argmax", [](nb::handle x, int64_t axis, nb::handle out) {
    tfs::DType d = dtype_arg(out);
    return tfs::argmax(to_tensor(x), axis, d == tfs::DType::kInvalid ? tfs::DType::kInt64 : d);
  });
  def_any(m, "argmin", [](nb::handle x, int64_t axis, nb::handle out) {
    tfs::DType d = dtype_arg(out);
    return tfs::argmin(to_tensor(x), axis, d == tfs::DType::kInvalid ? tfs::DType::kInt64 : d);
  });
  // tf.random: the seed rules and the stateful ops live in the engine (tfs::get_random_seed).
  def_any(m, "set_random_seed", [](std::optional<int64_t> seed) { tfs::set_random_seed(seed); });
  def_any(m, "random_uniform",
          [](nb::handle shape, nb::handle lo, nb::handle hi, nb::handle dtype,
             std::optional<int64_t> seed) {
            tfs::DType d = dtype_arg(dtype);
            return tfs::random_uniform(int_list(shape), operand(lo), operand(hi),
                                       d == tfs::DType::kInvalid ? tfs::DType::kFloat32 : d, seed);
          });
  def_any(m, "random_normal",
          [](nb::handle shape, nb::handle mean, nb::handle sd, nb::handle dtype,
             std::optional<int64_t> seed) {
            tfs::DType d = dtype_arg(dtype);
            return tfs::random_normal(int_list(shape), operand(mean), operand(sd),
                                      d == tfs::DType::kInvalid ? tfs::DType::kFloat32 : d, seed);
          });
  def_any(m, "print_template",
          [](std::string tmpl, std::vector<Tensor> tensors, std::string stream, std::string end,
             int summarize) {
            Tensor s = tfs::execute1("StringFormat", tensors,
                                     {{"template", tmpl},
                                      {"placeholder", std::string("{}")},
                                      {"summarize", static_cast<int64_t>(summarize)}},
                                     "StringFormat");
            tfs::execute("PrintV2", {s}, {{"output_stream", stream}, {"end", end}}, "PrintV2");
          });
  def_any(m, "format_tf_summarize",
          [](const Tensor& t, int summarize) { return tfs::format_tf_summarize(t, summarize); });
  def_any(m, "cond", [](nb::handle pred, nb::callable t, nb::callable f, const std::string& name) {
    // Branch results are flattened in Python; here they are lists of tensors.
    auto wrap = [](nb::callable fn) {
      return [fn]() {
        std::vector<Tensor> out;
        for (nb::handle x : fn()) out.push_back(to_tensor(x));
        return out;
      };
    };
    return tfs::cond(to_tensor(pred), wrap(t), wrap(f), name.empty() ? "cond" : name);
  });
  // shape_invariants: None, or one entry per loop variable (None or a shape).
  def_any(m, "while_loop",
          [](nb::callable c, nb::callable b, nb::list vars, int64_t max_iter,
             nb::handle shape_invariants) {
            std::vector<Tensor> vs;
            for (nb::handle v : vars) vs.push_back(to_tensor(v));
            std::vector<std::optional<tfs::PartialShape>> invariants;
            if (!shape_invariants.is_none()) {
              for (nb::handle s : shape_invariants) {
                invariants.push_back(s.is_none() ? std::nullopt
                                                 : std::optional<tfs::PartialShape>(shape_arg(s)));
              }
            }
            auto cf = [c](const std::vector<Tensor>& x) {
              nb::list l;
              for (auto& t : x) l.append(nb::cast(t));
              return to_tensor(c(l));
            };
            auto bf = [b](const std::vector<Tensor>& x) {
              nb::list l;
              for (auto& t : x) l.append(nb::cast(t));
              std::vector<Tensor> out;
              for (nb::handle r : b(l)) out.push_back(to_tensor(r));
              return out;
            };
            return tfs::while_loop(cf, bf, vs, max_iter, "while", invariants);
          });
  def_any(m, "executing_eagerly", [] { return tfs::executing_eagerly(); });
}

}  // namespace tfpy
