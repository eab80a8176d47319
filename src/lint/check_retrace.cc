// TFS1xx: calls and definitions that make tf.function trace again on every iteration of a loop.
#include <functional>
#include <map>

#include "checks.h"

namespace tfs::lint::detail {
namespace {

struct Loop {
  const Node* node;  // For, While, or a comprehension (ListComp, ...)
  const Block* body;
  std::vector<P> targets;  // the iteration target(s): For's target, comprehension's
  P iter;
};

struct Ctx {
  FnInfo* fn = nullptr;
  std::vector<Loop> loops;
  int ifs_in_loop = 0;  // If statements between the innermost loop and here
};

std::string py_type(const Node* c) {
  if (!c) return "value";
  switch (c->ckind) {
    case ConstKind::Int:
      return "int";
    case ConstKind::Float:
      return "float";
    case ConstKind::Str:
      return "str";
    case ConstKind::True:
    case ConstKind::False:
      return "bool";
    default:
      return "value";
  }
}

class Retrace {
 public:
  explicit Retrace(Report& r) : r_(r), m_(r.module) {}

  void run() {
    Ctx c;
    for (auto& s : m_.parsed.body) visit(s, c);
    report_created_in_called_functions();
  }

 private:
  Report& r_;
  const Module& m_;
  struct Creation {
    const FnInfo* in;  // the function whose body creates the tf.function
    const Node* site;  // the decorated def or the tf.function(...) call
    std::string created;
    const FnInfo* fn;  // the function made into a tf.function, when known
  };
  std::vector<Creation> creations_;
  std::map<const FnInfo*, const Node*> called_in_loop_;  // first loop call of each function

  // ---------------------------------------------------------------- walk

  void visit(const P& n, Ctx& c) {
    switch (n->kind) {
      case K::FunctionDef: {
        for (auto& d : n->v2) visit(d, c);
        FnInfo* f = m_.fn_info(n.get());
        if (f && f->tf_function && f->tf_site && in_decorators(*n, f->tf_site)) {
          decorated_def(*f, c);
          creation(c, n.get(), f->name, f);
        }
        Ctx inner;
        inner.fn = f;
        for (auto& s : n->v1) visit(s, inner);
        return;
      }
      case K::Lambda: {
        Ctx inner;
        inner.fn = m_.fn_info(n.get());
        visit(n->b, inner);
        return;
      }
      case K::ClassDef: {
        for (auto& s : n->v1) visit(s, c);
        return;
      }
      case K::For:
      case K::While: {
        visit(n->kind == K::For ? n->b : n->a, c);
        Loop l{n.get(), &n->v1, {}, n->kind == K::For ? n->b : nullptr};
        if (n->kind == K::For) l.targets.push_back(n->a);
        int saved = c.ifs_in_loop;
        c.loops.push_back(l);
        c.ifs_in_loop = 0;
        if (n->kind == K::For) visit(n->a, c);
        for (auto& s : n->v1) visit(s, c);
        keras_models_in_loop(*n, c);
        c.loops.pop_back();
        c.ifs_in_loop = saved;
        for (auto& s : n->v2) visit(s, c);
        return;
      }
      case K::If: {
        visit(n->a, c);
        ++c.ifs_in_loop;
        for (auto& s : n->v1) visit(s, c);
        for (auto& s : n->v2) visit(s, c);
        --c.ifs_in_loop;
        return;
      }
      case K::ListComp:
      case K::SetComp:
      case K::GeneratorExp:
      case K::DictComp: {
        Loop l{n.get(), nullptr, {}, nullptr};
        for (auto& g : n->v1) {
          visit(g->b, c);
          l.targets.push_back(g->a);
          l.iter = g->b;
        }
        c.loops.push_back(l);
        for (auto& g : n->v1)
          for (auto& cond : g->v1) visit(cond, c);
        visit(n->a, c);
        if (n->b) visit(n->b, c);
        c.loops.pop_back();
        return;
      }
      case K::Call:
        call(n, c);
        break;
      default:
        break;
    }
    for_children(*n, [&](const P& ch) { visit(ch, c); });
  }

  static bool in_decorators(const Node& def, const Node* site) {
    for (auto& d : def.v2)
      if (d.get() == site) return true;
    return false;
  }

  bool in_loop(const Ctx& c) const { return !c.loops.empty() && c.loops.back().body; }

  // ---------------------------------------------------------------- TFS101 / TFS105

  void decorated_def(const FnInfo& f, const Ctx& c) {
    if (!in_loop(c) || c.ifs_in_loop) return;
    r_.add(f.def, "TFS101",
           "tf.function `" + f.name + "` is defined inside a loop (line " +
               std::to_string(c.loops.back().node->line) +
               "): every iteration makes a new Function, which traces again",
           &f);
  }

  bool bound_by_loop(const Ctx& c, const std::string& name) const {
    for (auto& l : c.loops) {
      std::vector<std::string> names;
      for (const P& t : l.targets) target_names(t, names);
      for (auto& nm : names)
        if (nm == name) return true;
    }
    return false;
  }

  void creation(Ctx& c, const Node* site, const std::string& created, const FnInfo* fn) {
    if (c.fn && c.loops.empty() && c.ifs_in_loop == 0 && !c.fn->traced_by)
      creations_.push_back({c.fn, site, created, fn});
  }

  void call(const P& n, Ctx& c) {
    std::string callee = m_.resolve(n->a);
    if (callee == "tensorflow.function" && !n->v1.empty()) {
      const P& x = n->v1[0];
      std::string what = x->kind == K::Lambda      ? "a lambda"
                         : x->kind == K::Attribute ? "the bound method `" + describe(x) + "`"
                                                   : "`" + describe(x) + "`";
      if (in_loop(c) && c.ifs_in_loop == 0) {
        if (x->kind == K::Lambda || x->kind == K::Attribute) {
          r_.add(n.get(), "TFS105",
                 "tf.function is applied to " + what + " inside a loop (line " +
                     std::to_string(c.loops.back().node->line) +
                     "): each iteration wraps a new Python function object, which traces again",
                 x->kind == K::Lambda ? m_.fn_info(x.get()) : m_.callee(x, c.fn));
        } else if (x->kind == K::Name && !bound_by_loop(c, x->s)) {
          r_.add(n.get(), "TFS101",
                 "tf.function(" + x->s + ") is created inside a loop (line " +
                     std::to_string(c.loops.back().node->line) +
                     "): every iteration makes a new Function, which traces again",
                 m_.callee(x, c.fn));
        }
      }
      creation(c, n.get(), x->kind == K::Name ? x->s : describe(x),
               x->kind == K::Lambda ? m_.fn_info(x.get()) : m_.callee(x, c.fn));
    }
    if (c.loops.empty()) return;
    if (FnInfo* g = m_.callee(n->a, c.fn))
      if (!called_in_loop_.count(g)) called_in_loop_[g] = c.loops.back().node;
    FnInfo* f = m_.tf_callee(n->a, c.fn);
    if (!f) return;
    // TFS103 / TFS104: the arguments
    for (size_t i = 0; i < n->v1.size(); ++i) {
      if (f->input_signature) break;  // a signature converts Python values to tensors
      argument(n, n->v1[i], i < f->params.size() ? f->params[i] : "", *f, c);
    }
    for (auto& k : n->v2)
      if (!k->s.empty() && !f->input_signature) argument(n, k->a, k->s, *f, c);
  }

  // ---------------------------------------------------------------- TFS103 / TFS104

  // The Python values that change from one iteration to the next in the loops around `c`:
  // loop targets over range()/enumerate()/literal lists, and counters bumped in the loop.
  std::map<std::string, std::string> varying(const Ctx& c) const {
    std::map<std::string, std::string> v;
    for (auto& l : c.loops) {
      if (l.node->kind == K::For || l.iter) loop_targets(l, c, v);
      if (l.body) counters(*l.body, c, v);
    }
    // values derived from them inside the innermost loop body
    if (in_loop(c))
      for (int round = 0; round < 2; ++round)
        for (auto& s : *c.loops.back().body)
          walk(s, [&](const P& n) {
            if (n->kind == K::Assign && n->v1.size() == 1 && n->v1[0]->kind == K::Name) {
              std::string d = expr_varying(n->a, v, c);
              if (!d.empty()) v.emplace(n->v1[0]->s, d);
            }
            return true;
          });
    return v;
  }

  // A constant list/tuple display a name is bound to in the module or the current function.
  const Node* constant_display(const Node* e, const Ctx& c) const {
    if (!e) return nullptr;
    auto all_const = [](const Node* d) {
      if (d->v1.empty()) return false;
      for (auto& x : d->v1)
        if (!is_constant(x)) return false;
      return true;
    };
    if ((e->kind == K::List || e->kind == K::Tuple || e->kind == K::Set) && all_const(e)) return e;
    if (e->kind != K::Name) return nullptr;
    const Node* found = nullptr;
    if (c.fn && c.fn->locals.count(e->s)) {
      const Block& body = c.fn->def->kind == K::FunctionDef ? c.fn->def->v1 : Block{};
      for (auto& s : body)
        walk(s, [&](const P& n) {
          if (n->kind == K::Assign && n->v1.size() == 1 && is_name(n->v1[0], e->s))
            found = n->a.get();
          return true;
        });
    } else {
      auto it = m_.top_assigns.find(e->s);
      if (it != m_.top_assigns.end() && it->second.size() == 1) found = it->second[0];
    }
    return found && found != e ? constant_display(found, c) : nullptr;
  }

  void loop_targets(const Loop& l, const Ctx& c, std::map<std::string, std::string>& v) const {
    if (l.targets.empty() || !l.iter) return;
    const Node* t = l.targets.back().get();
    const Node* it = l.iter.get();
    auto name_of = [](const Node* x) { return x && x->kind == K::Name ? x->s : std::string(); };
    if (it->kind == K::Call && is_name(it->a, "range") && !m_.callee(it->a, c.fn)) {
      if (!name_of(t).empty()) v.emplace(t->s, "int");
      return;
    }
    if (it->kind == K::Call && is_name(it->a, "enumerate") && t->kind == K::Tuple &&
        t->v1.size() == 2) {
      if (!name_of(t->v1[0].get()).empty()) v.emplace(t->v1[0]->s, "int");
      if (!it->v1.empty())
        if (const Node* d = constant_display(it->v1[0].get(), c))
          if (!name_of(t->v1[1].get()).empty()) v.emplace(t->v1[1]->s, py_type(d->v1[0].get()));
      return;
    }
    if (const Node* d = constant_display(it, c))
      if (!name_of(t).empty()) v.emplace(t->s, py_type(d->v1[0].get()));
  }

  // `n += 1` / `n = n + 1` in the loop body, with n a Python number (its other bindings are
  // literals).
  void counters(const Block& body, const Ctx& c, std::map<std::string, std::string>& v) const {
    for (auto& s : body)
      walk(s, [&](const P& n) {
        const Node* target = nullptr;
        const Node* step = nullptr;
        if (n->kind == K::AugAssign && n->a->kind == K::Name && (n->s == "+" || n->s == "-")) {
          target = n->a.get();
          step = n->b.get();
        }
        if (n->kind == K::Assign && n->v1.size() == 1 && n->v1[0]->kind == K::Name &&
            n->a->kind == K::BinOp && is_name(n->a->a, n->v1[0]->s)) {
          target = n->v1[0].get();
          step = n->a->b.get();
        }
        if (target && is_constant(step) && bound_to_number(target->s, c))
          v.emplace(target->s, py_type(step->kind == K::UnaryOp ? step->a.get() : step));
        return true;
      });
  }

  bool bound_to_number(const std::string& name, const Ctx& c) const {
    bool number = false, other = false;
    auto look = [&](const Node* value) {
      if (is_constant(value))
        number = true;
      else
        other = true;
    };
    if (c.fn && c.fn->locals.count(name) && c.fn->def->kind == K::FunctionDef) {
      for (auto& s : c.fn->def->v1)
        walk(s, [&](const P& n) {
          if (n->kind == K::Assign && n->v1.size() == 1 && is_name(n->v1[0], name)) {
            if (!(n->a->kind == K::BinOp && is_name(n->a->a, name))) look(n->a.get());
          }
          return true;
        });
    } else {
      auto it = m_.top_assigns.find(name);
      if (it != m_.top_assigns.end())
        for (const Node* value : it->second)
          if (!(value->kind == K::BinOp && is_name(value->a, name))) look(value);
    }
    return number && !other;
  }

  // What Python value that changes per iteration `e` is ("int `i`"), or "".
  std::string expr_varying(const P& e, const std::map<std::string, std::string>& v,
                           const Ctx& c) const {
    if (!e) return "";
    switch (e->kind) {
      case K::Name: {
        auto it = v.find(e->s);
        return it == v.end() ? "" : "Python " + it->second + " `" + e->s + "`";
      }
      case K::BinOp: {
        std::string a = expr_varying(e->a, v, c), b = expr_varying(e->b, v, c);
        if (!a.empty() && (is_constant(e->b) || !b.empty())) return a;
        if (!b.empty() && is_constant(e->a)) return b;
        return "";
      }
      case K::UnaryOp:
        return expr_varying(e->a, v, c);
      case K::Compare: {
        std::string a = expr_varying(e->a, v, c);
        if (!a.empty() && e->v1.size() == 1 && is_constant(e->v1[0])) return a;
        return "";
      }
      case K::JoinedStr:
        for (auto& part : e->v1)
          if (part->kind == K::FormattedValue) {
            std::string d = expr_varying(part->a, v, c);
            if (!d.empty()) return "Python str built from " + d.substr(7);
          }
        return "";
      case K::Call: {
        static const std::set<std::string> conv = {"str", "int", "float", "bool", "round", "abs"};
        if (e->a->kind == K::Name && conv.count(e->a->s) && !m_.callee(e->a, c.fn) &&
            e->v1.size() == 1)
          return expr_varying(e->v1[0], v, c);
        std::string r = m_.resolve(e->a);
        if (r == "random.random" || r == "random.uniform" || r == "random.randint" ||
            r == "time.time" || r == "time.perf_counter")
          return "Python number `" + describe(e) + "`";
        return "";
      }
      case K::Subscript:
        if (constant_display(e->a.get(), c) && !expr_varying(e->b, v, c).empty())
          return "Python value `" + describe(e->a) + "[...]`";
        return "";
      case K::List:
      case K::Tuple:
      case K::Dict: {
        const Block& elts = e->kind == K::Dict ? e->v2 : e->v1;
        for (auto& x : elts) {
          std::string d = expr_varying(x, v, c);
          if (!d.empty())
            return std::string(e->kind == K::Dict   ? "a dict"
                               : e->kind == K::List ? "a list"
                                                    : "a tuple") +
                   " holding " + d;
        }
        return "";
      }
      default:
        return "";
    }
  }

  // A new object per iteration: a constructor of a module class, a lambda, or a name bound to
  // one in the loop; or a list that grows in the loop.
  std::string fresh_object(const P& e, const Ctx& c) const {
    auto ctor = [&](const Node* x) -> std::string {
      if (!x) return "";
      if (x->kind == K::Lambda) return "a new lambda";
      if (x->kind == K::Call && x->a->kind == K::Name) {
        auto it = m_.top_classes.find(x->a->s);
        if (it != m_.top_classes.end() && !it->second->structural && !m_.callee(x->a, c.fn))
          return "a new `" + x->a->s + "` object";
      }
      return "";
    };
    std::string d = ctor(e.get());
    if (!d.empty() || e->kind != K::Name) return d;
    const Block& body = *c.loops.back().body;
    std::string out;
    for (auto& s : body)
      walk(s, [&](const P& n) {
        if (n->kind == K::Assign && n->v1.size() == 1 && is_name(n->v1[0], e->s)) {
          std::string x = ctor(n->a.get());
          if (!x.empty()) out = x + " (`" + e->s + "`)";
        }
        if (n->kind == K::FunctionDef && n->s == e->s) out = "a function defined in the loop";
        if (n->kind == K::Call && n->a->kind == K::Attribute && is_name(n->a->a, e->s) &&
            (n->a->s == "append" || n->a->s == "extend" || n->a->s == "insert"))
          out = "the list `" + e->s + "`, which grows every iteration,";
        return true;
      });
    return out;
  }

  void argument(const P& call, const P& arg, const std::string& param, const FnInfo& f,
                const Ctx& c) {
    std::string p = param.empty() ? "" : " as `" + param + "`";
    std::string d = expr_varying(arg, varying(c), c);
    if (!d.empty()) {
      r_.add(arg.get(), "TFS103",
             d + " changes every iteration and is passed" + p + " to tf.function `" + f.name +
                 "`: each new value is a new Literal trace type, so the call retraces",
             &f);
      return;
    }
    d = fresh_object(arg, c);
    if (!d.empty())
      r_.add(arg.get(), "TFS104",
             d + " is passed" + p + " to tf.function `" + f.name +
                 "` on every iteration: its trace type is new each time, so the call retraces",
             &f);
    (void)call;
  }

  // ---------------------------------------------------------------- TFS102

  void report_created_in_called_functions() {
    for (auto& cr : creations_) {
      auto it = called_in_loop_.find(cr.in);
      if (it == called_in_loop_.end()) continue;
      if (!uses_created(*cr.in, cr.created)) continue;
      r_.add(cr.site, "TFS102",
             "tf.function `" + cr.created + "` is created inside `" + cr.in->name +
                 "`, which is called in a loop (line " + std::to_string(it->second->line) +
                 "): every call makes a new Function, which traces again",
             cr.fn);
    }
  }

  // Whether the function calls or returns the tf.function it creates.
  bool uses_created(const FnInfo& g, const std::string& created) const {
    bool used = false;
    if (g.def->kind != K::FunctionDef) return false;
    for (auto& s : g.def->v1)
      walk(s, [&](const P& n) {
        if (n->kind == K::Call && is_name(n->a, created)) used = true;
        if (n->kind == K::Return && n->a) {
          if (is_name(n->a, created)) used = true;
          if (n->a->kind == K::Call && m_.resolve(n->a->a) == "tensorflow.function") used = true;
        }
        if (n->kind == K::Call && n->a->kind == K::Call &&
            m_.resolve(n->a->a) == "tensorflow.function")
          used = true;  // tf.function(f)(x)
        return true;
      });
    if (used) return true;
    // tf.function(f) assigned to a name that is called or returned
    for (auto& s : g.def->v1)
      walk(s, [&](const P& n) {
        if (n->kind == K::Assign && n->a->kind == K::Call &&
            m_.resolve(n->a->a) == "tensorflow.function")
          for (auto& t : n->v1)
            if (t->kind == K::Name) used = used || uses_created(g, t->s);
        return true;
      });
    return used;
  }

  // ---------------------------------------------------------------- TFS106

  bool model_constructor(const Node* v, int depth = 0) const {
    if (!v || v->kind != K::Call || depth > 4) return false;
    std::string r = m_.resolve(v->a);
    static const std::set<std::string> ctors = {
        "keras.Sequential",         "keras.Model",
        "keras.models.Sequential",  "keras.models.Model",
        "keras.models.clone_model", "keras.models.load_model",
        "keras.saving.load_model",  "keras.models.model_from_json"};
    if (ctors.count(r) || r.compare(0, 19, "keras.applications.") == 0) return true;
    if (v->a->kind != K::Name) return false;
    auto c = m_.top_classes.find(v->a->s);
    if (c != m_.top_classes.end()) return c->second->keras_model;
    auto f = m_.top_fns.find(v->a->s);
    if (f == m_.top_fns.end() || f->second->def->kind != K::FunctionDef) return false;
    // a builder function: returns a model it constructs
    std::set<std::string> built;
    bool returns_model = false;
    for (auto& s : f->second->def->v1)
      walk(s, [&](const P& n) {
        if (n->kind == K::Assign && n->v1.size() == 1 && n->v1[0]->kind == K::Name &&
            model_constructor(n->a.get(), depth + 1))
          built.insert(n->v1[0]->s);
        if (n->kind == K::Return && n->a &&
            (model_constructor(n->a.get(), depth + 1) ||
             (n->a->kind == K::Name && built.count(n->a->s))))
          returns_model = true;
        return true;
      });
    return returns_model;
  }

  void keras_models_in_loop(const Node& loop, const Ctx& c) {
    (void)c;
    std::map<std::string, int> built;  // model name -> line built
    static const std::set<std::string> tracing = {"predict", "predict_on_batch", "evaluate",
                                                  "test_on_batch"};
    for (auto& s : loop.v1)
      walk(s, [&](const P& n) {
        if (n->kind == K::Assign && n->v1.size() == 1 && n->v1[0]->kind == K::Name &&
            model_constructor(n->a.get()))
          built[n->v1[0]->s] = n->line;
        if (n->kind == K::Call && n->a->kind == K::Attribute && n->a->a->kind == K::Name &&
            tracing.count(n->a->s)) {
          auto it = built.find(n->a->a->s);
          if (it != built.end())
            r_.add(n.get(), "TFS106",
                   "Keras model `" + it->first + "` is built inside this loop (line " +
                       std::to_string(it->second) + ") and `" + describe(n->a) +
                       "()` traces its predict function again for every new model");
        }
        return true;
      });
  }
};

}  // namespace

void check_retracing(Report& r) {
  Retrace(r).run();
}

}  // namespace tfs::lint::detail
