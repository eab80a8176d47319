// libFuzzer: Python values built from the input -- None, bools, ints of any size, floats (NaN,
// inf), str (lone surrogates too), bytes, lists, tuples, dicts, sets, nests thousands deep --
// go through the conversions the Python API makes: tfpy::to_value (a tf.function argument's
// trace key) and back, and tfpy::to_tensor (tf.constant, with and without a dtype). Each must
// return or raise a Python exception; a crash, a stack overflow, or internal text (std::bad_cast,
// nanobind's cast errors) is a finding.
#include <Python.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "convert.h"

extern "C" PyObject* PyInit__core();

extern "C" const char* __asan_default_options() {
  return "detect_leaks=0";  // the interpreter keeps what it allocated until exit
}

namespace {

// Reads the input as a small stack machine that builds objects.
class Builder {
 public:
  Builder(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  ~Builder() {
    for (PyObject* o : stack_) Py_DECREF(o);
  }

  // The last object built (a new reference), or None.
  PyObject* run() {
    while (p_ < end_ && stack_.size() < 64) step(next());
    if (stack_.empty()) Py_RETURN_NONE;
    PyObject* top = stack_.back();
    stack_.pop_back();
    return top;
  }

 private:
  uint8_t next() { return p_ < end_ ? *p_++ : 0; }
  void push(PyObject* o) {
    if (o) {
      stack_.push_back(o);
    } else {
      PyErr_Clear();
    }
  }
  std::vector<PyObject*> pop(size_t k) {
    k = std::min(k, stack_.size());
    std::vector<PyObject*> out(stack_.end() - static_cast<long>(k), stack_.end());
    stack_.resize(stack_.size() - k);
    return out;
  }
  template <typename Make>
  void collect(size_t k, Make make) {
    std::vector<PyObject*> items = pop(k);
    PyObject* c = make(items.size());
    for (size_t i = 0; c && i < items.size(); ++i) {
      if (PyList_Check(c)) {
        PyList_SET_ITEM(c, static_cast<Py_ssize_t>(i), items[i]);
        items[i] = nullptr;
      } else if (PyTuple_Check(c)) {
        PyTuple_SET_ITEM(c, static_cast<Py_ssize_t>(i), items[i]);
        items[i] = nullptr;
      }
    }
    for (PyObject* o : items) Py_XDECREF(o);
    push(c);
  }

  void step(uint8_t op) {
    switch (op % 14) {
      case 0: Py_INCREF(Py_None); push(Py_None); break;
      case 1: push(PyBool_FromLong(next() & 1)); break;
      case 2: push(PyLong_FromLong(static_cast<int8_t>(next()))); break;
      case 3: {  // an int around 2**k, k up to 255: past int32, int64, uint64
        PyObject* one = PyLong_FromLong((next() & 1) ? -1 : 1);
        PyObject* k = PyLong_FromLong(next());
        push(one && k ? PyNumber_Lshift(one, k) : nullptr);
        Py_XDECREF(one);
        Py_XDECREF(k);
        break;
      }
      case 4: {
        double d = 0;
        uint8_t b[8];
        for (auto& x : b) x = next();
        std::memcpy(&d, b, sizeof d);
        push(PyFloat_FromDouble(d));
        break;
      }
      case 5: {  // str from UTF-8 bytes, undecodable ones as lone surrogates
        const size_t n = std::min<size_t>(next() % 16, static_cast<size_t>(end_ - p_));
        push(PyUnicode_DecodeUTF8(reinterpret_cast<const char*>(p_), static_cast<Py_ssize_t>(n),
                                  "surrogateescape"));
        p_ += n;
        break;
      }
      case 6: {
        const size_t n = std::min<size_t>(next() % 16, static_cast<size_t>(end_ - p_));
        push(PyBytes_FromStringAndSize(reinterpret_cast<const char*>(p_),
                                       static_cast<Py_ssize_t>(n)));
        p_ += n;
        break;
      }
      case 7: collect(next() % 6, [](size_t n) { return PyList_New(static_cast<Py_ssize_t>(n)); }); break;
      case 8: collect(next() % 6, [](size_t n) { return PyTuple_New(static_cast<Py_ssize_t>(n)); }); break;
      case 9: {  // a dict of the top pairs (unhashable keys are skipped)
        std::vector<PyObject*> items = pop(2 * (next() % 4));
        PyObject* d = PyDict_New();
        for (size_t i = 0; d && i + 1 < items.size(); i += 2)
          if (PyDict_SetItem(d, items[i], items[i + 1]) != 0) PyErr_Clear();
        for (PyObject* o : items) Py_DECREF(o);
        push(d);
        break;
      }
      case 10: {  // a nest up to 65535 deep around the top
        if (stack_.empty()) break;
        const int depth = next() << 8 | next();
        const bool tuple = depth & 1;
        PyObject* o = stack_.back();
        stack_.pop_back();
        for (int i = 0; o && i < depth; ++i) {
          PyObject* c = tuple ? PyTuple_New(1) : PyList_New(1);
          if (!c) {
            Py_DECREF(o);
            o = nullptr;
            break;
          }
          if (tuple) PyTuple_SET_ITEM(c, 0, o);
          else PyList_SET_ITEM(c, 0, o);
          o = c;
        }
        push(o);
        break;
      }
      case 11: {
        std::vector<PyObject*> items = pop(next() % 4);
        PyObject* s = PySet_New(nullptr);
        for (PyObject* o : items) {
          if (s && PySet_Add(s, o) != 0) PyErr_Clear();
          Py_DECREF(o);
        }
        push(s);
        break;
      }
      case 12: push(PyComplex_FromDoubles(static_cast<int8_t>(next()), static_cast<int8_t>(next()))); break;
      case 13:
        if (!stack_.empty()) {
          Py_INCREF(stack_.back());
          push(stack_.back());
        }
        break;
    }
  }

  const uint8_t* p_;
  const uint8_t* end_;
  std::vector<PyObject*> stack_;
};

// Internal text must never reach a user: nanobind's cast errors, C++ exception names. A pattern
// the input itself spells (a str 'std::', which TF's message quotes back) is not internal text.
std::string g_input_text;

void check_message(const std::string& what) {
  for (const char* pattern : {"std::", "bad_cast", "nanobind"}) {
    if (what.find(pattern) == std::string::npos) continue;
    if (g_input_text.find(pattern) != std::string::npos) continue;
    std::fprintf(stderr, "internal text reached the user: %s\n", what.c_str());
    std::abort();
  }
}

// The input's repr, for check_message (empty where repr itself fails, e.g. too deep).
std::string repr_text(PyObject* o) {
  std::string out;
  if (PyObject* r = PyObject_Repr(o)) {
    Py_ssize_t n = 0;
    if (const char* c = PyUnicode_AsUTF8AndSize(r, &n)) out.assign(c, static_cast<size_t>(n));
    Py_DECREF(r);
  }
  PyErr_Clear();
  return out;
}

template <typename F>
void guarded(F f) {
  try {
    f();
  } catch (nb::python_error& e) {
    check_message(e.what());
  } catch (const nb::builtin_exception& e) {
    check_message(e.what());
  } catch (const tfs::Error& e) {
    check_message(e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "C++ exception reached the binding: %s\n", e.what());
    std::abort();
  }
  PyErr_Clear();
}

const tfs::DType kDtypes[] = {tfs::DType::kInvalid, tfs::DType::kFloat32, tfs::DType::kInt32,
                              tfs::DType::kInt64,   tfs::DType::kBool,    tfs::DType::kString,
                              tfs::DType::kFloat64};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  PyImport_AppendInittab("tfscope._core", &PyInit__core);
  Py_InitializeEx(0);
  PyObject* path = PySys_GetObject("path");  // borrowed
  for (const char* dir : {TFSCOPE_PYTHON_DIR, TFSCOPE_NUMPY_SITE}) {
    PyObject* s = PyUnicode_FromString(dir);
    PyList_Insert(path, 0, s);
    Py_DECREF(s);
  }
  // The package registers its classes (TensorSpec, dtypes, numpy) with the module it imports.
  PyObject* pkg = PyImport_ImportModule("tfscope");
  if (!pkg) {
    PyErr_Print();
    std::abort();
  }
  Py_DECREF(pkg);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const tfs::DType dtype = kDtypes[data[0] % 7];
  Builder b(data + 1, size - 1);
  nb::object obj = nb::steal(b.run());
  g_input_text = repr_text(obj.ptr());
  guarded([&] {
    tfs::Value v = tfpy::to_value(obj);
    nb::object back = tfpy::from_value(v);
    (void)back;
  });
  guarded([&] {
    tfs::Tensor t = tfpy::to_tensor(obj, dtype);
    volatile int64_t n = t.num_elements();
    (void)n;
  });
  return 0;
}
