// TFS2xx: Python side effects in bodies that run while a tf.function traces. They happen once
// per trace, not once per call.
#include <set>

#include "checks.h"

namespace tfs::lint::detail {
namespace {

bool is_param(const FnInfo& f, const std::string& name) {
  if (name == self_name(f)) return true;
  for (auto& p : f.params)
    if (p == name) return true;
  return false;
}

// Bound inside the trace: a local of this body or of an enclosing body that is traced too.
bool local_to_trace(const FnInfo& f, const std::string& name) {
  for (const FnInfo* s = &f; s && s->traced_by; s = s->parent) {
    if (s->globals.count(name) || s->nonlocals.count(name)) return false;
    // the tf.function's own parameters and `self` come from outside the trace; a helper's or a
    // nested function's parameters were built inside it
    if (s->locals.count(name))
      return !(is_param(*s, name) && (s == s->traced_by || name == self_name(*s)));
  }
  return false;
}

class SideEffects {
 public:
  SideEffects(Report& r, const FnInfo& f) : r_(r), m_(r.module), f_(f) {}

  void run() {
    const Block body = f_.def->kind == K::Lambda ? Block{f_.def->b} : f_.def->v1;
    for (auto& s : body)
      walk(s, [&](const P& n) {
        visit(n);
        // the function tf.py_function / tf.numpy_function wraps runs at call time
        if (n->kind == K::Call) {
          std::string c = m_.resolve(n->a);
          if (c == "tensorflow.py_function" || c == "tensorflow.numpy_function") return false;
        }
        return true;
      });
  }

 private:
  Report& r_;
  const Module& m_;
  const FnInfo& f_;

  std::string where() const { return " inside " + traced_name(f_); }

  void visit(const P& n) {
    switch (n->kind) {
      case K::Call:
        call(n);
        break;
      case K::Assign:
        for (auto& t : n->v1) store(t, n);
        break;
      case K::AugAssign:
      case K::AnnAssign:
        store(n->a, n);
        break;
      case K::Delete:
        for (auto& t : n->v1) store(t, n);
        break;
      default:
        break;
    }
  }

  // A Python container known from its binding: a list/dict/set display or constructor.
  bool container_value(const Node* v) const {
    if (!v) return false;
    if (v->kind == K::List || v->kind == K::Dict || v->kind == K::Set || v->kind == K::ListComp ||
        v->kind == K::DictComp || v->kind == K::SetComp)
      return true;
    if (v->kind == K::Call) {
      if (v->a->kind == K::Name && (v->a->s == "list" || v->a->s == "dict" || v->a->s == "set"))
        return true;
      std::string r = m_.resolve(v->a);
      return r.compare(0, 12, "collections.") == 0;
    }
    return false;
  }

  bool known_container(const P& x) const {
    if (x->kind == K::Name) {
      auto it = m_.top_assigns.find(x->s);
      return it != m_.top_assigns.end() && container_value(it->second.back());
    }
    if (x->kind == K::Attribute && x->a->kind == K::Name) {
      for (const FnInfo* s = &f_; s; s = s->parent)
        if (s->cls && x->a->s == self_name(*s)) {
          auto it = s->cls->attrs.find(x->s);
          return it != s->cls->attrs.end() && container_value(it->second);
        }
    }
    return false;
  }

  // The container a mutation reaches, when it lives outside the trace.
  bool outside(const P& x) const {
    const Node* root = root_name(x);
    if (!root) return false;
    if (m_.imports.count(root->s)) return false;
    return !local_to_trace(f_, root->s);
  }

  void call(const P& n) {
    const P& fn = n->a;
    if (is_name(fn, "print") && !m_.names_print && !local_to_trace(f_, "print")) {
      r_.add(n.get(), "TFS201", "print()" + where() + " runs only while tracing, not on every call",
             f_.traced_by);
      return;
    }
    std::string r = m_.resolve(fn);
    static const std::set<std::string> clocks = {"time.time",
                                                 "time.perf_counter",
                                                 "time.monotonic",
                                                 "time.process_time",
                                                 "time.time_ns",
                                                 "time.perf_counter_ns",
                                                 "datetime.datetime.now",
                                                 "datetime.datetime.utcnow",
                                                 "datetime.datetime.today",
                                                 "datetime.date.today",
                                                 "datetime.now",
                                                 "datetime.utcnow"};
    if (clocks.count(r)) {
      r_.add(n.get(), "TFS204",
             r + "()" + where() +
                 " is read once, at trace time, and baked into the graph as a constant",
             f_.traced_by);
      return;
    }
    if (r.compare(0, 7, "random.") == 0 || r.compare(0, 13, "numpy.random.") == 0) {
      r_.add(n.get(), "TFS205",
             r + "()" + where() + " draws once, at trace time: every call reuses the same number",
             f_.traced_by);
      return;
    }
    if (r.compare(0, 6, "numpy.") == 0) {
      auto tensor = [&](const P& a) { return m_.kind_of(a, &f_) == Kind::Tensor; };
      bool any = false;
      for (auto& a : n->v1) any = any || tensor(a->kind == K::Starred ? a->a : a);
      for (auto& k : n->v2) any = any || tensor(k->a);
      if (any)
        r_.add(n.get(), "TFS206",
               "np." + r.substr(6) + "() on a symbolic tensor" + where() +
                   ": NumPy cannot convert a symbolic tf.Tensor (NotImplementedError)",
               f_.traced_by);
      return;
    }
    if (fn->kind != K::Attribute) return;
    if (fn->s == "numpy" && n->v1.empty() && n->v2.empty()) {
      Kind k = m_.kind_of(fn->a, &f_);
      if (k != Kind::Numpy && k != Kind::Python && m_.resolve(fn->a).empty())
        r_.add(n.get(), "TFS206",
               "`" + describe(fn) + "()`" + where() +
                   ": .numpy() is not available on a symbolic tensor (AttributeError)",
               f_.traced_by);
      return;
    }
    static const std::set<std::string> list_only = {
        "append", "extend", "insert", "appendleft", "extendleft", "setdefault", "popitem"};
    static const std::set<std::string> ambiguous = {"update", "add",     "pop",  "clear",
                                                    "remove", "discard", "sort", "reverse"};
    bool mutator = list_only.count(fn->s) || (ambiguous.count(fn->s) && known_container(fn->a));
    if (!mutator || !outside(fn->a)) return;
    if (!list_only.count(fn->s) && m_.kind_of(fn->a, &f_) == Kind::Tensor) return;
    r_.add(n.get(), "TFS202",
           "`" + describe(fn) + "()`" + where() +
               " mutates a Python container that lives outside it: the mutation runs once, at "
               "trace time, and stores symbolic tensors",
           f_.traced_by);
  }

  void store(const P& t, const P& stmt) {
    if (!t) return;
    if (t->kind == K::Tuple || t->kind == K::List) {
      for (auto& e : t->v1) store(e, stmt);
      return;
    }
    if (t->kind == K::Name) {
      bool global = false, nonlocal = false;
      for (const FnInfo* s = &f_; s; s = s->parent) {
        if (s->globals.count(t->s)) global = true;
        if (s->nonlocals.count(t->s)) nonlocal = true;
        if (global || nonlocal || s->locals.count(t->s)) break;
      }
      if (global || nonlocal)
        r_.add(stmt.get(), "TFS203",
               std::string(global ? "global" : "nonlocal") + " `" + t->s + "` is rebound" +
                   where() + ": the assignment runs only while tracing",
               f_.traced_by);
      return;
    }
    if (t->kind == K::Subscript && outside(t->a) && m_.kind_of(t->a, &f_) != Kind::Tensor &&
        root_name(t->a) && (known_container(t->a) || !local_to_trace(f_, root_name(t->a)->s)))
      r_.add(stmt.get(), "TFS202",
             "`" + describe(t->a) + "[...]` is assigned" + where() +
                 ", a Python container that lives outside it: the change happens once, at trace "
                 "time, and stores symbolic tensors",
             f_.traced_by);
  }
};

}  // namespace

std::string traced_name(const FnInfo& f) {
  const FnInfo* root = f.traced_by ? f.traced_by : &f;
  std::string root_text =
      root->keras_step ? "Keras's traced `" + root->name + "`" : "tf.function `" + root->name + "`";
  if (root == &f || f.def->kind == K::Lambda || (f.parent && f.parent->traced_by == root))
    return root_text;
  return "`" + f.name + "` (which " + root_text + " calls)";
}

void check_side_effects(Report& r) {
  for (auto& f : r.module.fns)
    if (f->traced_by) SideEffects(r, *f).run();
}

}  // namespace tfs::lint::detail
