// The module model's queries: dotted-path resolution through the imports, callee lookup, and
// what kind of value an expression gives inside a traced body.
#include <algorithm>
#include <set>

#include "model.h"

namespace tfs::lint::detail {

std::string canonical_path(std::string p) {
  if (p.empty() || (p[0] != 't' && p[0] != 'k')) return p;
  auto starts = [&](std::string_view pre) {
    return p.compare(0, pre.size(), pre) == 0 && (p.size() == pre.size() || p[pre.size()] == '.');
  };
  auto swap_prefix = [&](std::string_view pre, std::string_view with) {
    if (starts(pre)) p = std::string(with) + p.substr(pre.size());
  };
  swap_prefix("tfscope", "tensorflow");
  swap_prefix("tensorflow.compat.v2", "tensorflow");
  swap_prefix("tensorflow.keras", "keras");
  swap_prefix("tensorflow.python.keras", "keras");
  swap_prefix("tf_keras", "keras");
  swap_prefix("tensorflow.python.eager.def_function", "tensorflow");
  swap_prefix("tensorflow.python.eager.polymorphic_function.polymorphic_function", "tensorflow");
  swap_prefix("keras.src.models", "keras.models");
  return p;
}

namespace {

// Defaults for the usual aliases when a snippet uses them without importing (rare in files, but
// common in notebooks turned into scripts).
const char* default_alias(const std::string& id) {
  if (id == "tf") return "tensorflow";
  if (id == "np") return "numpy";
  return nullptr;
}

// What a tf.* call returns: tensors, except for the API that builds specs, shapes, dtypes,
// datasets, modules and options.
Kind tf_api_kind(const std::string& path) {
  std::string rest = path.substr(std::string("tensorflow.").size());
  if (rest.compare(0, 7, "python.") == 0) return Kind::Unknown;  // TF's internals: no public API
  static const std::set<std::string> python = {"TensorShape",
                                               "TensorSpec",
                                               "as_dtype",
                                               "executing_eagerly",
                                               "is_tensor",
                                               "get_static_value",
                                               "function",
                                               "DType",
                                               "name_scope",
                                               "device",
                                               "init_scope",
                                               "control_dependencies",
                                               "GradientTape",
                                               "TensorArraySpec",
                                               "RaggedTensorSpec",
                                               "SparseTensorSpec",
                                               "constant_initializer",
                                               "zeros_initializer",
                                               "ones_initializer",
                                               "print"};
  if (python.count(rest)) return Kind::Python;
  static const char* const unknown_prefixes[] = {"dtypes.",
                                                 "config.",
                                                 "distribute.",
                                                 "data.",
                                                 "nest.",
                                                 "summary.",
                                                 "io.gfile.",
                                                 "saved_model.",
                                                 "lite.",
                                                 "train.",
                                                 "experimental.",
                                                 "autograph.",
                                                 "keras.",
                                                 "compat.",
                                                 "sysconfig.",
                                                 "test.",
                                                 "types.",
                                                 "errors.",
                                                 "random.Generator",
                                                 "Module",
                                                 "TensorArray",
                                                 "feature_column.",
                                                 "estimator.",
                                                 "queue.",
                                                 "lookup.",
                                                 "initializers.",
                                                 "tpu.",
                                                 "mixed_precision.",
                                                 "version."};
  for (const char* p : unknown_prefixes)
    if (rest.compare(0, std::char_traits<char>::length(p), p) == 0) return Kind::Unknown;
  std::string last = rest.substr(rest.rfind('.') + 1);
  if (!last.empty() && std::isupper(static_cast<unsigned char>(last[0])) && last != "Variable" &&
      last != "SparseTensor" && last != "RaggedTensor")
    return Kind::Unknown;
  return Kind::Tensor;
}

}  // namespace

// ---------------------------------------------------------------- Module queries

std::string Module::resolve(const P& e) const {
  if (!e) return "";
  // the chain's root name, then its attribute names (innermost last)
  const Node* n = e.get();
  const Node* attrs[64];
  int depth = 0;
  while (n->kind == K::Attribute) {
    if (depth == 64) return "";
    attrs[depth++] = n;
    n = n->a.get();
  }
  if (n->kind != K::Name) return "";
  const std::string* root = nullptr;
  std::string fallback;
  auto it = imports.find(n->s);
  if (it != imports.end()) {
    root = &it->second;
  } else if (const char* d = default_alias(n->s)) {
    if (top_fns.count(n->s) || top_assigns.count(n->s)) return "";
    fallback = d;
    root = &fallback;
  } else {
    return "";
  }
  if (depth == 0) return *root;
  std::string path = *root;
  for (int i = depth - 1; i >= 0; --i) {
    path += '.';
    path += attrs[i]->s;
  }
  return canonical_path(std::move(path));
}

FnInfo* Module::callee(const P& func, const FnInfo* scope) const {
  if (!func) return nullptr;
  if (func->kind == K::Name) {
    for (const FnInfo* s = scope; s; s = s->parent) {
      auto it = s->nested.find(func->s);
      if (it != s->nested.end()) return it->second;
      if (s->locals.count(func->s) && !s->globals.count(func->s)) return nullptr;
    }
    auto it = top_fns.find(func->s);
    if (it != top_fns.end()) return it->second;
    auto al = tf_aliases.find(func->s);
    return al == tf_aliases.end() ? nullptr : al->second;
  }
  if (func->kind == K::Attribute && func->a->kind == K::Name) {
    // self.m(...) inside a method
    const FnInfo* m = scope;
    while (m && !m->cls) m = m->parent;
    // obj.m(...) where obj = SomeClass(...) at module level
    if (!m || func->a->s != self_name(*m)) {
      auto a = top_assigns.find(func->a->s);
      bool shadowed = scope && scope->locals.count(func->a->s);
      if (!shadowed && a != top_assigns.end() && a->second.size() == 1 &&
          a->second[0]->kind == K::Call && a->second[0]->a->kind == K::Name) {
        auto c = top_classes.find(a->second[0]->a->s);
        if (c != top_classes.end()) {
          auto it = c->second->methods.find(func->s);
          if (it != c->second->methods.end()) return it->second;
        }
      }
    }
    if (m && func->a->s == self_name(*m)) {
      auto it = m->cls->methods.find(func->s);
      if (it != m->cls->methods.end()) return it->second;
      auto ca = tf_attr_aliases.find(m->cls);
      if (ca != tf_attr_aliases.end()) {
        auto a = ca->second.find(func->s);
        if (a != ca->second.end()) return a->second;
      }
    }
  }
  return nullptr;
}

FnInfo* Module::tf_callee(const P& func, const FnInfo* scope) const {
  FnInfo* f = callee(func, scope);
  return f && f->tf_function ? f : nullptr;
}

Kind Module::kind_of(const P& e, const FnInfo* scope) const {
  if (!e) return Kind::Unknown;
  switch (e->kind) {
    case K::Constant:
    case K::JoinedStr:
      return Kind::Python;
    case K::List:
    case K::Tuple:
    case K::Set: {
      Kind k = Kind::Python;
      for (auto& x : e->v1) k = std::max(k, kind_of(x, scope) == Kind::Tensor ? Kind::Tensor : k);
      return k;
    }
    case K::Dict:
      return Kind::Python;
    case K::Name: {
      for (const FnInfo* s = scope; s; s = s->parent) {
        auto it = s->kinds.find(e->s);
        if (it != s->kinds.end()) return it->second;
        if (s->locals.count(e->s)) return Kind::Unknown;
      }
      auto it = top_assigns.find(e->s);
      if (it != top_assigns.end() && it->second.size() == 1) {
        const Node* v = it->second.back();
        if (v->kind == K::Constant) return Kind::Python;
        if (v->kind == K::Call) {
          std::string r = resolve(v->a);
          if (r.compare(0, 11, "tensorflow.") == 0) return tf_api_kind(r);
          if (r.compare(0, 6, "numpy.") == 0) return Kind::Numpy;
        }
      }
      return Kind::Unknown;
    }
    case K::Attribute: {
      static const std::set<std::string> static_attrs = {"shape",  "dtype", "ndim", "name",
                                                         "device", "graph", "op"};
      if (static_attrs.count(e->s)) return Kind::Python;
      std::string r = resolve(e);
      if (!r.empty()) return r.compare(0, 6, "numpy.") == 0 ? Kind::Numpy : Kind::Unknown;
      return kind_of(e->a, scope) == Kind::Tensor ? Kind::Tensor : Kind::Unknown;
    }
    case K::Subscript:
      return kind_of(e->a, scope);
    case K::Call: {
      std::string r = resolve(e->a);
      if (r.compare(0, 11, "tensorflow.") == 0) return tf_api_kind(r);
      if (r.compare(0, 6, "numpy.") == 0) return Kind::Numpy;
      if (e->a->kind == K::Name) {
        static const std::set<std::string> py = {
            "len",  "int",   "float", "str",  "bool", "isinstance", "hasattr", "range", "list",
            "dict", "tuple", "set",   "repr", "type", "callable",   "id",      "round", "divmod"};
        if (py.count(e->a->s) && !callee(e->a, scope)) return Kind::Python;
        return Kind::Unknown;
      }
      if (e->a->kind == K::Attribute && kind_of(e->a->a, scope) == Kind::Tensor) {
        const std::string& m = e->a->s;
        if (m == "numpy") return Kind::Numpy;
        if (m == "get_shape" || m == "as_list") return Kind::Python;
        return Kind::Tensor;
      }
      return Kind::Unknown;
    }
    case K::BinOp:
      return std::max(kind_of(e->a, scope), kind_of(e->b, scope));
    case K::UnaryOp:
      return kind_of(e->a, scope);
    case K::BoolOp: {
      Kind k = Kind::Unknown;
      for (auto& v : e->v1) k = std::max(k, kind_of(v, scope));
      return k;
    }
    case K::Compare: {
      Kind k = kind_of(e->a, scope);
      for (auto& v : e->v1) k = std::max(k, kind_of(v, scope));
      if (k == Kind::Numpy) return Kind::Python;
      if (e->names.size() == 1 && (e->names[0] == "is" || e->names[0] == "is not" ||
                                   e->names[0] == "in" || e->names[0] == "not in"))
        return Kind::Python;
      return k;
    }
    case K::IfExp:
      return std::max(kind_of(e->b, scope), kind_of(e->c, scope));
    case K::NamedExpr:
      return kind_of(e->b, scope);
    default:
      return Kind::Unknown;
  }
}

}  // namespace tfs::lint::detail
