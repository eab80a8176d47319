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
bool is_tf_function_path(const std::string& p) {
  return p == "tensorflow.function";
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
        m_.imports[local] = canonical_path(path);
      else if (!m_.imports.count(local))
        m_.imports[local] = canonical_path(path);
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

}  // namespace

std::unique_ptr<Module> build_module(autograph::detail::ParsedModule parsed) {
  auto m = std::make_unique<Module>();
  m->parsed = std::move(parsed);
  Builder(*m).run();
  return m;
}

}  // namespace tfs::lint::detail
