#include "model.h"

#include <algorithm>
#include <functional>

#include "unparse.h"

namespace tfs::lint::detail {

// ---------------------------------------------------------------- small helpers

std::string self_name(const FnInfo& method) {
  if (!method.cls || !method.def || method.def->kind != K::FunctionDef || !method.def->a) return "";
  const P& args = method.def->a;
  if (!args->v1.empty()) return args->v1[0]->s;
  if (!args->v2.empty()) return args->v2[0]->s;
  return "";
}

bool is_name(const Node* e, std::string_view id) {
  return e && e->kind == K::Name && e->s == id;
}

bool is_constant(const Node* e) {
  if (!e) return false;
  if (e->kind == K::Constant) return e->ckind != ConstKind::Ellipsis;
  if (e->kind == K::UnaryOp && (e->s == "-" || e->s == "+")) return is_constant(e->a.get());
  return false;
}

const Node* root_name(const P& e) {
  const Node* n = e.get();
  while (n && (n->kind == K::Attribute || n->kind == K::Subscript || n->kind == K::Call))
    n = n->a.get();
  return n && n->kind == K::Name ? n : nullptr;
}

std::string describe(const P& e) {
  if (!e) return "";
  switch (e->kind) {
    case K::Name:
      return e->s;
    case K::Attribute: {
      std::string base = describe(e->a);
      return base.empty() ? e->s : base + "." + e->s;
    }
    case K::Call:
      return describe(e->a) + "()";
    case K::Subscript:
      return describe(e->a) + "[...]";
    case K::Constant:
      return e->ckind == ConstKind::Str ? "'" + e->s + "'" : e->s;
    default: {
      std::string text;
      try {
        text = autograph::detail::unparse(e);
      } catch (const std::exception&) {
        return "";
      }
      return text.size() > 40 ? text.substr(0, 37) + "..." : text;
    }
  }
}

void target_names(const P& t, std::vector<std::string>& out) {
  if (!t) return;
  switch (t->kind) {
    case K::Name:
      out.push_back(t->s);
      break;
    case K::Tuple:
    case K::List:
      for (auto& e : t->v1) target_names(e, out);
      break;
    case K::Starred:
      target_names(t->a, out);
      break;
    default:
      break;
  }
}

namespace {

// tf.compat.v2 is tf; tfscope's API mirrors tf's; tf.keras and tf_keras are Keras; TF's own
// modules name tf.function by its implementation's path.
std::string canonical(std::string p) {
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

bool is_tf_function_path(const std::string& p) {
  return p == "tensorflow.function";
}

// Defaults for the usual aliases when a snippet uses them without importing (rare in files, but
// common in notebooks turned into scripts).
const char* default_alias(const std::string& id) {
  if (id == "tf") return "tensorflow";
  if (id == "np") return "numpy";
  return nullptr;
}

const P* keyword(const Node& call, std::string_view name) {
  for (auto& k : call.v2)
    if (k->s == name) return &k->a;
  return nullptr;
}

class Builder {
 public:
  explicit Builder(Module& m) : m_(m) {}

  void run() {
    for (auto& s : m_.parsed.body) collect(s, nullptr, nullptr);
    for (auto& c : m_.classes) class_facts(*c);
    for (auto& s : m_.parsed.body) find_tf_functions(s, nullptr, nullptr);
    for (auto& f : m_.fns)
      if (f->cls && f->cls->keras_model &&
          (f->name == "train_step" || f->name == "test_step" || f->name == "predict_step"))
        f->keras_step = true;
    call_site_kinds();
    propagate_traces();
  }

 private:
  Module& m_;
  std::vector<FnInfo*> traced_order_;
  // Per tf.function parameter: whether every call site passes a Python literal.
  std::map<const FnInfo*, std::map<std::string, bool>> literal_args_;

  FnInfo* new_fn(const Node* def, FnInfo* parent, ClassInfo* cls) {
    m_.fns.push_back(std::make_unique<FnInfo>());
    FnInfo* f = m_.fns.back().get();
    f->def = def;
    f->parent = parent;
    f->cls = cls;
    m_.fn_of[def] = f;
    return f;
  }

  void params_of(FnInfo& f, const P& args, bool method) {
    if (!args) return;
    std::vector<const Node*> pos;
    for (auto& a : args->v1) pos.push_back(a.get());
    for (auto& a : args->v2) pos.push_back(a.get());
    // defaults align with the last positional parameters
    size_t nd = args->v4.size();
    for (size_t i = 0; i < nd && i < pos.size(); ++i)
      f.defaults[pos[pos.size() - nd + i]->s] = args->v4[i].get();
    for (size_t i = 0; i < args->v3.size(); ++i)
      if (i < args->v5.size() && args->v5[i]) f.defaults[args->v3[i]->s] = args->v5[i].get();
    for (size_t i = 0; i < pos.size(); ++i) {
      f.locals.insert(pos[i]->s);
      if (method && i == 0) continue;
      f.params.push_back(pos[i]->s);
    }
    for (auto& a : args->v3) {
      f.locals.insert(a->s);
      f.params.push_back(a->s);
    }
    if (args->a) f.locals.insert(args->a->s);
    if (args->b) f.locals.insert(args->b->s);
  }

  void bind(FnInfo* fn, const std::string& name) {
    if (fn) fn->locals.insert(name);
  }

  void bind_target(FnInfo* fn, const P& t) {
    std::vector<std::string> names;
    target_names(t, names);
    for (auto& n : names) bind(fn, n);
  }

  void import_alias(const Node& n, FnInfo* fn) {
    for (auto& al : n.v1) {
      std::string path, local;
      if (n.kind == K::Import) {
        local = al->s2.empty() ? al->s.substr(0, al->s.find('.')) : al->s2;
        path = al->s2.empty() ? local : al->s;
      } else {
        if (al->s == "*" || n.flag > 0) continue;  // star and relative imports: nothing known
        local = al->s2.empty() ? al->s : al->s2;
        path = n.s + "." + al->s;
      }
      bind(fn, local);
      if (!fn)
        m_.imports[local] = canonical(path);
      else if (!m_.imports.count(local))
        m_.imports[local] = canonical(path);
      if (!fn && local == "print") m_.names_print = true;
    }
  }

  void collect(const P& n, FnInfo* fn, ClassInfo* cls) {
    switch (n->kind) {
      case K::Import:
      case K::ImportFrom:
        import_alias(*n, fn);
        return;
      case K::FunctionDef: {
        for (auto& d : n->v2) collect(d, fn, nullptr);
        collect_args_defaults(n->a, fn);
        if (n->b) collect(n->b, fn, nullptr);  // the return annotation
        FnInfo* f = new_fn(n.get(), fn, cls);
        f->name = n->s;
        f->first_line = n->first_line;
        f->last_line = n->last_line;
        bool is_static = false;
        for (auto& d : n->v2) is_static |= is_name(d, "staticmethod");
        params_of(*f, n->a, cls && !is_static);
        if (cls) {
          cls->methods[n->s] = f;
        } else if (fn) {
          fn->nested[n->s] = f;
          bind(fn, n->s);
        } else {
          m_.top_fns[n->s] = f;
          if (n->s == "print") m_.names_print = true;
        }
        for (auto& s : n->v1) collect(s, f, nullptr);
        return;
      }
      case K::Lambda: {
        collect_args_defaults(n->a, fn);
        FnInfo* f = new_fn(n.get(), fn, nullptr);
        f->name = "<lambda>";
        f->first_line = f->last_line = n->line;
        params_of(*f, n->a, false);
        collect(n->b, f, nullptr);
        return;
      }
      case K::ClassDef: {
        m_.classes.push_back(std::make_unique<ClassInfo>());
        ClassInfo* c = m_.classes.back().get();
        c->def = n.get();
        c->name = n->s;
        m_.class_of[n.get()] = c;
        for (auto& b : n->v3) {
          std::string r = m_.resolve(b);
          if (r.empty() && b->kind == K::Name) r = b->s;
          if (r.empty() && b->kind == K::Call) r = m_.resolve(b->a) + "()";
          c->bases.push_back(r);
        }
        for (auto& d : n->v2) collect(d, fn, nullptr);
        if (fn)
          bind(fn, n->s);
        else
          m_.top_classes[n->s] = c;
        for (auto& s : n->v1) collect(s, fn, c);
        return;
      }
      case K::Assign:
        for (auto& t : n->v1) {
          bind_target(fn, t);
          if (!fn && !cls && t->kind == K::Name) {
            m_.top_assigns[t->s].push_back(n->a.get());
            if (t->s == "print") m_.names_print = true;
          }
          record_self_attr(t, n->a, fn);
        }
        break;
      case K::AnnAssign:
        bind_target(fn, n->a);
        if (n->c) {
          if (!fn && !cls && n->a->kind == K::Name) m_.top_assigns[n->a->s].push_back(n->c.get());
          record_self_attr(n->a, n->c, fn);
        }
        break;
      case K::AugAssign:
        bind_target(fn, n->a);
        break;
      case K::For:
        bind_target(fn, n->a);
        break;
      case K::WithItem:
        if (n->b) bind_target(fn, n->b);
        break;
      case K::ExceptHandler:
        if (!n->s.empty()) bind(fn, n->s);
        break;
      case K::NamedExpr:
        bind_target(fn, n->a);
        break;
      case K::Global:
        if (fn)
          for (auto& g : n->names) fn->globals.insert(g);
        break;
      case K::Nonlocal:
        if (fn)
          for (auto& g : n->names) fn->nonlocals.insert(g);
        break;
      default:
        break;
    }
    for_children(*n, [&](const P& c) { collect(c, fn, nullptr); });
  }

  // Defaults and annotations are evaluated in the enclosing scope.
  void collect_args_defaults(const P& args, FnInfo* fn) {
    if (!args) return;
    for (auto& d : args->v4) collect(d, fn, nullptr);
    for (auto& d : args->v5)
      if (d) collect(d, fn, nullptr);
    for (const Block* v : {&args->v1, &args->v2, &args->v3})
      for (auto& a : *v)
        if (a->a) collect(a->a, fn, nullptr);
    for (const P* a : {&args->a, &args->b})
      if (*a && (*a)->a) collect((*a)->a, fn, nullptr);
  }

  void record_self_attr(const P& target, const P& value, FnInfo* fn) {
    if (!fn || !fn->cls || target->kind != K::Attribute || !target->a) return;
    if (is_name(target->a, self_name(*fn))) fn->cls->attrs.emplace(target->s, value.get());
  }

  void class_facts(ClassInfo& c) {
    static const std::set<std::string> keras_models = {
        "keras.Model", "keras.Sequential", "keras.models.Model", "keras.models.Sequential"};
    static const std::set<std::string> trackables = {"tensorflow.Module",
                                                     "keras.layers.Layer",
                                                     "keras.Layer",
                                                     "keras.Model",
                                                     "keras.Sequential",
                                                     "keras.models.Model",
                                                     "keras.models.Sequential",
                                                     "tensorflow.train.Checkpoint"};
    static const std::set<std::string> structural = {
        "typing.NamedTuple", "tensorflow.experimental.ExtensionType",
        "tensorflow.experimental.BatchableExtensionType", "collections.namedtuple()",
        "typing.NamedTuple()"};
    std::function<bool(const ClassInfo&, const std::set<std::string>&, int)> derives =
        [&](const ClassInfo& k, const std::set<std::string>& roots, int depth) {
          for (auto& b : k.bases) {
            if (roots.count(b)) return true;
            auto it = m_.top_classes.find(b);
            if (depth < 16 && it != m_.top_classes.end() && it->second != &k &&
                derives(*it->second, roots, depth + 1))
              return true;
          }
          return false;
        };
    c.keras_model = derives(c, keras_models, 0);
    c.tf_module = derives(c, trackables, 0);
    c.structural = derives(c, structural, 0) || c.methods.count("__tf_tracing_type__") ||
                   std::any_of(c.bases.begin(), c.bases.end(),
                               [](const std::string& b) { return b == "NamedTuple"; });
    for (auto& d : c.def->v2) {
      std::string r = m_.resolve(d->kind == K::Call ? d->a : d);
      if (r.compare(0, 5, "attr.") == 0 || r.compare(0, 6, "attrs.") == 0) c.structural = true;
    }
  }

  // Applies tf.function(...)'s options (a decorator call or a wrapping call) to `f`.
  void tf_options(FnInfo& f, const Node* site) {
    f.tf_function = true;
    if (!f.tf_site) f.tf_site = site;
    if (site->kind != K::Call) return;
    if (const P* ag = keyword(*site, "autograph"))
      if ((*ag)->kind == K::Constant && (*ag)->ckind == ConstKind::False) f.autograph = false;
    if (const P* sig = keyword(*site, "input_signature"))
      if (!((*sig)->kind == K::Constant && (*sig)->ckind == ConstKind::None))
        f.input_signature = true;
    if (site->v1.size() >= 2) f.input_signature = true;  // tf.function(f, signature)
  }

  bool tf_function_expr(const P& e) const {
    if (is_tf_function_path(m_.resolve(e))) return true;
    return e->kind == K::Call && is_tf_function_path(m_.resolve(e->a)) && e->v1.empty();
  }

  void find_tf_functions(const P& n, FnInfo* fn, ClassInfo* cls) {
    if (n->kind == K::FunctionDef) {
      FnInfo* f = m_.fn_info(n.get());
      for (auto& d : n->v2) {
        if (f && tf_function_expr(d)) tf_options(*f, d.get());
        find_tf_functions(d, fn, nullptr);
      }
      for (auto& s : n->v1) find_tf_functions(s, f, nullptr);
      return;
    }
    if (n->kind == K::Lambda) {
      find_tf_functions(n->b, m_.fn_info(n.get()), nullptr);
      return;
    }
    if (n->kind == K::ClassDef) {
      ClassInfo* c = m_.class_of.find(n.get())->second;
      for (auto& s : n->v1) find_tf_functions(s, fn, c);
      return;
    }
    if (n->kind == K::Assign && n->a->kind == K::Call && is_tf_function_path(m_.resolve(n->a->a)))
      if (FnInfo* target = wrapped(*n->a, fn))
        for (auto& t : n->v1) {
          if (t->kind == K::Name && !fn) m_.tf_aliases[t->s] = target;
          if (t->kind == K::Name && fn) fn->nested.emplace(t->s, target);
          if (t->kind == K::Attribute && fn && fn->cls && t->a->kind == K::Name)
            m_.tf_attr_aliases[fn->cls][t->s] = target;
        }
    if (n->kind == K::Call && is_tf_function_path(m_.resolve(n->a)))
      if (FnInfo* target = wrapped(*n, fn)) tf_options(*target, n.get());
    (void)cls;
    for_children(*n, [&](const P& c) { find_tf_functions(c, fn, nullptr); });
  }

  // The function tf.function(X, ...) wraps, when the source says which.
  FnInfo* wrapped(const Node& call, FnInfo* scope) const {
    const P* x = call.v1.empty() ? keyword(call, "func") : &call.v1[0];
    if (!x) return nullptr;
    if ((*x)->kind == K::Lambda) return m_.fn_info(x->get());
    return m_.callee(*x, scope);
  }

  void call_site_kinds() {
    std::function<void(const P&, FnInfo*)> visit = [&](const P& n, FnInfo* fn) {
      if (n->kind == K::FunctionDef || n->kind == K::Lambda) {
        FnInfo* f = m_.fn_info(n.get());
        for_children(*n, [&](const P& c) { visit(c, f); });
        return;
      }
      if (n->kind == K::Call)
        if (FnInfo* f = m_.tf_callee(n->a, fn)) {
          auto& lit = literal_args_[f];
          for (size_t i = 0; i < n->v1.size() && i < f->params.size(); ++i) {
            bool l = is_constant(n->v1[i]);
            auto [it, fresh] = lit.emplace(f->params[i], l);
            if (!fresh) it->second = it->second && l;
          }
          for (auto& k : n->v2) {
            if (k->s.empty()) continue;
            bool l = is_constant(k->a);
            auto [it, fresh] = lit.emplace(k->s, l);
            if (!fresh) it->second = it->second && l;
          }
        }
      for_children(*n, [&](const P& c) { visit(c, fn); });
    };
    for (auto& s : m_.parsed.body) visit(s, nullptr);
  }

  // Marks every body that runs while a tf.function traces, and infers kinds in them.
  void propagate_traces() {
    std::vector<FnInfo*> work;
    for (auto& f : m_.fns)
      if (f->tf_function || f->keras_step) {
        f->traced_by = f.get();
        work.push_back(f.get());
      }
    while (!work.empty()) {
      FnInfo* f = work.back();
      work.pop_back();
      traced_order_.push_back(f);
      std::function<void(const P&, FnInfo*)> visit = [&](const P& n, FnInfo* scope) {
        if ((n->kind == K::FunctionDef || n->kind == K::Lambda) && n.get() != f->def) {
          FnInfo* g = m_.fn_info(n.get());
          if (!g || g->traced_by) return;
          g->traced_by = f->traced_by;
          traced_order_.push_back(g);
          for_children(*n, [&](const P& c) { visit(c, g); });
          return;
        }
        if (n->kind == K::ClassDef) return;
        if (n->kind == K::Call) {
          std::string callee = m_.resolve(n->a);
          if (callee == "tensorflow.py_function" || callee == "tensorflow.numpy_function" ||
              callee == "tensorflow.compat.v1.py_func") {
            // its function runs at run time, eagerly: only the other arguments are traced
            for (size_t i = 1; i < n->v1.size(); ++i) visit(n->v1[i], scope);
            return;
          }
          if (FnInfo* g = m_.callee(n->a, scope))
            if (!g->traced_by && !g->tf_function) {
              g->traced_by = f->traced_by;
              work.push_back(g);
            }
        }
        for_children(*n, [&](const P& c) { visit(c, scope); });
      };
      for (auto& s : f->def->kind == K::Lambda ? Block{f->def->b} : f->def->v1) visit(s, f);
    }
    for (int round = 0; round < 2; ++round)
      for (FnInfo* f : traced_order_) infer_kinds(*f);
  }

  void infer_kinds(FnInfo& f) {
    for (auto& p : f.params) {
      Kind k = Kind::Tensor;
      auto d = f.defaults.find(p);
      if (d != f.defaults.end() && is_constant(d->second)) k = Kind::Python;
      if (!f.tf_function && !f.keras_step) k = f.kinds.count(p) ? f.kinds[p] : Kind::Unknown;
      auto lit = literal_args_.find(&f);
      if (f.tf_function && lit != literal_args_.end()) {
        auto it = lit->second.find(p);
        if (it != lit->second.end() && it->second) k = Kind::Python;
      }
      if (f.input_signature) k = Kind::Tensor;
      if (f.keras_step) k = Kind::Tensor;
      f.kinds[p] = k;
    }
    auto raise = [&](const std::string& name, Kind k) {
      Kind& cur = f.kinds[name];
      if (k > cur) cur = k;
    };
    std::function<void(const P&, Kind)> assign_target = [&](const P& t, Kind k) {
      if (!t) return;
      if (t->kind == K::Name) raise(t->s, k);
      if (t->kind == K::Tuple || t->kind == K::List)
        for (auto& e : t->v1) assign_target(e, k);
      if (t->kind == K::Starred) assign_target(t->a, k);
    };
    const Block body = f.def->kind == K::Lambda ? Block{} : f.def->v1;
    for (auto& s : body)
      walk(s, [&](const P& n) {
        switch (n->kind) {
          case K::Assign: {
            for (auto& t : n->v1) {
              if (t->kind == K::Tuple && n->a->kind == K::Tuple &&
                  t->v1.size() == n->a->v1.size()) {
                for (size_t i = 0; i < t->v1.size(); ++i)
                  assign_target(t->v1[i], m_.kind_of(n->a->v1[i], &f));
              } else {
                assign_target(t, m_.kind_of(n->a, &f));
              }
            }
            break;
          }
          case K::AugAssign:
            assign_target(n->a, std::max(m_.kind_of(n->a, &f), m_.kind_of(n->b, &f)));
            break;
          case K::AnnAssign:
            if (n->c) assign_target(n->a, m_.kind_of(n->c, &f));
            break;
          case K::NamedExpr:
            assign_target(n->a, m_.kind_of(n->b, &f));
            break;
          case K::For: {
            Kind k = Kind::Unknown;
            const P& it = n->b;
            if (it->kind == K::Call && is_name(it->a, "range")) {
              k = Kind::Python;
              for (auto& a : it->v1)
                if (m_.kind_of(a, &f) == Kind::Tensor) k = Kind::Tensor;
            } else if (m_.kind_of(it, &f) == Kind::Tensor) {
              k = Kind::Tensor;
            }
            assign_target(n->a, k);
            break;
          }
          case K::Call:
            // a call of a module function from a traced body: its parameters get the argument
            // kinds
            if (FnInfo* g = m_.callee(n->a, &f))
              if (!g->tf_function && g->traced_by)
                for (size_t i = 0; i < n->v1.size() && i < g->params.size(); ++i) {
                  Kind k = m_.kind_of(n->v1[i], &f);
                  Kind& cur = g->kinds[g->params[i]];
                  if (k > cur) cur = k;
                }
            break;
          default:
            break;
        }
        return true;
      });
  }
};

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
  return canonical(std::move(path));
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

std::unique_ptr<Module> build_module(autograph::detail::ParsedModule parsed) {
  auto m = std::make_unique<Module>();
  m->parsed = std::move(parsed);
  Builder(*m).run();
  return m;
}

}  // namespace tfs::lint::detail
