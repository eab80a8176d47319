// The watch's per-call work (python/tfscope/watch) in C++: a real tf.function call runs through
// here (_watch_call, from the hook's __call__), so a call TF answers from its cache costs no
// Python of the watch's own. The hit memo's key of a call's arguments and the call site in the
// user's code are here too; what a trace, a failure or an unmemoized call needs is left to the
// Python the call path hands it to (_hooks.finish, _hooks._check).
#include <Python.h>
#include <pythread.h>
#include <time.h>

#include <cstring>
#include <vector>

#include "convert.h"

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
  // The call path (_watch_call_setup)
  PyObject* hooks_state = nullptr;  // _hooks._state: its "session", the watch in effect
  PyObject* orig_call = nullptr;    // TF's Function.__call__
  PyObject* registered = nullptr;   // (session, fn) -> FunctionRecord, on a Function's first call
  PyObject* finish = nullptr;       // the rest of a call that traced or raised (_hooks.finish)
  PyObject* check = nullptr;        // the self-check of a call the hit memo did not answer
  PyObject* selfcheck = nullptr;    // _selfcheck's globals: TF's modules it reads, once imported
  Py_ssize_t timeline_cap = 0;
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

// Interned attribute names of the call path.
struct Names {
  PyObject *session, *active, *self_check, *t0, *calls, *call_seconds, *timeline, *watch_info,
      *twin_info, *thread, *unmodelled_first, *memo, *memo_hits, *recorded, *first_call, *site,
      *upto, *selfcheck, *not_modelled, *context, *thread_local_data, *is_eager, *in_save_context,
      *run_eagerly, *context_module, *save_state, *eager_run, *eager_not_saving, *call_kind;
};
const Names& names() {
  static const Names n = [] {
    auto s = [](const char* text) { return PyUnicode_InternFromString(text); };
    return Names{s("session"),
                 s("active"),
                 s("self_check"),
                 s("t0"),
                 s("calls"),
                 s("call_seconds"),
                 s("timeline"),
                 s("_tfscope_watch"),
                 s("_tfscope_twin"),
                 s("thread"),
                 s("unmodelled_first"),
                 s("memo"),
                 s("memo_hits"),
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

// The watched calls in flight on this thread, innermost last: each its `frame` list
// [record, call number, site, traces made in it, their seconds, traces that raised or were
// refused], which a trace finds as the call it belongs to (Session.call_in_flight). Borrowed:
// _watch_call holds each while it is here.
thread_local std::vector<PyObject*> in_flight;

double perf_seconds() {  // time.perf_counter()'s clock
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// obj.name, a new reference or null with the error cleared (the hit path's reads: a failure is
// a reason to leave the call to the Python path, never the program's error).
PyObject* get(PyObject* obj, PyObject* name) {
  PyObject* v = PyObject_GetAttr(obj, name);
  if (v == nullptr) PyErr_Clear();
  return v;
}

// obj.name += delta (an int or a float attribute); false when it could not.
bool add_to(PyObject* obj, PyObject* name, PyObject* delta) {
  PyObject* v = get(obj, name);
  if (v == nullptr) return false;
  PyObject* sum = PyNumber_Add(v, delta);
  Py_DECREF(v);
  bool ok = sum != nullptr && PyObject_SetAttr(obj, name, sum) == 0;
  Py_XDECREF(sum);
  if (!ok) PyErr_Clear();
  return ok;
}

bool add_int(PyObject* obj, PyObject* name, long delta) {
  PyObject* d = PyLong_FromLong(delta);
  bool ok = d != nullptr && add_to(obj, name, d);
  Py_XDECREF(d);
  return ok;
}

// The value under `key` in obj's __dict__ (borrowed from the dict, which the caller keeps alive
// through obj), or null.
PyObject* instance_entry(PyObject* obj, PyObject* key) {
  PyObject* d = PyObject_GenericGetDict(obj, nullptr);
  if (d == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject* v = PyDict_GetItemWithError(d, key);
  Py_DECREF(d);  // the instance holds the dict
  if (v == nullptr) PyErr_Clear();
  return v;
}

// executing_eagerly() and not in_save_context(), read as the Python self-check reads them; -1
// when it cannot tell.
int eager_not_saving() {
  const Names& n = names();
  WatchState& w = watch_state();
  PyObject* module = PyDict_GetItemWithError(w.selfcheck, n.context_module);  // borrowed
  PyObject* saving = PyDict_GetItemWithError(w.selfcheck, n.save_state);
  if (module == nullptr || module == Py_None || saving == nullptr) {
    PyErr_Clear();
    PyObject* f = PyDict_GetItemWithError(w.selfcheck, n.eager_not_saving);
    PyObject* r = f != nullptr ? PyObject_CallNoArgs(f) : nullptr;
    int plain = r != nullptr ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    if (plain < 0) PyErr_Clear();
    return plain;
  }
  PyObject* ctx = get(module, n.context);
  if (ctx == nullptr) return -1;
  if (ctx == Py_None) {
    Py_DECREF(ctx);
    PyObject* f = PyDict_GetItemWithError(w.selfcheck, n.eager_not_saving);
    PyObject* r = f != nullptr ? PyObject_CallNoArgs(f) : nullptr;
    int plain = r != nullptr ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    if (plain < 0) PyErr_Clear();
    return plain;
  }
  PyObject* local = get(ctx, n.thread_local_data);
  Py_DECREF(ctx);
  PyObject* eager = local != nullptr ? get(local, n.is_eager) : nullptr;
  Py_XDECREF(local);
  int plain = eager != nullptr ? PyObject_IsTrue(eager) : -1;
  Py_XDECREF(eager);
  if (plain != 1) {
    if (plain < 0) PyErr_Clear();
    return plain;
  }
  PyObject* in_save = get(saving, n.in_save_context);
  plain = in_save != nullptr ? PyObject_IsTrue(in_save) : -1;
  Py_XDECREF(in_save);
  if (plain < 0) {
    PyErr_Clear();
    return -1;
  }
  return plain == 0 ? 1 : 0;
}

// The hit memo (the self-check of a call TF answered from its cache, thread `tid`): true when it
// compared the call (an agreement) or its first argument's type is not modelled, false when the
// twin must be asked (_hooks._check).
bool observe_hit(PyObject* session, PyObject* fn, PyObject* rec, PyObject* args, PyObject* kwds,
                 PyObject* tid, PyObject* call, PyObject* site) {
  const Names& n = names();
  WatchState& w = watch_state();
  PyObject* entry = instance_entry(fn, n.twin_info);  // (session, twin)
  if (entry == nullptr || !PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) < 2 ||
      PyTuple_GET_ITEM(entry, 0) != session)
    return false;
  PyObject* twin = PyTuple_GET_ITEM(entry, 1);
  nb::object thread = nb::steal(get(twin, n.thread));
  if (!thread.is_valid()) return false;
  int same = PyObject_RichCompareBool(thread.ptr(), tid, Py_EQ);
  if (same != 1) {
    if (same < 0) PyErr_Clear();
    return false;
  }
  int plain = eager_not_saving();
  if (plain < 0) return false;
  if (PyTuple_GET_SIZE(args) > 0) {
    nb::object unmodelled = nb::steal(get(twin, n.unmodelled_first));
    if (!unmodelled.is_valid() || !PyDict_Check(unmodelled.ptr())) return false;
    if (PyDict_GET_SIZE(unmodelled.ptr()) > 0) {
      PyObject* why = PyDict_GetItemWithError(
          unmodelled.ptr(), reinterpret_cast<PyObject*>(Py_TYPE(PyTuple_GET_ITEM(args, 0))));
      if (why == nullptr && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      if (why != nullptr && plain == 1) {
        // e.g. Keras's step function on its iterator, every step
        nb::object led = nb::steal(get(rec, n.selfcheck));
        nb::object counts =
            led.is_valid() ? nb::steal(get(led.ptr(), n.not_modelled)) : nb::object();
        if (!counts.is_valid() || !PyDict_Check(counts.ptr())) return false;
        PyObject* was = PyDict_GetItemWithError(counts.ptr(), why);
        long before = was != nullptr ? PyLong_AsLong(was) : 0;
        PyObject* now = before >= 0 ? PyLong_FromLong(before + 1) : nullptr;
        bool ok = now != nullptr && PyDict_SetItem(counts.ptr(), why, now) == 0;
        Py_XDECREF(now);
        if (!ok) PyErr_Clear();
        return ok;
      }
    }
  }
  nb::object memo = nb::steal(get(twin, n.memo));
  if (!memo.is_valid() || !PyDict_Check(memo.ptr()) || PyDict_GET_SIZE(memo.ptr()) == 0 ||
      plain != 1)
    return false;  // nothing memoized, or in a context the full check decides about
  PyObject* run = PyDict_GetItemWithError(w.selfcheck, n.eager_run);
  nb::object eagerly = run != nullptr ? nb::steal(get(run, n.run_eagerly)) : nb::object();
  if (!eagerly.is_valid() || PyObject_IsTrue(eagerly.ptr()) != 0) {
    PyErr_Clear();
    return false;  // run eagerly: the full check
  }
  nb::object key;
  try {
    key = call_key(args, kwds);
  } catch (nb::python_error& e) {
    return false;
  }
  if (key.is_none()) return false;
  PyObject* seen = PyDict_GetItemWithError(memo.ptr(), key.ptr());  // borrowed
  if (seen == nullptr) {
    PyErr_Clear();
    return false;
  }
  nb::object keep_seen = nb::borrow(seen);
  nb::object kept = nb::steal(get(twin, n.calls));
  if (!kept.is_valid() || !PyList_Check(kept.ptr())) return false;
  if (PyList_GET_SIZE(kept.ptr()) < w.calls_kept) {
    nb::object recorded = nb::steal(get(seen, n.recorded));
    if (!recorded.is_valid() || PyList_Append(kept.ptr(), recorded.ptr()) != 0) {
      PyErr_Clear();
      return false;
    }
  }
  nb::object first = nb::steal(get(seen, n.first_call));
  if (!first.is_valid()) return false;
  int repeat = PyObject_IsTrue(first.ptr());
  if (repeat == 0) {  // the twin is asked about this repeat at report time (settle)
    PyObject* upto = PyLong_FromSsize_t(PyList_GET_SIZE(kept.ptr()));
    bool ok = upto != nullptr && PyObject_SetAttr(seen, n.first_call, call) == 0 &&
              PyObject_SetAttr(seen, n.site, site) == 0 &&
              PyObject_SetAttr(seen, n.upto, upto) == 0;
    Py_XDECREF(upto);
    if (!ok) {
      PyErr_Clear();
      return false;
    }
  } else if (repeat < 0) {
    PyErr_Clear();
    return false;
  }
  return add_int(twin, n.memo_hits, 1);  // compared and agreed, counted in by Ledger.final
}

// TF's own call, fn(*args, **kwds): a new reference or null with TF's error set.
PyObject* call_original(PyObject* fn, PyObject* args, PyObject* kwds) {
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  std::vector<PyObject*> stack(static_cast<size_t>(n) + 1);
  stack[0] = fn;
  for (Py_ssize_t i = 0; i < n; ++i) stack[static_cast<size_t>(i) + 1] = PyTuple_GET_ITEM(args, i);
  PyObject* kw =
      kwds != nullptr && PyDict_Check(kwds) && PyDict_GET_SIZE(kwds) > 0 ? kwds : nullptr;
  return PyObject_VectorcallDict(watch_state().orig_call, stack.data(), static_cast<size_t>(n) + 1,
                                 kw);
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

// A watched call: TF's own __call__ between the watch's bookkeeping (what _hooks' __call__ did).
PyObject* watch_call(PyObject* fn, PyObject* args, PyObject* kwds) {
  const Names& n = names();
  WatchState& w = watch_state();
  PyObject* session = w.hooks_state != nullptr
                          ? PyDict_GetItemWithError(w.hooks_state, n.session)  // borrowed
                          : nullptr;
  if (session == nullptr && PyErr_Occurred()) return nullptr;
  int active = 0;
  if (session != nullptr && session != Py_None) {
    PyObject* a = PyObject_GetAttr(session, n.active);
    if (a == nullptr) return nullptr;
    active = PyObject_IsTrue(a);
    Py_DECREF(a);
    if (active < 0) return nullptr;
  }
  if (!active) return call_original(fn, args, kwds);
  nb::object s = nb::borrow(session);                 // held: the call may stop the watch
  PyObject* info = instance_entry(fn, n.watch_info);  // (session, record, object index)
  nb::object rec;
  if (info != nullptr && PyTuple_Check(info) && PyTuple_GET_SIZE(info) >= 2 &&
      PyTuple_GET_ITEM(info, 0) == session) {
    rec = nb::borrow(PyTuple_GET_ITEM(info, 1));
  } else {
    rec = nb::steal(PyObject_CallFunctionObjArgs(w.registered, session, fn, nullptr));
    if (!rec.is_valid()) return nullptr;
  }
  if (!add_int(rec.ptr(), n.calls, 1)) {
    PyErr_SetString(PyExc_RuntimeError, "[watch] a FunctionRecord without its call count");
    return nullptr;
  }
  nb::object call = nb::steal(PyObject_GetAttr(rec.ptr(), n.calls));
  if (!call.is_valid()) return nullptr;
  nb::object site;
  try {
    site = user_site(1);  // the hook's __call__ frame is the innermost Python one
  } catch (nb::python_error& e) {
    e.restore();
    return nullptr;
  }
  nb::object frame = nb::steal(PyList_New(6));
  if (!frame.is_valid()) return nullptr;
  PyObject* zero = PyLong_FromLong(0);
  PyObject* no_seconds = PyFloat_FromDouble(0.0);
  PyObject* zero2 = PyLong_FromLong(0);
  if (zero == nullptr || no_seconds == nullptr || zero2 == nullptr) {
    Py_XDECREF(zero);
    Py_XDECREF(no_seconds);
    Py_XDECREF(zero2);
    return nullptr;
  }
  PyList_SET_ITEM(frame.ptr(), 0, rec.inc_ref().ptr());
  PyList_SET_ITEM(frame.ptr(), 1, call.inc_ref().ptr());
  PyList_SET_ITEM(frame.ptr(), 2, site.inc_ref().ptr());
  PyList_SET_ITEM(frame.ptr(), 3, zero);
  PyList_SET_ITEM(frame.ptr(), 4, no_seconds);
  PyList_SET_ITEM(frame.ptr(), 5, zero2);

  in_flight.push_back(frame.ptr());
  double t0 = perf_seconds();
  PyObject* result = call_original(fn, args, kwds);
  double dt = perf_seconds() - t0;
  in_flight.pop_back();

  HeldError error;
  if (result == nullptr) error.hold();
  long traced = PyLong_AsLong(PyList_GET_ITEM(frame.ptr(), 3));
  long refused = PyLong_AsLong(PyList_GET_ITEM(frame.ptr(), 5));
  if (PyErr_Occurred()) PyErr_Clear();
  nb::object tid = nb::steal(PyLong_FromUnsignedLong(PyThread_get_thread_ident()));
  nb::object start = nb::steal(PyFloat_FromDouble(t0));
  nb::object seconds = nb::steal(PyFloat_FromDouble(dt));
  PyObject* ok = result != nullptr ? Py_True : Py_False;
  bool finished = false;
  if (result != nullptr && traced == 0 && tid.is_valid() && start.is_valid() &&
      seconds.is_valid()) {
    // a hit: its time, its timeline entry and the hit memo here; a hit the memo does not
    // answer goes to the full self-check
    nb::object session_t0 = nb::steal(get(s.ptr(), n.t0));
    nb::object timeline = nb::steal(get(rec.ptr(), n.timeline));
    nb::object self_check = nb::steal(get(s.ptr(), n.self_check));
    if (session_t0.is_valid() && timeline.is_valid() && PyList_Check(timeline.ptr()) &&
        self_check.is_valid() && add_to(rec.ptr(), n.call_seconds, seconds.ptr())) {
      finished = true;
      if (PyList_GET_SIZE(timeline.ptr()) < w.timeline_cap) {
        PyObject* at = PyFloat_FromDouble(t0 - PyFloat_AsDouble(session_t0.ptr()));
        PyObject* none_traced = PyLong_FromLong(0);
        PyObject* entry =
            at != nullptr && none_traced != nullptr
                ? PyTuple_Pack(6, at, seconds.ptr(), none_traced, site.ptr(), tid.ptr(), Py_False)
                : nullptr;
        Py_XDECREF(at);
        Py_XDECREF(none_traced);
        if (entry == nullptr || PyList_Append(timeline.ptr(), entry) != 0) PyErr_Clear();
        Py_XDECREF(entry);
      }
      if (PyObject_IsTrue(self_check.ptr()) == 1 && refused == 0 &&
          !observe_hit(s.ptr(), fn, rec.ptr(), args, kwds, tid.ptr(), call.ptr(), site.ptr())) {
        PyObject* none_traced = PyLong_FromLong(0);
        PyObject* r = none_traced != nullptr
                          ? PyObject_CallFunctionObjArgs(w.check, s.ptr(), fn, rec.ptr(),
                                                         n.call_kind, args, kwds, none_traced,
                                                         call.ptr(), site.ptr(), Py_True, nullptr)
                          : nullptr;
        Py_XDECREF(none_traced);
        if (r == nullptr) {
          Py_DECREF(result);
          return nullptr;  // the check's own errors are its ledger's; this is the watch's bug
        }
        Py_DECREF(r);
      }
    }
    PyErr_Clear();
  }
  if (!finished) {
    PyObject* r =
        tid.is_valid() && start.is_valid() && seconds.is_valid()
            ? PyObject_CallFunctionObjArgs(w.finish, s.ptr(), fn, rec.ptr(), frame.ptr(), args,
                                           kwds, ok, start.ptr(), seconds.ptr(), tid.ptr(), nullptr)
            : nullptr;
    if (r == nullptr) {
      if (result == nullptr) {
        PyErr_Clear();
        error.restore();  // TF's error, not the bookkeeping's
        return nullptr;
      }
      Py_DECREF(result);
      return nullptr;
    }
    Py_DECREF(r);
  }
  if (result == nullptr) error.restore();
  return result;
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
    PyObject* fresh = PyDict_New();  // the sites are the library cache's: made again with it
    if (fresh == nullptr) throw nb::python_error();
    Py_XDECREF(w.code_site_cache);
    w.code_site_cache = fresh;
  });
  m.def("_watch_call_key", &call_key, "args"_a, "kwargs"_a.none());
  m.def("_watch_user_site", &user_site, "skip"_a = 1);
  m.def("_watch_call_setup", [](nb::handle hooks_state, nb::handle orig_call, nb::handle registered,
                                nb::handle finish, nb::handle check, nb::handle selfcheck_globals,
                                Py_ssize_t timeline_cap, Py_ssize_t calls_kept) {
    WatchState& w = watch_state();
    keep(w.hooks_state, hooks_state);
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
      "_watch_call",
      [](nb::handle fn, nb::handle args, nb::handle kwargs) -> nb::object {
        WatchState& w = watch_state();
        if (w.orig_call == nullptr || !PyTuple_Check(args.ptr()) || !PyDict_Check(kwargs.ptr()))
          throw nb::type_error("[watch] _watch_call(fn, args tuple, kwargs dict) after setup");
        PyObject* r = watch_call(fn.ptr(), args.ptr(), kwargs.ptr());
        if (r == nullptr) throw nb::python_error();
        return nb::steal(r);
      },
      "fn"_a, "args"_a, "kwargs"_a);
  m.def("_watch_call_in_flight", []() -> nb::object {
    return in_flight.empty() ? nb::none() : nb::borrow(in_flight.back());
  });
}

}  // namespace tfpy
