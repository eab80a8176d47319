// The watch's per-call work (python/tfscope/watch) in C++: a real tf.function call runs through
// here (_watch_call, from the hook's __call__), so a call TF answers from its cache costs no
// Python of the watch's own. The hit memo's key of a call's arguments and the call site in the
// user's code are here too; what a trace, a failure or an unmemoized call needs is left to the
// Python the call path hands it to (_hooks.finish, _hooks._check).
#include <Python.h>
#include <pythread.h>
#include <structmember.h>
#include <time.h>

#include <cstddef>

#include <cstring>
#include <functional>
#include <unordered_map>
#include <vector>

#include "convert.h"

namespace tfpy {
namespace {

// Where a frame is: its code object and instruction offset.
struct CodeAt {
  PyCodeObject* code;
  int offset;
  bool operator==(const CodeAt& o) const { return code == o.code && offset == o.offset; }
};
struct CodeAtHash {
  size_t operator()(const CodeAt& a) const {
    return std::hash<const void*>()(a.code) * 31 + static_cast<size_t>(a.offset);
  }
};

// What the watch's helpers read, set once by tfscope.watch (_watch_setup).
struct WatchState {
  PyObject* eager_tensor = nullptr;   // TF's EagerTensor class (a borrowed type, kept alive)
  PyObject* library_cache = nullptr;  // filename -> bool: the frame is TF's, Keras's, watch's...
  PyObject* is_library = nullptr;     // filename -> bool, for a filename not in the cache
  PyObject* site_cache = nullptr;     // (filename, line) -> "file:line"
  PyObject* make_site = nullptr;      // (filename, line) -> "file:line", filling the cache
  PyObject* attr_keyed = nullptr;     // type -> attribute name: keyed by that (hashable) value
  // (code object, instruction offset) -> "file:line"; each entry owns a reference to both
  std::unordered_map<CodeAt, PyObject*, CodeAtHash> code_sites;
  void clear_code_sites() {
    for (auto& [at, site] : code_sites) {
      Py_DECREF(at.code);
      Py_DECREF(site);
    }
    code_sites.clear();
  }
  PyObject* dtype_method = nullptr;  // EagerTensor._datatype_enum, from the type
  PyObject* shape_method = nullptr;  // EagerTensor._shape_tuple, from the type
  // The call path (_watch_call_setup)
  PyObject* orig_call = nullptr;   // TF's Function.__call__
  PyObject* registered = nullptr;  // (session, fn) -> FunctionRecord, on a Function's first call
  PyObject* finish = nullptr;      // the rest of a call that traced or raised (_hooks.finish)
  PyObject* check = nullptr;       // the self-check of a call the hit memo did not answer
  PyObject* selfcheck = nullptr;   // _selfcheck's globals: TF's modules it reads, once imported
  // TF's modules the hit memo reads (_selfcheck's _context_module, _save_state, _eager_run),
  // taken from its globals once TF is imported; they do not change after
  PyObject* context_module = nullptr;
  PyObject* save_state = nullptr;
  PyObject* eager_run = nullptr;
  // The session in effect (_hooks._in_effect) and its fields the call path reads; a strong
  // reference, null when none
  PyObject* session = nullptr;
  bool active = false, self_check = false;
  double t0 = 0.0;
  Py_ssize_t timeline_cap = 0;
  // attr-keyed values (attr_key): value -> its number; the last object keyed so and its key
  PyObject* attr_numbers = nullptr;
  PyObject* attr_last_ref = nullptr;
  PyObject* attr_last_key = nullptr;
  Py_ssize_t calls_kept = 0;
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

// The object `ref` refers to (borrowed), or null when it is gone.
PyObject* referent(PyObject* ref) {
#if PY_VERSION_HEX >= 0x030D0000
  PyObject* obj = nullptr;
  if (PyWeakref_GetRef(ref, &obj) != 1) return nullptr;
  Py_DECREF(obj);  // the caller holds the object it compares with
  return obj;
#else
  PyObject* obj = PyWeakref_GetObject(ref);
  return obj == Py_None ? nullptr : obj;
#endif
}

// The key of an object keyed by one attribute's value (TF's iterator by its element spec): that
// value's number among the distinct values seen (a value's own hash can be Python: a spec's is
// thousands of instructions, and a dict lookup of a key holding it would hash it again), kept
// for the last object keyed so, which is asked again at every step of a loop over it; its
// attribute is fixed while it lives. Null when the value is not hashable or too many are seen.
PyObject* attr_key(PyObject* v, PyObject* attr) {
  WatchState& w = watch_state();
  if (w.attr_last_ref != nullptr && referent(w.attr_last_ref) == v)
    return Py_NewRef(w.attr_last_key);
  if (w.attr_numbers == nullptr && (w.attr_numbers = PyDict_New()) == nullptr) return nullptr;
  nb::object a = nb::steal(PyObject_GetAttr(v, attr));
  if (!a.is_valid()) return nullptr;
  PyObject* number = PyDict_GetItemWithError(w.attr_numbers, a.ptr());  // borrowed
  nb::object made;
  if (number == nullptr) {
    // numbers live in the memos' keys, so the table is never cleared: past its bound, values
    // are not keyed (their calls go to the full check)
    if (PyErr_Occurred() || PyDict_GET_SIZE(w.attr_numbers) >= 4096) {
      PyErr_Clear();
      return nullptr;
    }
    made = nb::steal(PyLong_FromSsize_t(PyDict_GET_SIZE(w.attr_numbers)));
    if (!made.is_valid() || PyDict_SetItem(w.attr_numbers, a.ptr(), made.ptr()) != 0) {
      PyErr_Clear();
      return nullptr;
    }
    number = made.ptr();
  }
  PyObject* key = PyTuple_Pack(2, reinterpret_cast<PyObject*>(Py_TYPE(v)), number);
  if (key == nullptr) return nullptr;
  PyObject* ref = PyWeakref_NewRef(v, nullptr);
  if (ref == nullptr) {
    PyErr_Clear();  // not weakly referable: not kept
  } else {
    Py_XDECREF(w.attr_last_ref);
    Py_XDECREF(w.attr_last_key);
    w.attr_last_ref = ref;
    w.attr_last_key = Py_NewRef(key);
  }
  return key;
}

// method(self) for a method of self's type without arguments: its C function called directly when
// it is a METH_NOARGS method descriptor of C code (TF's EagerTensor methods are), as the
// descriptor's own call would, without the descriptor call's checks.
PyObject* call_noargs(PyObject* method, PyObject* self) {
  if (Py_IS_TYPE(method, &PyMethodDescr_Type)) {
    auto* d = reinterpret_cast<PyMethodDescrObject*>(method);
    if (d->d_method->ml_flags == METH_NOARGS && Py_IS_TYPE(self, PyDescr_TYPE(d)))
      return d->d_method->ml_meth(self, nullptr);
  }
  return PyObject_CallOneArg(method, self);
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
    PyObject* e = call_noargs(w.dtype_method, v);
    if (e == nullptr) return nullptr;
    PyObject* s = call_noargs(w.shape_method, v);
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
  return attr_key(v, attr);
}

// The key of a call's arguments: `n` positional values, then the values of the keywords named by
// `kwnames` (vectorcall's layout; kwnames null or empty for none). A new reference, or null when
// an argument is not keyed (a Python error set only when one was raised). Keywords are keyed as
// the dict of them would be, in their order.
PyObject* call_key_of(PyObject* const* items, Py_ssize_t n, PyObject* kwnames) {
  Py_ssize_t nk = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
  PyObject* key = PyTuple_New(n + (nk > 0 ? 1 : 0));
  if (key == nullptr) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* k = key_of(items[i], 0);
    if (k == nullptr) {
      Py_DECREF(key);
      return nullptr;
    }
    PyTuple_SET_ITEM(key, i, k);
  }
  if (nk > 0) {
    PyObject* pairs = PyTuple_New(nk);
    if (pairs == nullptr) {
      Py_DECREF(key);
      return nullptr;
    }
    for (Py_ssize_t i = 0; i < nk; ++i) {
      PyObject* name = PyTuple_GET_ITEM(kwnames, i);
      PyObject* k = PyUnicode_CheckExact(name) ? key_of(items[n + i], 1) : nullptr;
      PyObject* pair = k != nullptr ? PyTuple_Pack(2, name, k) : nullptr;
      Py_XDECREF(k);
      if (pair == nullptr) {
        Py_DECREF(pairs);
        Py_DECREF(key);
        return nullptr;
      }
      PyTuple_SET_ITEM(pairs, i, pair);
    }
    PyObject* kw = PyTuple_Pack(2, reinterpret_cast<PyObject*>(&PyDict_Type), pairs);
    Py_DECREF(pairs);
    if (kw == nullptr) {
      Py_DECREF(key);
      return nullptr;
    }
    PyTuple_SET_ITEM(key, n, kw);
  }
  return key;
}

// The key of a call (args a tuple, kwargs a dict or None), or None when an argument is not keyed.
nb::object call_key(nb::handle args, nb::handle kwargs) {
  if (!PyTuple_Check(args.ptr())) return nb::none();
  Py_ssize_t n = PyTuple_GET_SIZE(args.ptr());
  std::vector<PyObject*> items(args.ptr() != nullptr ? static_cast<size_t>(n) : 0);
  for (Py_ssize_t i = 0; i < n; ++i)
    items[static_cast<size_t>(i)] = PyTuple_GET_ITEM(args.ptr(), i);
  nb::object names;
  if (kwargs.ptr() != Py_None && PyDict_Check(kwargs.ptr()) && PyDict_GET_SIZE(kwargs.ptr()) > 0) {
    names = nb::steal(PyTuple_New(PyDict_GET_SIZE(kwargs.ptr())));
    if (!names.is_valid()) throw nb::python_error();
    Py_ssize_t pos = 0, i = 0;
    PyObject *name, *value;
    while (PyDict_Next(kwargs.ptr(), &pos, &name, &value)) {
      PyTuple_SET_ITEM(names.ptr(), i++, Py_NewRef(name));
      items.push_back(value);
    }
  }
  PyObject* key = call_key_of(items.data(), n, names.is_valid() ? names.ptr() : nullptr);
  if (key == nullptr) {
    if (PyErr_Occurred()) throw nb::python_error();
    return nb::none();
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
#if PY_VERSION_HEX >= 0x030B0000
    int offset = PyFrame_GetLasti(f);
#else
    int offset = PyFrame_GetLineNumber(f);  // Python 3.10 has no public offset: the line
#endif
    // Keyed first by (code object, instruction offset): a line number is a walk of the code's
    // line table (thousands of instructions), the offset is a field. The code object by address
    // (hashing a code object hashes its constants); the entry holds the code, so the address is
    // not reused while the entry lives. Only sites in the user's code are there, so a frame found
    // there needs no library check.
    auto hit = w.code_sites.find({code, offset});
    if (hit != w.code_sites.end()) {
      Py_DECREF(code);
      Py_DECREF(f);
      return nb::borrow(hit->second);
    }
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
      PyObject* key = Py_BuildValue("(Oi)", file, PyFrame_GetLineNumber(f));
      Py_DECREF(f);
      if (key == nullptr) {
        Py_DECREF(code);
        throw nb::python_error();
      }
      PyObject* site = PyDict_GetItemWithError(w.site_cache, key);  // borrowed
      PyObject* made = site != nullptr    ? Py_NewRef(site)
                       : PyErr_Occurred() ? nullptr
                                          : PyObject_CallObject(w.make_site, key);
      Py_DECREF(key);
      if (made == nullptr) {
        Py_DECREF(code);
        throw nb::python_error();
      }
      // bounded: code made at run time (exec, eval) would otherwise be kept alive without end
      if (w.code_sites.size() >= 65536) w.clear_code_sites();
      w.code_sites.emplace(CodeAt{code, offset}, Py_NewRef(made));  // the entry owns `code`
      return nb::steal(made);
    }
    Py_DECREF(code);
    PyFrameObject* back = PyFrame_GetBack(f);
    Py_DECREF(f);
    f = back;
  }
  return nb::str("<library>");
}

// The fields every call updates of a FunctionRecord (calls, seconds) or reads and updates of a
// self-check twin (thread, memo_hits): _core._WatchHot, whose plain C fields the call path
// writes directly and the Python records read as properties.
struct WatchHot {
  PyObject_HEAD Py_ssize_t calls;
  double seconds;
  Py_ssize_t memo_hits;
  unsigned long thread;
};

PyObject* hot_type() {
  static PyObject* type = [] {
    static PyMemberDef members[] = {
        {"calls", T_PYSSIZET, static_cast<Py_ssize_t>(offsetof(WatchHot, calls)), 0, nullptr},
        {"seconds", T_DOUBLE, static_cast<Py_ssize_t>(offsetof(WatchHot, seconds)), 0, nullptr},
        {"memo_hits", T_PYSSIZET, static_cast<Py_ssize_t>(offsetof(WatchHot, memo_hits)), 0,
         nullptr},
        {"thread", T_ULONG, static_cast<Py_ssize_t>(offsetof(WatchHot, thread)), 0, nullptr},
        {nullptr, 0, 0, 0, nullptr}};
    static PyType_Slot slots[] = {{Py_tp_new, reinterpret_cast<void*>(PyType_GenericNew)},
                                  {Py_tp_members, members},
                                  {0, nullptr}};
    static PyType_Spec spec = {"tfscope._core._WatchHot", static_cast<int>(sizeof(WatchHot)), 0,
                               Py_TPFLAGS_DEFAULT, slots};
    return PyType_FromSpec(&spec);
  }();
  return type;
}

// `v` as a WatchHot, or null when it is not one.
WatchHot* as_hot(PyObject* v) {
  PyObject* type = hot_type();
  return type != nullptr && reinterpret_cast<PyObject*>(Py_TYPE(v)) == type
             ? reinterpret_cast<WatchHot*>(v)
             : nullptr;
}

// Interned attribute names of the call path.
struct Names {
  PyObject *calls, *timeline, *watch_info, *twin_info, *unmodelled_first, *memo, *recorded,
      *first_call, *site, *upto, *selfcheck, *not_modelled, *context, *thread_local_data, *is_eager,
      *in_save_context, *run_eagerly, *context_module, *save_state, *eager_run, *eager_not_saving,
      *call_kind;
};
const Names& names() {
  static const Names n = [] {
    auto s = [](const char* text) { return PyUnicode_InternFromString(text); };
    return Names{s("calls"),
                 s("timeline"),
                 s("_tfscope_watch"),
                 s("_tfscope_twin"),
                 s("unmodelled_first"),
                 s("memo"),
                 s("recorded"),
                 s("first_call"),
                 s("site"),
                 s("upto"),
                 s("selfcheck"),
                 s("not_modelled"),
                 s("_context"),
                 s("_thread_local_data"),
                 s("is_eager"),
                 s("_in_save_context"),
                 s("RUN_FUNCTIONS_EAGERLY"),
                 s("_context_module"),
                 s("_save_state"),
                 s("_eager_run"),
                 s("_eager_not_saving"),
                 s("call")};
  }();
  return n;
}

// A watched call in flight on this thread: its record, call number and site, and its `frame`
// list [record, call number, site, traces made in it, their seconds, traces that raised or
// were refused], made only when a trace asks for it (Session.call_in_flight): a hit never needs
// it. The record and site are borrowed: watched_call holds them while the call is here.
struct InFlight {
  PyObject* rec;
  PyObject* site;
  Py_ssize_t call;
  PyObject* frame;  // owned, or null

  // The frame list (a new reference), or null with the error set.
  PyObject* frame_list() {
    if (frame == nullptr) {
      PyObject* number = PyLong_FromSsize_t(call);
      PyObject* zero = PyLong_FromLong(0);
      PyObject* no_seconds = PyFloat_FromDouble(0.0);
      PyObject* list =
          number != nullptr && zero != nullptr && no_seconds != nullptr ? PyList_New(6) : nullptr;
      if (list != nullptr) {
        PyObject* parts[6] = {rec, number, site, zero, no_seconds, zero};
        for (Py_ssize_t i = 0; i < 6; ++i) PyList_SET_ITEM(list, i, Py_NewRef(parts[i]));
      }
      Py_XDECREF(number);
      Py_XDECREF(zero);
      Py_XDECREF(no_seconds);
      if (list == nullptr) return nullptr;
      frame = list;
    }
    return Py_NewRef(frame);
  }
  // Its frame list's entry i as a whole number (0 when no list was made).
  long counted(Py_ssize_t i) const {
    if (frame == nullptr) return 0;
    long v = PyLong_AsLong(PyList_GET_ITEM(frame, i));
    if (v == -1 && PyErr_Occurred()) PyErr_Clear();
    return v;
  }
};

// The watched calls in flight on this thread, innermost last.
thread_local std::vector<InFlight> in_flight;

double perf_seconds() {  // time.perf_counter()'s clock
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// threading.get_ident() of this thread (borrowed: made once per thread, kept for its life).
PyObject* thread_id() {
  thread_local PyObject* id = nullptr;
  if (id == nullptr) id = PyLong_FromUnsignedLong(PyThread_get_thread_ident());
  return id;
}

// The attributes of one of the watch's own objects (a record, a twin), read through its instance
// dict where the attribute is there: a plain attribute, so the same as getattr, at a dict
// lookup's cost instead of the full attribute protocol. Reads give new references or null, with
// any error cleared: a failure on the hit path is a reason to leave the call to the Python path,
// never the program's error.
class Attrs {
 public:
  explicit Attrs(PyObject* obj) : obj_(obj), dict_(PyObject_GenericGetDict(obj, nullptr)) {
    if (dict_ == nullptr) PyErr_Clear();
  }
  ~Attrs() { Py_XDECREF(dict_); }
  Attrs(const Attrs&) = delete;
  Attrs& operator=(const Attrs&) = delete;

  PyObject* get(PyObject* name) const {
    PyObject* v = dict_ != nullptr ? PyDict_GetItemWithError(dict_, name) : nullptr;
    if (v != nullptr) return Py_NewRef(v);
    v = PyErr_Occurred() ? nullptr : PyObject_GetAttr(obj_, name);
    if (v == nullptr) PyErr_Clear();
    return v;
  }

 private:
  PyObject* obj_;
  PyObject* dict_;
};

// obj.name for TF's objects (module attributes, thread-local state): a new reference or null,
// with the error cleared; a module's own attribute is read from its dict.
PyObject* get(PyObject* obj, PyObject* name) {
  if (PyModule_CheckExact(obj)) {
    PyObject* v = PyDict_GetItemWithError(PyModule_GetDict(obj), name);
    if (v != nullptr) return Py_NewRef(v);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return nullptr;
    }
  }
  PyObject* v = PyObject_GetAttr(obj, name);
  if (v == nullptr) PyErr_Clear();
  return v;
}

// _selfcheck's global `name` (borrowed), or null.
PyObject* selfcheck_global(PyObject* name) {
  PyObject* v = PyDict_GetItemWithError(watch_state().selfcheck, name);
  if (v == nullptr) PyErr_Clear();
  return v;
}

// True once TF's modules the hit memo reads are known (from _selfcheck's globals, set when TF
// is imported; kept from the first time all are there).
bool tf_modules() {
  WatchState& w = watch_state();
  if (w.context_module != nullptr) return true;
  const Names& n = names();
  PyObject* module = selfcheck_global(n.context_module);
  PyObject* saving = selfcheck_global(n.save_state);
  PyObject* run = selfcheck_global(n.eager_run);
  if (module == nullptr || module == Py_None || saving == nullptr || saving == Py_None ||
      run == nullptr || run == Py_None)
    return false;
  w.save_state = Py_NewRef(saving);
  w.eager_run = Py_NewRef(run);
  w.context_module = Py_NewRef(module);
  return true;
}

// True when TF's call returned an EagerTensor (its result, or the first item of a tuple, list or
// dict result): the call ran eagerly, for in a graph (a trace, a tf.Graph) a tf.function's
// tensors are that graph's symbolic ones. It spares the hit memo TF's `is_eager` read (a
// pybind11 property, ~1.9k instructions); a result without a tensor first reads it.
bool returned_eager(PyObject* result) {
  PyObject* eager_type = watch_state().eager_tensor;
  PyObject* first = result;
  if ((PyTuple_CheckExact(result) || PyList_CheckExact(result)) &&
      PySequence_Fast_GET_SIZE(result) > 0) {
    first = PySequence_Fast_GET_ITEM(result, 0);
  } else if (PyDict_CheckExact(result)) {
    Py_ssize_t pos = 0;
    PyObject* name;
    if (!PyDict_Next(result, &pos, &name, &first)) first = result;
  }
  return eager_type != nullptr && reinterpret_cast<PyObject*>(Py_TYPE(first)) == eager_type;
}

// executing_eagerly() and not in_save_context() during the call that returned `result`, read as
// the Python self-check reads them (_selfcheck._eager_not_saving, which is asked where TF's
// internals are not the expected ones); -1 when it cannot tell.
int eager_not_saving(PyObject* result) {
  const Names& n = names();
  WatchState& w = watch_state();
  bool direct = tf_modules();
  bool eager = direct && returned_eager(result);
  nb::object ctx;
  if (direct && !eager) ctx = nb::steal(get(w.context_module, n.context));
  if (!eager && (!ctx.is_valid() || ctx.is_none())) {
    PyObject* f = selfcheck_global(n.eager_not_saving);
    nb::object r = f != nullptr ? nb::steal(PyObject_CallNoArgs(f)) : nb::object();
    int plain = r.is_valid() ? PyObject_IsTrue(r.ptr()) : -1;
    if (plain < 0) PyErr_Clear();
    return plain;
  }
  int plain = 1;
  if (!eager) {
    nb::object local = nb::steal(get(ctx.ptr(), n.thread_local_data));
    nb::object flag = local.is_valid() ? nb::steal(get(local.ptr(), n.is_eager)) : nb::object();
    plain = flag.is_valid() ? PyObject_IsTrue(flag.ptr()) : -1;
    if (plain != 1) {
      if (plain < 0) PyErr_Clear();
      return plain;
    }
  }
  nb::object in_save = nb::steal(get(w.save_state, n.in_save_context));
  plain = in_save.is_valid() ? PyObject_IsTrue(in_save.ptr()) : -1;
  if (plain < 0) {
    PyErr_Clear();
    return -1;
  }
  return plain == 0 ? 1 : 0;
}

// A call as TF's __call__ was given it: vectorcall's layout, the Function first.
struct CallArgs {
  PyObject* const* items;  // fn, the positional values, then the keyword values
  Py_ssize_t nargs;        // positional values, the Function not counted
  PyObject* kwnames;       // null or a tuple of the keywords' names

  PyObject* fn() const { return items[0]; }
  PyObject* const* values() const { return items + 1; }
  // The (args, kwargs) pair the Python side takes, made when it is asked for.
  bool python(nb::object& args, nb::object& kwargs) const {
    args = nb::steal(PyTuple_New(nargs));
    kwargs = nb::steal(PyDict_New());
    if (!args.is_valid() || !kwargs.is_valid()) return false;
    for (Py_ssize_t i = 0; i < nargs; ++i) PyTuple_SET_ITEM(args.ptr(), i, Py_NewRef(items[1 + i]));
    Py_ssize_t nk = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nk; ++i)
      if (PyDict_SetItem(kwargs.ptr(), PyTuple_GET_ITEM(kwnames, i), items[1 + nargs + i]) != 0)
        return false;
    return true;
  }
};

// An entry (session, object, WatchHot) the watch keeps in a Function's instance dict
// (_tfscope_watch: (session, record, index, record's hot fields); _tfscope_twin: (session, twin,
// twin's hot fields)): the object (borrowed) and its hot fields, or nulls when the entry is not
// this session's.
struct Entry {
  PyObject* obj = nullptr;
  WatchHot* hot = nullptr;
};
Entry entry_of(PyObject* fn_dict, PyObject* name, PyObject* session, Py_ssize_t hot_at) {
  PyObject* e = fn_dict != nullptr ? PyDict_GetItemWithError(fn_dict, name) : nullptr;
  if (e == nullptr) {
    PyErr_Clear();
    return {};
  }
  if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) <= hot_at || PyTuple_GET_ITEM(e, 0) != session)
    return {};
  WatchHot* hot = as_hot(PyTuple_GET_ITEM(e, hot_at));
  if (hot == nullptr) return {};
  return {PyTuple_GET_ITEM(e, 1), hot};
}

// The hit memo (the self-check of a call TF answered from its cache with `result`, on thread
// `tid`): true when it compared the call (an agreement) or its first argument's type is not
// modelled, false when the twin must be asked (_hooks._check).
bool observe_hit(PyObject* session, PyObject* fn_dict, const CallArgs& c, PyObject* result,
                 PyObject* rec, Py_ssize_t call, PyObject* site) {
  const Names& n = names();
  WatchState& w = watch_state();
  Entry entry = entry_of(fn_dict, n.twin_info, session, 2);
  if (entry.obj == nullptr || entry.hot->thread != PyThread_get_thread_ident()) return false;
  Attrs twin(entry.obj);
  int plain = eager_not_saving(result);
  if (plain < 0) return false;
  if (c.nargs > 0) {
    nb::object unmodelled = nb::steal(twin.get(n.unmodelled_first));
    if (!unmodelled.is_valid() || !PyDict_Check(unmodelled.ptr())) return false;
    if (PyDict_GET_SIZE(unmodelled.ptr()) > 0) {
      PyObject* why = PyDict_GetItemWithError(unmodelled.ptr(),
                                              reinterpret_cast<PyObject*>(Py_TYPE(c.values()[0])));
      if (why == nullptr && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      if (why != nullptr && plain == 1) {
        // e.g. Keras's step function on its iterator, every step
        nb::object led = nb::steal(Attrs(rec).get(n.selfcheck));
        nb::object counts =
            led.is_valid() ? nb::steal(Attrs(led.ptr()).get(n.not_modelled)) : nb::object();
        if (!counts.is_valid() || !PyDict_Check(counts.ptr())) return false;
        PyObject* was = PyDict_GetItemWithError(counts.ptr(), why);
        long before = was != nullptr ? PyLong_AsLong(was) : 0;
        nb::object now = before >= 0 ? nb::steal(PyLong_FromLong(before + 1)) : nb::object();
        bool ok = now.is_valid() && PyDict_SetItem(counts.ptr(), why, now.ptr()) == 0;
        if (!ok) PyErr_Clear();
        return ok;
      }
    }
  }
  nb::object memo = nb::steal(twin.get(n.memo));
  if (!memo.is_valid() || !PyDict_Check(memo.ptr()) || PyDict_GET_SIZE(memo.ptr()) == 0 ||
      plain != 1 || !tf_modules())
    return false;  // nothing memoized, or in a context the full check decides about
  nb::object eagerly = nb::steal(get(w.eager_run, n.run_eagerly));
  if (!eagerly.is_valid() || PyObject_IsTrue(eagerly.ptr()) != 0) {
    PyErr_Clear();
    return false;  // run eagerly: the full check
  }
  nb::object key = nb::steal(call_key_of(c.values(), c.nargs, c.kwnames));
  if (!key.is_valid()) {
    PyErr_Clear();
    return false;
  }
  PyObject* found = PyDict_GetItemWithError(memo.ptr(), key.ptr());  // borrowed
  if (found == nullptr) {
    PyErr_Clear();
    return false;
  }
  nb::object seen = nb::borrow(found);
  nb::object kept = nb::steal(twin.get(n.calls));
  if (!kept.is_valid() || !PyList_Check(kept.ptr())) return false;
  if (PyList_GET_SIZE(kept.ptr()) < w.calls_kept) {
    nb::object recorded = nb::steal(get(seen.ptr(), n.recorded));
    if (!recorded.is_valid() || PyList_Append(kept.ptr(), recorded.ptr()) != 0) {
      PyErr_Clear();
      return false;
    }
  }
  nb::object first = nb::steal(get(seen.ptr(), n.first_call));
  int repeat = first.is_valid() ? PyObject_IsTrue(first.ptr()) : -1;
  if (repeat == 0) {  // the twin is asked about this repeat at report time (settle)
    nb::object upto = nb::steal(PyLong_FromSsize_t(PyList_GET_SIZE(kept.ptr())));
    nb::object number = nb::steal(PyLong_FromSsize_t(call));
    bool ok = upto.is_valid() && number.is_valid() &&
              PyObject_SetAttr(seen.ptr(), n.first_call, number.ptr()) == 0 &&
              PyObject_SetAttr(seen.ptr(), n.site, site) == 0 &&
              PyObject_SetAttr(seen.ptr(), n.upto, upto.ptr()) == 0;
    if (!ok) {
      PyErr_Clear();
      return false;
    }
  } else if (repeat < 0) {
    PyErr_Clear();
    return false;
  }
  entry.hot->memo_hits += 1;  // compared and agreed, counted in by Ledger.final
  return true;
}

// A Python error held aside while the call's bookkeeping runs, restored after it.
struct HeldError {
#if PY_VERSION_HEX >= 0x030C0000
  PyObject* exc = nullptr;
  void hold() {
    exc = PyErr_GetRaisedException();
  }
  void restore() {
    PyErr_SetRaisedException(exc);
  }
#else
  PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
  void hold() {
    PyErr_Fetch(&type, &value, &tb);
  }
  void restore() {
    PyErr_Restore(type, value, tb);
  }
#endif
};

// A watched call: TF's own __call__ between the watch's bookkeeping. `items`, `nargsf` and
// `kwnames` are vectorcall's, the Function first.
PyObject* watched_call(PyObject* const* items, size_t nargsf, PyObject* kwnames) {
  const Names& n = names();
  WatchState& w = watch_state();
  Py_ssize_t total = PyVectorcall_NARGS(nargsf);
  if (w.orig_call == nullptr || total < 1) {
    PyErr_SetString(PyExc_TypeError, "[watch] the watched __call__ needs its Function");
    return nullptr;
  }
  if (w.session == nullptr || !w.active)
    return PyObject_Vectorcall(w.orig_call, items, nargsf, kwnames);
  nb::object s = nb::borrow(w.session);  // held: the call may stop the watch
  bool self_check = w.self_check;
  double session_t0 = w.t0;
  CallArgs c{items, total - 1, kwnames};
  PyObject* fn = c.fn();
  nb::object fn_dict = nb::steal(PyObject_GenericGetDict(fn, nullptr));
  if (!fn_dict.is_valid()) return nullptr;
  Entry info = entry_of(fn_dict.ptr(), n.watch_info, s.ptr(), 3);
  if (info.obj == nullptr) {
    nb::object made = nb::steal(PyObject_CallFunctionObjArgs(w.registered, s.ptr(), fn, nullptr));
    if (!made.is_valid()) return nullptr;
    info = entry_of(fn_dict.ptr(), n.watch_info, s.ptr(), 3);
    if (info.obj == nullptr) {
      PyErr_SetString(PyExc_RuntimeError, "[watch] a Function registered without its record");
      return nullptr;
    }
  }
  nb::object rec = nb::borrow(info.obj);
  nb::object hot = nb::borrow(reinterpret_cast<PyObject*>(info.hot));
  Py_ssize_t call = ++info.hot->calls;
  nb::object site;
  try {
    site = user_site(0);  // the caller's frame first: the watched __call__ has none of its own
  } catch (nb::python_error& e) {
    e.restore();
    return nullptr;
  }

  in_flight.push_back(InFlight{rec.ptr(), site.ptr(), call, nullptr});
  double t0 = perf_seconds();
  PyObject* result = PyObject_Vectorcall(w.orig_call, items, nargsf, kwnames);
  double dt = perf_seconds() - t0;
  InFlight done = in_flight.back();
  in_flight.pop_back();
  nb::object frame = nb::steal(done.frame);  // owned from here

  HeldError error;
  if (result == nullptr) error.hold();
  long traced = done.counted(3);
  long refused = done.counted(5);
  PyObject* tid = thread_id();
  bool finished = false;
  if (result != nullptr && traced == 0 && tid != nullptr) {
    // a hit: its time, its timeline entry and the hit memo here; a hit the memo does not
    // answer goes to the full self-check
    nb::object timeline = nb::steal(Attrs(rec.ptr()).get(n.timeline));
    if (timeline.is_valid() && PyList_Check(timeline.ptr())) {
      finished = true;
      info.hot->seconds += dt;
      if (PyList_GET_SIZE(timeline.ptr()) < w.timeline_cap) {
        nb::object at = nb::steal(PyFloat_FromDouble(t0 - session_t0));
        nb::object seconds = nb::steal(PyFloat_FromDouble(dt));
        nb::object zero = nb::steal(PyLong_FromLong(0));
        nb::object entry = at.is_valid() && seconds.is_valid() && zero.is_valid()
                               ? nb::steal(PyTuple_Pack(6, at.ptr(), seconds.ptr(), zero.ptr(),
                                                        site.ptr(), tid, Py_False))
                               : nb::object();
        if (!entry.is_valid() || PyList_Append(timeline.ptr(), entry.ptr()) != 0) PyErr_Clear();
      }
      if (self_check && refused == 0 &&
          !observe_hit(s.ptr(), fn_dict.ptr(), c, result, rec.ptr(), call, site.ptr())) {
        nb::object args, kwargs;
        nb::object number = nb::steal(PyLong_FromSsize_t(call));
        nb::object zero = nb::steal(PyLong_FromLong(0));
        nb::object checked =
            number.is_valid() && zero.is_valid() && c.python(args, kwargs)
                ? nb::steal(PyObject_CallFunctionObjArgs(
                      w.check, s.ptr(), fn, rec.ptr(), n.call_kind, args.ptr(), kwargs.ptr(),
                      zero.ptr(), number.ptr(), site.ptr(), Py_True, nullptr))
                : nb::object();
        if (!checked.is_valid()) {
          Py_DECREF(result);
          return nullptr;  // the check's own errors are its ledger's: this one is the watch's bug
        }
      }
    }
    PyErr_Clear();
  }
  if (!finished) {
    // a call that traced or raised: the rest is Python's (_hooks.finish)
    if (!frame.is_valid()) {  // made now; `frame` takes over the reference `done` held
      PyObject* made = done.frame_list();
      frame = nb::steal(made);
      if (made != nullptr) Py_DECREF(done.frame);
    }
    nb::object args, kwargs, start = nb::steal(PyFloat_FromDouble(t0));
    nb::object seconds = nb::steal(PyFloat_FromDouble(dt));
    nb::object done_call =
        frame.is_valid() && tid != nullptr && seconds.is_valid() && start.is_valid() &&
                c.python(args, kwargs)
            ? nb::steal(PyObject_CallFunctionObjArgs(
                  w.finish, s.ptr(), fn, rec.ptr(), frame.ptr(), args.ptr(), kwargs.ptr(),
                  result != nullptr ? Py_True : Py_False, start.ptr(), seconds.ptr(), tid, nullptr))
            : nb::object();
    if (!done_call.is_valid()) {
      if (result == nullptr) {
        PyErr_Clear();
        error.restore();  // TF's error, not the bookkeeping's
        return nullptr;
      }
      Py_DECREF(result);
      return nullptr;
    }
  }
  if (result == nullptr) error.restore();
  return result;
}

// The object the watch puts in place of Function.__call__: a method descriptor whose calls are
// vectorcalls straight into watched_call (no Python frame, no argument tuple or dict).
struct WatchedCallObject {
  PyObject_HEAD vectorcallfunc vectorcall;
};

PyObject* watched_vectorcall(PyObject*, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  return watched_call(args, nargsf, kwnames);
}

PyObject* watched_descr_get(PyObject* self, PyObject* obj, PyObject*) {
  if (obj == nullptr || obj == Py_None) return Py_NewRef(self);
  return PyMethod_New(self, obj);
}

// Its other attributes are TF's __call__'s (__name__, __module__, __qualname__, __wrapped__...):
// AutoGraph, inspect and TF's allowlists look at them and must see TF's method, as without watch.
PyObject* watched_getattro(PyObject* self, PyObject* name) {
  PyObject* v = PyObject_GenericGetAttr(self, name);
  PyObject* orig = watch_state().orig_call;
  if (v != nullptr || orig == nullptr || !PyErr_ExceptionMatches(PyExc_AttributeError)) return v;
  PyErr_Clear();
  return PyObject_GetAttr(orig, name);
}

PyObject* watched_new() {
  static PyObject* type = [] {
    static PyMemberDef members[] = {
        {"__vectorcalloffset__", T_PYSSIZET,
         static_cast<Py_ssize_t>(offsetof(WatchedCallObject, vectorcall)), READONLY, nullptr},
        {nullptr, 0, 0, 0, nullptr}};
    static PyType_Slot slots[] = {{Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
                                  {Py_tp_descr_get, reinterpret_cast<void*>(watched_descr_get)},
                                  {Py_tp_members, members},
                                  {Py_tp_getattro, reinterpret_cast<void*>(watched_getattro)},
                                  {0, nullptr}};
    static PyType_Spec spec = {
        "tfscope._core._WatchedCall", static_cast<int>(sizeof(WatchedCallObject)), 0,
        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR, slots};
    return PyType_FromSpec(&spec);
  }();
  if (type == nullptr) return nullptr;
  PyObject* obj = PyType_GenericAlloc(reinterpret_cast<PyTypeObject*>(type), 0);
  if (obj != nullptr) reinterpret_cast<WatchedCallObject*>(obj)->vectorcall = watched_vectorcall;
  return obj;
}

}  // namespace

void bind_watch(nb::module_& m) {
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
    w.clear_code_sites();  // the sites are the library cache's: made again with it
  });
  m.def("_watch_call_key", &call_key, "args"_a, "kwargs"_a.none());
  m.def("_watch_user_site", &user_site, "skip"_a = 1);
  m.def("_watch_call_setup",
        [](nb::handle orig_call, nb::handle registered, nb::handle finish, nb::handle check,
           nb::handle selfcheck_globals, Py_ssize_t timeline_cap, Py_ssize_t calls_kept) {
          WatchState& w = watch_state();
          keep(w.orig_call, orig_call);
          keep(w.registered, registered);
          keep(w.finish, finish);
          keep(w.check, check);
          keep(w.selfcheck, selfcheck_globals);
          w.timeline_cap = timeline_cap;
          w.calls_kept = calls_kept;
          names();
        });
  m.def(
      "_watch_call_object",
      []() -> nb::object {
        PyObject* o = watched_new();
        if (o == nullptr) throw nb::python_error();
        return nb::steal(o);
      },
      "The object to put in place of TF's Function.__call__ (after _watch_call_setup).");
  m.def(
      "_watch_call_in_flight",
      []() -> nb::object {
        if (in_flight.empty()) return nb::none();
        PyObject* frame = in_flight.back().frame_list();
        if (frame == nullptr) throw nb::python_error();
        return nb::steal(frame);
      },
      "The innermost watched call in flight on this thread: its frame list, or None.");
  m.def(
      "_watch_session",
      [](nb::handle session, double t0, bool self_check, bool active) {
        WatchState& w = watch_state();
        keep(w.session, session.is_none() ? nb::handle() : session);
        w.t0 = t0;
        w.self_check = self_check;
        w.active = active && !session.is_none();
      },
      "session"_a.none(), "t0"_a, "self_check"_a, "active"_a,
      "The session in effect, as the call path reads it (_hooks._in_effect).");
  m.def(
      "_watch_session_active",
      [](nb::handle session, bool active) {
        WatchState& w = watch_state();
        if (w.session != nullptr && w.session == session.ptr()) w.active = active;
      },
      "A session's active flag, for the call path when it is the session in effect.");
  PyObject* hot = hot_type();
  if (hot == nullptr) throw nb::python_error();
  m.attr("_WatchHot") = nb::borrow(hot);
}

}  // namespace tfpy
