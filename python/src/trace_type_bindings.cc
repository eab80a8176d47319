// TF's tracing protocol for Python objects: a class with __tf_tracing_type__ returns a
// tf.types.experimental.TraceType (python/tfscope/_trace_type.py), which the engine keys its
// cache on through tfs::CustomTraceType (include/tfscope/trace_type.h). The engine calls these
// with the GIL released, so every method takes it.
#include "trace_type_bindings.h"

#include <set>

#include "tfscope/composite_type.h"
#include "tfscope/trace_type.h"

namespace tfpy {

namespace {

nb::object protocol_module() {
  static nb::object* m = new nb::object(nb::module_::import_("tfscope._trace_type"));
  return *m;
}

// Every Python reference the engine holds for this protocol (a trace cache holds its types as
// long as the function lives). A type's methods can reach the module that holds the function,
// a cycle through C++ that Python's collector cannot see: at exit they are dropped, so that the
// interpreter can free what they held. Guarded by the GIL.
std::set<nb::object*>& held_refs() {
  static auto* s = new std::set<nb::object*>();
  return *s;
}

void hold(nb::object* o) {
  nb::gil_scoped_acquire gil;
  held_refs().insert(o);
}

// Drops a Python reference from wherever the engine destroys the holder.
void release(nb::object* o) {
  if (Py_IsInitialized()) {
    nb::gil_scoped_acquire gil;
    held_refs().erase(o);
    o->reset();
  } else {
    o->release();
  }
}

// The placeholder_value argument: makes the trace's graph inputs while the type builds its
// placeholder; unusable once that call returns.
struct PyPlaceholderContext {
  tfs::PlaceholderContext* ctx = nullptr;
  bool unnest_only = false;  // TF's: the signature's view, no graph inputs made
};

class PyTraceType : public tfs::CompositeTraceType {
 public:
  PyTraceType(nb::object t, Py_hash_t h) : t_(std::move(t)), h_(h) { hold(&t_); }
  ~PyTraceType() override { release(&t_); }
  const nb::object& object() const { return t_; }

  bool equals(const tfs::CustomTraceType& other) const override {
    auto* o = dynamic_cast<const PyTraceType*>(&other);
    if (!o) return false;
    nb::gil_scoped_acquire gil;
    if (!t_.is_valid() || !o->t_.is_valid()) return false;  // released at exit
    return t_.is(o->t_) || t_.equal(o->t_);
  }
  size_t hash() const override { return static_cast<size_t>(h_); }
  bool is_subtype_of(const tfs::CustomTraceType& other) const override {
    auto* o = dynamic_cast<const PyTraceType*>(&other);
    if (!o) return false;
    nb::gil_scoped_acquire gil;
    if (!t_.is_valid() || !o->t_.is_valid()) return false;
    return nb::cast<bool>(nb::bool_(t_.attr("is_subtype_of")(o->t_)));
  }
  std::shared_ptr<const tfs::CustomTraceType> most_specific_common_supertype(
      const tfs::CustomTraceType& other) const override {
    auto* o = dynamic_cast<const PyTraceType*>(&other);
    if (!o) return nullptr;
    nb::gil_scoped_acquire gil;
    if (!t_.is_valid() || !o->t_.is_valid()) return nullptr;
    nb::list others;
    others.append(o->t_);
    nb::object r = t_.attr("most_specific_common_supertype")(others);
    if (r.is_none()) return nullptr;
    return make(r);
  }
  std::string repr() const override {
    nb::gil_scoped_acquire gil;
    if (!t_.is_valid()) return "<released TraceType>";
    return nb::cast<std::string>(nb::repr(t_));
  }
  tfs::Value placeholder_value(tfs::PlaceholderContext& ctx) const override {
    nb::gil_scoped_acquire gil;
    live();
    auto* holder = new PyPlaceholderContext{&ctx};
    nb::object pctx = nb::cast(holder, nb::rv_policy::take_ownership);
    struct Invalidate {
      PyPlaceholderContext* h;
      ~Invalidate() { h->ctx = nullptr; }
    } invalidate{holder};
    return held_value(t_.attr("placeholder_value")(pctx));
  }
  tfs::Value signature_value(const tfs::Value& placeholder) const override {
    nb::gil_scoped_acquire gil;
    live();
    auto* holder = new PyPlaceholderContext{nullptr, true};
    nb::object pctx = nb::cast(holder, nb::rv_policy::take_ownership);
    try {
      return held_value(t_.attr("placeholder_value")(pctx));
    } catch (nb::python_error& e) {
      if (!e.matches(PyExc_Exception)) throw;  // Ctrl-C is not an answer
      return placeholder;  // a type that cannot answer without graph inputs
    }
  }
  std::vector<tfs::Tensor> to_tensors(const tfs::Value& v) const override {
    nb::gil_scoped_acquire gil;
    live();
    std::vector<tfs::Tensor> out;
    for (nb::handle x : t_.attr("to_tensors")(from_value(v))) {
      if (!nb::isinstance<tfs::Tensor>(x)) {
        throw nb::type_error((nb::cast<std::string>(nb::repr(t_)) +
                              ".to_tensors returned a value that is not a Tensor: " +
                              nb::cast<std::string>(nb::repr(x)))
                                 .c_str());
      }
      out.push_back(nb::cast<tfs::Tensor>(x));
    }
    return out;
  }
  // A type whose class defines from_tensors packs a function's results back (the protocol's
  // default from_tensors only makes a placeholder).
  bool packs_results() const override {
    nb::gil_scoped_acquire gil;
    if (!t_.is_valid()) return false;
    nb::object base = protocol_module().attr("TraceType").attr("from_tensors");
    return !nb::getattr(t_.type(), "from_tensors").is(base);
  }
  tfs::Value from_tensors(const std::vector<tfs::Tensor>& tensors) const override {
    nb::gil_scoped_acquire gil;
    live();
    nb::list ts;
    for (const auto& t : tensors) ts.append(nb::cast(t));
    return held_value(t_.attr("from_tensors")(nb::iter(ts)));
  }
  tfs::Value cast(const tfs::Value& v) const override {
    nb::gil_scoped_acquire gil;
    live();
    nb::object r;
    try {
      r = t_.attr("cast")(from_value(v), protocol_module().attr("CastContext")());
    } catch (nb::python_error& e) {
      // TF's default cast asserts; its binding error carries the assertion's text.
      if (!e.matches(PyExc_AssertionError) && !e.matches(PyExc_TypeError)) throw;
      tfs::type_error(nb::cast<std::string>(nb::str(e.value())));
    }
    return to_value(r);
  }
  std::vector<tfs::TensorSpec> flatten() const override {
    nb::gil_scoped_acquire gil;
    live();
    std::vector<tfs::TensorSpec> out;
    for (nb::handle s : t_.attr("flatten")()) {
      tfs::Value v = to_value(s);
      if (v.kind() != tfs::Value::Kind::kTensorSpec)
        throw nb::type_error("TraceType.flatten() must return TensorSpecs");
      out.push_back(v.as_spec());
    }
    return out;
  }

  void live() const {
    if (!t_.is_valid())
      throw nb::value_error("a TraceType used after the interpreter began to exit");
  }

  static std::shared_ptr<const PyTraceType> make(nb::handle t) {
    Py_hash_t h = PyObject_Hash(t.ptr());
    if (h == -1 && PyErr_Occurred()) throw nb::python_error();
    return std::make_shared<PyTraceType>(nb::borrow(t), h);
  }

 private:
  nb::object t_;
  Py_hash_t h_;
};

// A Python object held as it is: the body gets this very object back. Its trace type, when it
// has one, is what it traces as; an object without one is keyed by identity.
class PyHeld : public tfs::TracedObject {
 public:
  PyHeld(nb::object o, std::shared_ptr<const PyTraceType> t) : o_(std::move(o)), t_(std::move(t)) {
    hold(&o_);
  }
  ~PyHeld() override { release(&o_); }
  const nb::object& object() const { return o_; }
  std::string repr() const override {
    nb::gil_scoped_acquire gil;
    if (!o_.is_valid()) return "<released object>";
    return nb::cast<std::string>(nb::repr(o_));
  }
  std::shared_ptr<const tfs::CustomTraceType> trace_type() const override { return t_; }

 private:
  nb::object o_;
  std::shared_ptr<const PyTraceType> t_;
};

}  // namespace

bool has_tracing_protocol(nb::handle h) {
  PyTypeObject* tp = Py_TYPE(h.ptr());
  if (tp == &PyList_Type || tp == &PyTuple_Type || tp == &PyDict_Type || PyType_Check(h.ptr()))
    return false;
  return PyObject_HasAttrString(reinterpret_cast<PyObject*>(tp), "__tf_tracing_type__") == 1;
}

tfs::Value traced_value(nb::handle h) {
  nb::object m = protocol_module();
  nb::object t = h.attr("__tf_tracing_type__")(m.attr("TracingContext")());
  if (!nb::isinstance(t, m.attr("TraceType"))) {
    throw nb::type_error(("Expected an instance of TraceType for Tracing Protocol call to " +
                          nb::cast<std::string>(nb::str(h)) + " but got " +
                          nb::cast<std::string>(nb::str(t)))
                             .c_str());
  }
  return tfs::Value(
      std::shared_ptr<tfs::Object>(std::make_shared<PyHeld>(nb::borrow(h), PyTraceType::make(t))));
}

tfs::Value held_value(nb::handle h) {
  if (has_tracing_protocol(h)) return traced_value(h);
  return tfs::Value(std::shared_ptr<tfs::Object>(std::make_shared<PyHeld>(nb::borrow(h), nullptr)));
}

bool held_object(const tfs::Value& v, nb::object* out) {
  if (v.kind() != tfs::Value::Kind::kObject) return false;
  if (auto* h = dynamic_cast<const PyHeld*>(v.as_object().get())) {
    *out = h->object();
    return true;
  }
  return false;
}

nb::object trace_type_object(const tfs::TraceType& t) {
  if (t.kind() != tfs::TraceType::Kind::kCustom) return nb::none();
  auto* p = dynamic_cast<const PyTraceType*>(&t.custom());
  return p ? p->object() : nb::none();
}

void bind_trace_type(nb::module_& m) {
  m.def("_release_trace_types", [] {
    std::set<nb::object*> refs;
    refs.swap(held_refs());
    for (nb::object* o : refs) o->reset();
  });
  nb::class_<PyPlaceholderContext>(m, "PlaceholderContext")
      .def_prop_ro("unnest_only", [](const PyPlaceholderContext& c) { return c.unnest_only; })
      .def("_placeholder", [](PyPlaceholderContext& c, nb::handle spec) -> nb::object {
        if (c.unnest_only) return nb::borrow(spec);  // a TensorSpec shows itself, as TF's
        if (!c.ctx) throw nb::value_error("this placeholder context is no longer in use");
        tfs::Value s = to_value(spec);
        if (s.kind() != tfs::Value::Kind::kTensorSpec)
          throw nb::type_error("a placeholder is made from a TensorSpec");
        return nb::cast(c.ctx->placeholder(s.as_spec().dtype, s.as_spec().shape));
      });
}

}  // namespace tfpy
