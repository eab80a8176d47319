#include "convert.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <map>

#include "tfscope/complex.h"
#include "tfscope/host_array.h"
#include "tfscope/ops.h"
#include "tfscope/thread_pool.h"
#include "tfscope/trace_type.h"
#include "trace_type_bindings.h"

namespace tfpy {

Registry& registry() {
  static Registry* r = new Registry();
  return *r;
}

namespace {

// A Python object keyed by weak reference (TF's Weakref trace type) or, for hashable values
// that cannot be weakly referenced (bytes, complex, big ints), by value (a Literal).
class PyObjectKey : public tfs::Object {
 public:
  PyObjectKey(nb::object ref, bool weak, Py_hash_t h) : ref_(std::move(ref)), weak_(weak), h_(h) {}
  ~PyObjectKey() override {
    if (Py_IsInitialized()) {
      nb::gil_scoped_acquire gil;
      ref_.reset();
    } else {
      ref_.release();
    }
  }
  nb::object get() const { return weak_ ? ref_() : ref_; }
  // The function engine compares keys with the GIL released (a cache lookup must not hold it
  // while another thread traces), so each Python call takes the GIL here.
  bool alive() const override {
    if (!weak_) return true;
    nb::gil_scoped_acquire gil;
    return !get().is_none();
  }
  bool equals(const tfs::Object& other) const override {
    auto* o = dynamic_cast<const PyObjectKey*>(&other);
    if (!o) return false;
    nb::gil_scoped_acquire gil;
    nb::object a = get(), b = o->get();
    if ((weak_ && a.is_none()) || (o->weak_ && b.is_none())) return false;
    if (a.is(b)) return true;
    try {
      return a.equal(b);
    } catch (nb::python_error& e) {
      // An __eq__ that fails means "not equal"; Ctrl-C (KeyboardInterrupt) or SystemExit raised
      // while it ran must reach the caller, not be swallowed here.
      if (!e.matches(PyExc_Exception)) throw;
      return false;
    }
  }
  size_t hash() const override { return static_cast<size_t>(h_); }
  std::string repr() const override {
    nb::gil_scoped_acquire gil;
    return nb::cast<std::string>(nb::repr(get()));
  }
  bool is_literal() const override { return !weak_; }

 private:
  nb::object ref_;
  bool weak_;
  Py_hash_t h_;
};

// The namedtuple classes seen going in, by name and fields, so that what comes back out (the
// body's argument, a function's output) is an instance of the user's own class, as in TF. Weak:
// a class may reach the module whose functions hold these values.
std::map<std::string, nb::object>& namedtuple_classes() {
  static auto* m = new std::map<std::string, nb::object>();
  return *m;
}

std::string namedtuple_key(const std::string& name, const std::vector<std::string>& fields) {
  std::string k = name;
  for (auto& f : fields) k += '\0' + f;
  return k;
}

void note_namedtuple_class(const std::string& name, const std::vector<std::string>& fields,
                           nb::handle cls) {
  nb::object& ref = namedtuple_classes()[namedtuple_key(name, fields)];
  if (ref.is_valid() && nb::handle(PyWeakref_GetObject(ref.ptr())).is(cls)) return;
  PyObject* w = PyWeakref_NewRef(cls.ptr(), nullptr);
  if (!w) {
    PyErr_Clear();
    return;
  }
  ref = nb::steal(w);
}

nb::object namedtuple_class(const std::string& name, const std::vector<std::string>& fields) {
  auto it = namedtuple_classes().find(namedtuple_key(name, fields));
  if (it == namedtuple_classes().end()) return nb::object();
  PyObject* cls = PyWeakref_GetObject(it->second.ptr());
  if (cls == Py_None) return nb::object();
  return nb::borrow(cls);
}

// One level of a nest being walked. A nest deeper than Python's recursion limit raises
// RecursionError, as TF's nest walk does, instead of overflowing the C stack.
class NestLevel {
 public:
  NestLevel() {
    if (Py_EnterRecursiveCall(" while calling a Python object")) throw nb::python_error();
  }
  ~NestLevel() { Py_LeaveRecursiveCall(); }
  NestLevel(const NestLevel&) = delete;
  NestLevel& operator=(const NestLevel&) = delete;
};

// Whether a nest of lists and tuples holds an int outside int64 (bounded: to_value walked it).
bool holds_big_int(nb::handle h) {
  if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
    int overflow = 0;
    PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    return overflow != 0;
  }
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    for (nb::handle x : h)
      if (holds_big_int(x)) return true;
  }
  return false;
}

bool is_instance_of(nb::handle h, const nb::object& cls) {
  return cls.is_valid() && PyObject_IsInstance(h.ptr(), cls.ptr()) == 1;
}

}  // namespace

// repr() of the class noted for a namedtuple, for the engine's cast errors (any thread: the GIL is
// taken); "" when none is known.
std::string namedtuple_class_repr(const std::string& name, const std::vector<std::string>& fields) {
  if (!Py_IsInitialized()) return {};
  nb::gil_scoped_acquire gil;
  nb::object cls = namedtuple_class(name, fields);
  if (!cls.is_valid()) return {};
  PyObject* r = PyObject_Repr(cls.ptr());
  if (!r) {
    PyErr_Clear();
    return {};
  }
  nb::object text = nb::steal(r);
  return nb::cast<std::string>(text);
}

nb::str safe_str(std::string_view text) {
  return nb::steal<nb::str>(PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()),
                                                 "backslashreplace"));
}

void set_error(PyObject* type, const char* message) {
  PyErr_SetObject(type, safe_str(message).ptr());
}

nb::object py_dtype(tfs::DType d) { return registry().dtype_factory(static_cast<int>(d)); }

nb::object py_shape(const tfs::PartialShape& s) {
  if (!s.has_rank()) return registry().shape_factory(nb::none());
  nb::list dims;
  for (int i = 0; i < s.rank(); ++i) {
    if (s.dim(i) < 0) dims.append(nb::none());
    else dims.append(nb::int_(s.dim(i)));
  }
  return registry().shape_factory(dims);
}

tfs::DType dtype_arg(nb::handle h) {
  if (h.is_none()) return tfs::DType::kInvalid;
  if (nb::hasattr(h, "_enum")) return static_cast<tfs::DType>(nb::cast<int>(h.attr("_enum")));
  std::string name;
  if (nb::isinstance<nb::str>(h)) {
    name = nb::cast<std::string>(h);
  } else {
    name = nb::cast<std::string>(nb::str(registry().numpy.attr("dtype")(h).attr("name")));
  }
  if (name == "object" || name.rfind("bytes", 0) == 0 || name.rfind("str", 0) == 0) return tfs::DType::kString;
  tfs::DType d = tfs::dtype_from_name(name);
  if (d == tfs::DType::kInvalid) throw nb::type_error(("Cannot convert " + name + " to a tfscope DType").c_str());
  return d;
}

tfs::PartialShape shape_arg(nb::handle h) {
  if (h.is_none()) return tfs::PartialShape();
  if (nb::hasattr(h, "_dims")) return shape_arg(h.attr("_dims"));
  std::vector<int64_t> dims;
  for (nb::handle d : h) {
    if (d.is_none()) dims.push_back(tfs::PartialShape::kUnknown);
    else dims.push_back(nb::cast<int64_t>(nb::int_(d)));
  }
  return tfs::PartialShape(dims);
}

tfs::Tensor numpy_to_tensor(nb::handle obj) {
  nb::object np = registry().numpy;
  nb::object arr = np.attr("asarray")(obj);
  std::string kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"));
  std::vector<int64_t> dims;
  for (nb::handle d : arr.attr("shape")) dims.push_back(nb::cast<int64_t>(d));
  tfs::Shape shape(dims);
  if (kind == "O" || kind == "S" || kind == "U") {
    std::vector<std::string> strs;
    for (nb::handle x : arr.attr("ravel")()) {
      if (nb::isinstance<nb::bytes>(x)) {
        nb::bytes b = nb::borrow<nb::bytes>(x);
        strs.emplace_back(b.c_str(), b.size());
      } else {
        strs.push_back(nb::cast<std::string>(nb::str(x)));
      }
    }
    return tfs::Tensor::strings(std::move(strs), shape);
  }
  tfs::DType dt = dtype_arg(arr.attr("dtype"));
  arr = np.attr("ascontiguousarray")(arr);
  tfs::Tensor t = tfs::Tensor::empty(dt, shape);
  nb::object buf = arr.attr("tobytes")();
  nb::bytes b = nb::borrow<nb::bytes>(buf);
  if (b.size() != t.nbytes()) throw nb::value_error("numpy conversion size mismatch");
  if (b.size()) std::memcpy(t.raw_data(), b.c_str(), b.size());
  return t;
}

nb::object tensor_to_numpy(const tfs::Tensor& t) {
  if (!t.is_eager()) {
    // TF raises NotImplementedError here (np.array of a symbolic tensor).
    std::string msg = "Cannot convert a symbolic tf.Tensor (" + t.name() +
                      ") to a numpy array. This error may indicate that you're trying to pass a "
                      "Tensor to a NumPy call, which is not supported.";
    PyErr_SetString(PyExc_NotImplementedError, msg.c_str());
    throw nb::python_error();
  }
  nb::object np = registry().numpy;
  nb::list shape;
  for (int64_t d : t.eager_shape().dims()) shape.append(nb::int_(d));
  if (t.dtype() == tfs::DType::kString) {
    nb::list items;
    for (auto& s : t.string_values()) items.append(nb::bytes(s.data(), s.size()));
    nb::object arr = np.attr("array")(items, "dtype"_a = "object").attr("reshape")(nb::tuple(shape));
    if (t.eager_shape().rank() == 0) return arr.attr("item")();
    return arr;
  }
  if (t.dtype() == tfs::DType::kResource) throw nb::type_error("cannot convert a resource tensor to numpy");
  nb::bytes data(static_cast<const char*>(t.raw_data()), t.nbytes());
  nb::object arr = np.attr("frombuffer")(data, "dtype"_a = std::string(tfs::dtype_name(t.dtype())))
                       .attr("reshape")(nb::tuple(shape))
                       .attr("copy")();
  if (t.eager_shape().rank() == 0) return arr[nb::tuple()];  // a numpy scalar, as TF returns
  return arr;
}

tfs::Value to_value(nb::handle h) {
  using tfs::Value;
  if (h.is_none()) return Value();
  if (PyBool_Check(h.ptr())) return Value(h.ptr() == Py_True);
  if (PyLong_CheckExact(h.ptr()) || (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr()))) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (!overflow) return Value(static_cast<int64_t>(v));
    Py_hash_t hv = PyObject_Hash(h.ptr());
    return Value(std::shared_ptr<tfs::Object>(new PyObjectKey(nb::borrow(h), false, hv)));
  }
  if (PyFloat_Check(h.ptr())) return Value(PyFloat_AsDouble(h.ptr()));
  if (PyUnicode_Check(h.ptr())) {
    Py_ssize_t n = 0;
    const char* s = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
    if (!s) {  // a lone surrogate has no UTF-8 form
      PyErr_Clear();
      throw nb::value_error(
          "Error converting unicode string while converting Python sequence to Tensor.");
    }
    return Value(std::string(s, static_cast<size_t>(n)));
  }
  if (nb::isinstance<tfs::Tensor>(h)) return Value(nb::cast<tfs::Tensor>(h));
  if (nb::isinstance<tfs::Variable>(h)) return Value(nb::cast<tfs::Variable&>(h).state());
  if (nb::hasattr(h, "_tfscope_variable")) return Value(nb::cast<tfs::Variable&>(h.attr("_tfscope_variable")).state());
  if (is_instance_of(h, registry().tensor_spec_class)) {
    tfs::PartialShape s = shape_arg(h.attr("shape"));
    tfs::DType d = dtype_arg(h.attr("dtype"));
    nb::object n = h.attr("name");
    if (n.is_none()) return Value(tfs::TensorSpec(s, d));
    return Value(tfs::TensorSpec(s, d, nb::cast<std::string>(n)));
  }
  if (has_tracing_protocol(h)) return traced_value(h);  // TF asks the protocol first
  if (PyList_Check(h.ptr())) {
    NestLevel level;
    tfs::ValueList items;
    for (nb::handle x : h) items.push_back(to_value(x));
    return Value::list(std::move(items));
  }
  if (PyTuple_Check(h.ptr())) {
    NestLevel level;
    tfs::ValueList items;
    for (nb::handle x : h) items.push_back(to_value(x));
    if (nb::hasattr(h, "_fields")) {
      std::vector<std::string> fields;
      for (nb::handle f : h.attr("_fields")) fields.push_back(nb::cast<std::string>(f));
      std::string name = nb::cast<std::string>(h.type().attr("__name__"));
      note_namedtuple_class(name, fields, h.type());
      return Value::named_tuple(name, fields, std::move(items));
    }
    return Value::tuple(std::move(items));
  }
  nb::object abc = nb::module_::import_("collections.abc");
  if (PyObject_IsInstance(h.ptr(), abc.attr("Mapping").ptr()) == 1) {
    NestLevel level;
    tfs::ValueItems items;
    for (nb::handle k : h.attr("keys")()) items.emplace_back(to_value(k), to_value(h[k]));
    return Value::dict(std::move(items));
  }
  nb::object weakref = nb::module_::import_("weakref");
  if (PyObject_IsInstance(h.ptr(), weakref.attr("ref").ptr()) == 1) {
    throw nb::type_error(("weakref input " + nb::cast<std::string>(nb::repr(h)) +
                          " not supported for tf.function.").c_str());
  }
  if (nb::hasattr(h, "__wrapped__")) {
    NestLevel level;
    return to_value(h.attr("__wrapped__"));
  }
  bool is_class = PyType_Check(h.ptr());
  if (!is_class && nb::hasattr(h, "__array__") &&
      !PyObject_IsInstance(h.ptr(), registry().numpy.attr("str_").ptr())) {
    return Value(numpy_to_tensor(h));
  }
  // Weakly referenceable and hashable: keyed by identity, then ==.
  PyObject* ref = PyWeakref_NewRef(h.ptr(), nullptr);
  if (ref) {
    nb::object r = nb::steal(ref);
    Py_hash_t hv = PyObject_Hash(r.ptr());
    if (hv != -1 || !PyErr_Occurred()) {
      return Value(std::shared_ptr<tfs::Object>(new PyObjectKey(r, true, hv)));
    }
    PyErr_Clear();
  } else {
    PyErr_Clear();
  }
  Py_hash_t hv = PyObject_Hash(h.ptr());
  if (hv == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw nb::type_error(("Could not generate a generic TraceType for " +
                          nb::cast<std::string>(nb::repr(h)) +
                          ".Please verify that it is immutable/hashable. Otherwise, consider "
                          "implementing the Tracing Protocol for it.").c_str());
  }
  return Value(std::shared_ptr<tfs::Object>(new PyObjectKey(nb::borrow(h), false, hv)));
}

nb::object from_value(const tfs::Value& v) {
  using K = tfs::Value::Kind;
  switch (v.kind()) {
    case K::kNone: return nb::none();
    case K::kBool: return nb::bool_(v.as_bool());
    case K::kInt: return nb::int_(v.as_int());
    case K::kFloat: return nb::float_(v.as_double());
    case K::kStr: return nb::str(v.as_str().c_str());
    case K::kTensor: return nb::cast(v.as_tensor());
    case K::kVariable: return registry().variable_class.attr("_wrap")(nb::cast(tfs::Variable(v.as_variable())));
    case K::kTensorSpec: {
      const auto& s = v.as_spec();
      nb::object dims = nb::none();
      if (s.shape.has_rank()) {
        nb::list l;
        for (int i = 0; i < s.shape.rank(); ++i) {
          if (s.shape.dim(i) < 0) l.append(nb::none());
          else l.append(nb::int_(s.shape.dim(i)));
        }
        dims = l;
      }
      return registry().spec_factory(dims, static_cast<int>(s.dtype),
                                     s.has_name ? nb::object(nb::str(s.name.c_str())) : nb::none());
    }
    case K::kList: {
      nb::list l;
      for (auto& x : v.items()) l.append(from_value(x));
      return l;
    }
    case K::kTuple: {
      nb::list l;
      for (auto& x : v.items()) l.append(from_value(x));
      return nb::tuple(l);
    }
    case K::kNamedTuple: {
      const auto& nt = v.named_tuple();
      nb::list fields, vals;
      for (auto& f : nt.fields) fields.append(nb::str(f.c_str()));
      for (auto& x : nt.values) vals.append(from_value(x));
      if (nb::object cls = namedtuple_class(nt.type_name, nt.fields); cls.is_valid())
        return cls(*vals);
      return registry().namedtuple_factory(nb::str(nt.type_name.c_str()), fields, vals);
    }
    case K::kDict: {
      nb::dict d;
      for (auto& [k, x] : v.dict_items()) d[from_value(k)] = from_value(x);
      return d;
    }
    case K::kObject: {
      auto* o = dynamic_cast<const PyObjectKey*>(v.as_object().get());
      if (o) return o->get();
      if (nb::object held; held_object(v, &held)) return held;
      if (auto* vs = dynamic_cast<const tfs::VariableSpecValue*>(v.as_object().get())) {
        return nb::module_::import_("tfscope._types")
            .attr("VariableSpec")(py_shape(vs->shape), py_dtype(vs->dtype), vs->trainable,
                                  vs->alias_id);
      }
      return nb::none();
    }
  }
  return nb::none();
}

namespace {

bool holds_bytes(nb::handle h, int depth = 0) {
  if (PyBytes_Check(h.ptr())) return true;
  if (depth > 64 || (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr()))) return false;
  for (nb::handle x : h) {
    if (holds_bytes(x, depth + 1)) return true;
  }
  return false;
}

// A host value with bytes in it, for conversion to a tensor: bytes are string elements (to_value
// keeps them as literal keys for tracing, where b"a" and "a" differ).
tfs::Value bytes_value(nb::handle h) {
  if (PyBytes_Check(h.ptr())) {
    char* s = nullptr;
    Py_ssize_t n = 0;
    PyBytes_AsStringAndSize(h.ptr(), &s, &n);
    return tfs::Value(std::string(s, static_cast<size_t>(n)));
  }
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    NestLevel level;  // a list that holds itself raises RecursionError, as to_value does
    tfs::ValueList items;
    for (nb::handle x : h) items.push_back(bytes_value(x));
    return PyList_Check(h.ptr()) ? tfs::Value::list(std::move(items))
                                 : tfs::Value::tuple(std::move(items));
  }
  return to_value(h);
}

}  // namespace

bool holds_complex(nb::handle h) {
  if (PyComplex_Check(h.ptr())) return true;
  if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) return false;
  NestLevel level;
  for (nb::handle x : h)
    if (holds_complex(x)) return true;
  return false;
}

namespace {

// Python complex numbers (alone or in lists) as numpy converts them: complex128 unless a complex
// dtype is asked for; a real dtype is TF's TypeError.
tfs::Tensor complex_host_tensor(nb::handle h, tfs::DType dtype) {
  if (dtype != tfs::DType::kInvalid && !tfs::is_complex(dtype)) {
    throw nb::type_error(("Cannot convert " + nb::cast<std::string>(nb::repr(h)) +
                          " to EagerTensor of dtype " + std::string(tfs::dtype_tf_string(dtype)))
                             .c_str());
  }
  nb::object arr = registry().numpy.attr("array")(
      h, "dtype"_a = std::string(tfs::dtype_name(dtype == tfs::DType::kInvalid
                                                     ? tfs::kComplex128
                                                     : dtype)));
  tfs::Tensor t = numpy_to_tensor(arr);
  if (tfs::GraphBuilder* b = tfs::current_builder()) return b->constant(t, "Const");
  return t;
}

}  // namespace

bool is_tensor_shape(nb::handle h) {
  return !PyType_Check(h.ptr()) && nb::hasattr(h, "_dims") && nb::hasattr(h, "as_list");
}

// TF's _tensor_shape_tensor_conversion_function: a fully known TensorShape converts to the
// int32 vector of its dims (int64 when one passes int32), a Const "shape_as_tensor" in a graph.
tfs::Tensor tensor_shape_to_tensor(nb::handle h, tfs::DType dtype) {
  const std::string text = nb::cast<std::string>(nb::str(h));
  nb::object dims = h.attr("_dims");
  bool known = !dims.is_none();
  bool wide = false;
  nb::list values;
  if (known) {
    for (nb::handle d : dims) {
      if (d.is_none()) {
        known = false;
        break;
      }
      const int64_t v = nb::cast<int64_t>(d);
      wide = wide || v >= (int64_t{1} << 31);
      values.append(v);
    }
  }
  if (!known) {
    throw nb::value_error(
        ("Cannot convert a partially known TensorShape " + text + " to a Tensor.").c_str());
  }
  if (dtype != tfs::DType::kInvalid && dtype != tfs::DType::kInt32 && dtype != tfs::DType::kInt64) {
    throw nb::type_error(("Cannot convert TensorShape " + text + " to dtype " +
                          nb::cast<std::string>(nb::str(py_dtype(dtype))) +
                          ". Allowed dtypes are tf.int32 and tf.int64.")
                             .c_str());
  }
  const bool int64 = dtype == tfs::DType::kInt64 || (dtype == tfs::DType::kInvalid && wide);
  tfs::Tensor t =
      numpy_to_tensor(registry().numpy.attr("array")(values, "dtype"_a = int64 ? "int64" : "int32"));
  if (tfs::GraphBuilder* b = tfs::current_builder()) return b->constant(t, "shape_as_tensor");
  return t;
}

tfs::Tensor to_tensor(nb::handle h, tfs::DType dtype) {
  tfs::mark_context_initialized();  // TF's first tensor initializes its context
  if (nb::isinstance<tfs::Tensor>(h)) {
    tfs::Tensor t = nb::cast<tfs::Tensor>(h);
    if (dtype != tfs::DType::kInvalid && t.dtype() != dtype) return tfs::convert_to_tensor(tfs::Value(t), dtype);
    return t;
  }
  if (nb::hasattr(h, "_tfscope_dense")) return to_tensor(h.attr("_tfscope_dense")(), dtype);
  if (nb::hasattr(h, "_tfscope_variable")) h = h.attr("_tfscope_variable");
  if (nb::isinstance<tfs::Variable>(h)) {
    tfs::Tensor t = nb::cast<tfs::Variable&>(h).read_value();
    if (dtype != tfs::DType::kInvalid && t.dtype() != dtype) return tfs::convert_to_tensor(tfs::Value(t), dtype);
    return t;
  }
  bool is_np = nb::hasattr(h, "__array__") && !PyType_Check(h.ptr()) && !PyList_Check(h.ptr()) &&
               !PyTuple_Check(h.ptr());
  if (is_np) {
    tfs::Tensor t = numpy_to_tensor(h);
    if (dtype != tfs::DType::kInvalid) t = tfs::astype(t, dtype);
    if (tfs::GraphBuilder* b = tfs::current_builder()) return b->constant(t, "Const");
    return t;
  }
  if (is_tensor_shape(h)) return tensor_shape_to_tensor(h, dtype);
  if (h.is_none()) {
    throw nb::value_error("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.");
  }
  if (holds_complex(h)) return complex_host_tensor(h, dtype);
  tfs::Value v = holds_bytes(h) ? bytes_value(h) : to_value(h);
  try {
    return tfs::convert_to_tensor(v, dtype);
  } catch (const tfs::Error& e) {
    // An int past int64 (kept as a Python object for tracing) converts only to a float dtype.
    if (e.kind() != tfs::ErrorKind::kTypeError || !holds_big_int(h)) throw;
    if (dtype == tfs::DType::kInvalid || !tfs::is_floating(dtype))
      throw nb::value_error("Can't convert Python sequence with out-of-range integer to Tensor.");
    tfs::Tensor t =
        tfs::cast(numpy_to_tensor(registry().numpy.attr("array")(h, "dtype"_a = "float64")), dtype);
    if (tfs::GraphBuilder* b = tfs::current_builder()) return b->constant(t, "Const");
    return t;
  }
}

}  // namespace tfpy
