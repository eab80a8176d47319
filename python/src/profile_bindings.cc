// tfscope.profile's per-op events (tfscope/op_profile.h), and the two pieces of the watch's
// per-call work (python/tfscope/watch) that cost most in Python: the hit memo's key of a call's
// arguments and the call site in the user's code.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <cstring>

#include "convert.h"
#include "tfscope/op_profile.h"

namespace tfpy {
namespace {

// What the watch's helpers read, set once by tfscope.watch (_watch_setup).
struct WatchState {
  PyObject* eager_tensor = nullptr;     // TF's EagerTensor class (a borrowed type, kept alive)
  PyObject* library_cache = nullptr;    // filename -> bool: the frame is TF's, Keras's, watch's...
  PyObject* is_library = nullptr;       // filename -> bool, for a filename not in the cache
  PyObject* site_cache = nullptr;       // (filename, line) -> "file:line"
  PyObject* make_site = nullptr;        // (filename, line) -> "file:line", filling the cache
  PyObject* attr_keyed = nullptr;       // type -> attribute name: keyed by that (hashable) value
  PyObject* code_site_cache = nullptr;  // (code address, offset) -> (code, "file:line")
  PyObject* dtype_method = nullptr;     // EagerTensor._datatype_enum, from the type
  PyObject* shape_method = nullptr;     // EagerTensor._shape_tuple, from the type
};
WatchState& watch_state() {
  static WatchState s;  // leaked at exit with the module's other Python references
  return s;
}

void keep(PyObject*& slot, nb::handle v) {
  Py_XINCREF(v.ptr());
  Py_XDECREF(slot);
  slot = v.ptr();
}

// A value's part of a call key (a new reference), or null for a value the memo does not key; a
// Python error is set only when one was raised. The key is equal exactly when what tfscope's
// tracing rules read is: a tensor by (dtype enum, shape), a Python int, bool, str, bytes or
// None by exact type and value, a float by its bits (NaN never: TF's Literal never equals it),
// tuples, lists and string-keyed dicts element by element.
PyObject* key_of(PyObject* v, int depth) {
  if (depth > 64) return nullptr;
  PyTypeObject* t = Py_TYPE(v);
  WatchState& w = watch_state();
  if (w.eager_tensor != nullptr && reinterpret_cast<PyObject*>(t) == w.eager_tensor) {
    // The type's own methods, called with the tensor: a lookup on the instance would go through
    // TF's Tensor.__getattr__ hook (about a thousand instructions each).
    PyObject* e = PyObject_CallOneArg(w.dtype_method, v);
    if (e == nullptr) return nullptr;
    PyObject* s = PyObject_CallOneArg(w.shape_method, v);
    if (s == nullptr) {
      Py_DECREF(e);
      return nullptr;
    }
    PyObject* k = PyTuple_Pack(2, e, s);
    Py_DECREF(e);
    Py_DECREF(s);
    return k;
  }
  auto typed = [&](PyObject* value) -> PyObject* {
    return PyTuple_Pack(2, reinterpret_cast<PyObject*>(t), value);
  };
  if (v == Py_None || PyLong_CheckExact(v) || PyBool_Check(v) || PyUnicode_CheckExact(v) ||
      PyBytes_CheckExact(v))
    return typed(v);
  if (PyFloat_CheckExact(v)) {
    double d = PyFloat_AS_DOUBLE(v);
    if (d != d) return nullptr;
    long long bits = 0;
    static_assert(sizeof bits == sizeof d);
    std::memcpy(&bits, &d, sizeof d);  // -0.0 and 0.0 apart
    PyObject* b = PyLong_FromLongLong(bits);
    if (b == nullptr) return nullptr;
    PyObject* k = typed(b);
    Py_DECREF(b);
    return k;
  }
  if (PyTuple_CheckExact(v) || PyList_CheckExact(v)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    PyObject* items = PyTuple_New(n);
    if (items == nullptr) return nullptr;
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* k = key_of(PySequence_Fast_GET_ITEM(v, i), depth + 1);
      if (k == nullptr) {
        Py_DECREF(items);
        return nullptr;
      }
      PyTuple_SET_ITEM(items, i, k);
    }
    PyObject* out = typed(items);
    Py_DECREF(items);
    return out;
  }
  if (PyDict_CheckExact(v)) {
    PyObject* items = PyTuple_New(PyDict_Size(v));
    if (items == nullptr) return nullptr;
    Py_ssize_t pos = 0, i = 0;
    PyObject *name, *value;
    while (PyDict_Next(v, &pos, &name, &value)) {
      PyObject* k = PyUnicode_CheckExact(name) ? key_of(value, depth + 1) : nullptr;
      PyObject* pair = k != nullptr ? PyTuple_Pack(2, name, k) : nullptr;
      Py_XDECREF(k);
      if (pair == nullptr) {
        Py_DECREF(items);
        return nullptr;
      }
      PyTuple_SET_ITEM(items, i++, pair);
    }
    PyObject* out = typed(items);
    Py_DECREF(items);
    return out;
  }
  // A type whose tfscope value is a function of one attribute (TF's iterator: its element
  // spec), keyed by that attribute's value when it is hashable.
  PyObject* attr = w.attr_keyed != nullptr
                       ? PyDict_GetItemWithError(w.attr_keyed, reinterpret_cast<PyObject*>(t))
                       : nullptr;
  if (attr == nullptr) return nullptr;
  PyObject* a = PyObject_GetAttr(v, attr);
  if (a == nullptr) return nullptr;
  if (PyObject_Hash(a) == -1) {
    PyErr_Clear();
    Py_DECREF(a);
    return nullptr;
  }
  PyObject* out = typed(a);
  Py_DECREF(a);
  return out;
}

// The key of a call (args a tuple, kwargs a dict or None), or None when an argument is not keyed.
nb::object call_key(nb::handle args, nb::handle kwargs) {
  if (!PyTuple_Check(args.ptr())) return nb::none();
  Py_ssize_t n = PyTuple_GET_SIZE(args.ptr());
  bool with_kw =
      kwargs.ptr() != Py_None && PyDict_Check(kwargs.ptr()) && PyDict_GET_SIZE(kwargs.ptr()) > 0;
  PyObject* key = PyTuple_New(n + (with_kw ? 1 : 0));
  if (key == nullptr) throw nb::python_error();
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* k = key_of(PyTuple_GET_ITEM(args.ptr(), i), 0);
    if (k == nullptr) {
      Py_DECREF(key);
      if (PyErr_Occurred()) throw nb::python_error();
      return nb::none();
    }
    PyTuple_SET_ITEM(key, i, k);
  }
  if (with_kw) {
    PyObject* k = key_of(kwargs.ptr(), 0);
    if (k == nullptr) {
      Py_DECREF(key);
      if (PyErr_Occurred()) throw nb::python_error();
      return nb::none();
    }
    PyTuple_SET_ITEM(key, n, k);
  }
  return nb::steal(key);
}

// "file:line" of the innermost frame outside the libraries, `skip` frames out from the calling
// Python frame; "<library>" when every frame is a library's.
nb::object user_site(int skip) {
  WatchState& w = watch_state();
  if (w.library_cache == nullptr) throw nb::value_error("[watch] _watch_setup was not called");
  PyFrameObject* f = PyEval_GetFrame();  // borrowed
  Py_XINCREF(f);
  for (int i = 0; i < skip && f != nullptr; ++i) {
    PyFrameObject* back = PyFrame_GetBack(f);
    Py_DECREF(f);
    f = back;
  }
  while (f != nullptr) {
    PyCodeObject* code = PyFrame_GetCode(f);
    PyObject* file = code->co_filename;
    PyObject* lib = PyDict_GetItemWithError(w.library_cache, file);  // borrowed
    bool library;
    if (lib != nullptr) {
      library = lib == Py_True;
    } else {
      if (PyErr_Occurred()) {
        Py_DECREF(code);
        Py_DECREF(f);
        throw nb::python_error();
      }
      PyObject* r = PyObject_CallOneArg(w.is_library, file);
      if (r == nullptr) {
        Py_DECREF(code);
        Py_DECREF(f);
        throw nb::python_error();
      }
      library = PyObject_IsTrue(r) == 1;
      Py_DECREF(r);
    }
    if (!library) {
      // Keyed first by (code object, instruction offset): a line number is a walk of the code's
      // line table (thousands of instructions), the offset is a field.
#if PY_VERSION_HEX >= 0x030B0000
      int offset = PyFrame_GetLasti(f);
#else
      int offset = PyFrame_GetLineNumber(f);  // Python 3.10 has no public offset: the line
#endif
      // The code object by address (hashing a code object hashes its constants); the entry
      // holds the code, so the address is not reused while the entry lives.
      PyObject* at = Py_BuildValue("(Ni)", PyLong_FromVoidPtr(code), offset);
      PyObject* entry = at != nullptr ? PyDict_GetItemWithError(w.code_site_cache, at) : nullptr;
      if (entry != nullptr) {
        Py_DECREF(at);
        Py_DECREF(code);
        Py_DECREF(f);
        return nb::borrow(PyTuple_GET_ITEM(entry, 1));
      }
      PyObject* key = at != nullptr && !PyErr_Occurred()
                          ? Py_BuildValue("(Oi)", file, PyFrame_GetLineNumber(f))
                          : nullptr;
      Py_DECREF(f);
      if (key == nullptr) {
        Py_DECREF(code);
        Py_XDECREF(at);
        throw nb::python_error();
      }
      PyObject* site = PyDict_GetItemWithError(w.site_cache, key);  // borrowed
      PyObject* made = site != nullptr    ? Py_NewRef(site)
                       : PyErr_Occurred() ? nullptr
                                          : PyObject_CallObject(w.make_site, key);
      Py_DECREF(key);
      PyObject* kept =
          made != nullptr ? PyTuple_Pack(2, reinterpret_cast<PyObject*>(code), made) : nullptr;
      Py_DECREF(code);
      // bounded: code made at run time (exec, eval) would otherwise be kept alive without end
      if (PyDict_GET_SIZE(w.code_site_cache) >= 65536) PyDict_Clear(w.code_site_cache);
      bool stored = kept != nullptr && PyDict_SetItem(w.code_site_cache, at, kept) == 0;
      Py_XDECREF(kept);
      Py_DECREF(at);
      if (!stored) {
        Py_XDECREF(made);
        throw nb::python_error();
      }
      return nb::steal(made);
    }
    Py_DECREF(code);
    PyFrameObject* back = PyFrame_GetBack(f);
    Py_DECREF(f);
    f = back;
  }
  return nb::str("<library>");
}

}  // namespace

void bind_profile(nb::module_& m) {
  nb::class_<tfs::OpProfile>(m, "OpProfile")
      .def(nb::init<>())
      .def("start", &tfs::OpProfile::start)
      .def("stop", &tfs::OpProfile::stop)
      .def_prop_ro("recording", &tfs::OpProfile::recording)
      .def(
          "events",
          [](const tfs::OpProfile& p) {
            // (node, op, function, depth, thread, start_ns, dur_ns) per executed op
            nb::list out;
            for (const tfs::OpEvent& e : p.events())
              out.append(nb::make_tuple(e.node, e.op, e.function, e.depth, e.thread, e.start_ns,
                                        e.dur_ns));
            return out;
          },
          "The executed ops as (node, op, function, depth, thread, start_ns, dur_ns) tuples.");

  m.def("_watch_setup", [](nb::handle eager_tensor, nb::handle library_cache, nb::handle is_library,
                           nb::handle site_cache, nb::handle make_site, nb::handle attr_keyed) {
    WatchState& w = watch_state();
    if (!eager_tensor.is_none()) {
      nb::object dtype_method = eager_tensor.attr("_datatype_enum");
      nb::object shape_method = eager_tensor.attr("_shape_tuple");
      keep(w.eager_tensor, eager_tensor);
      keep(w.dtype_method, dtype_method);
      keep(w.shape_method, shape_method);
    }
    if (!attr_keyed.is_none()) keep(w.attr_keyed, attr_keyed);
    keep(w.library_cache, library_cache);
    keep(w.is_library, is_library);
    keep(w.site_cache, site_cache);
    keep(w.make_site, make_site);
    PyObject* fresh = PyDict_New();  // the sites are the library cache's: made again with it
    if (fresh == nullptr) throw nb::python_error();
    Py_XDECREF(w.code_site_cache);
    w.code_site_cache = fresh;
  });
  m.def("_watch_call_key", &call_key, "args"_a, "kwargs"_a.none());
  m.def("_watch_user_site", &user_site, "skip"_a = 1);
}

}  // namespace tfpy
