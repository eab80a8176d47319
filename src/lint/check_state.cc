// TFS3xx: state. Variables created on every trace, and Python values a graph captured at trace
// time that the program changes afterwards.
#include <functional>
#include <map>
#include <set>

#include "checks.h"

namespace tfs::lint::detail {
namespace {

bool is_keras_layer_ctor(const std::string& r) {
  if (r.compare(0, 13, "keras.layers.") != 0) return false;
  std::string last = r.substr(13);
  return !last.empty() && last.find('.') == std::string::npos &&
         std::isupper(static_cast<unsigned char>(last[0]));
}

// ---------------------------------------------------------------- TFS301

void variables(Report& r, const FnInfo& f) {
  const Module& m = r.module;
  std::set<std::string> layers;  // names bound to a layer built in this body
  std::function<void(const Block&, int)> block;
  std::function<void(const P&, int)> visit = [&](const P& n, int guards) {
    switch (n->kind) {
      case K::FunctionDef:
      case K::Lambda:
      case K::ClassDef:
        return;
      case K::If:
        visit(n->a, guards);
        block(n->v1, guards + 1);
        block(n->v2, guards + 1);
        return;
      case K::Assign:
        if (n->a->kind == K::Call && is_keras_layer_ctor(m.resolve(n->a->a)) && guards == 0)
          for (auto& t : n->v1)
            if (t->kind == K::Name) layers.insert(t->s);
        break;
      case K::Call: {
        std::string c = m.resolve(n->a);
        if (guards == 0 && (c == "tensorflow.Variable" || c == "keras.Variable"))
          r.add(n.get(), "TFS301",
                "tf.Variable created inside tf.function `" + f.name +
                    "` on every trace: tf.function only supports singleton tf.Variables created "
                    "on the first call (ValueError)",
                &f);
        bool layer_called = (n->a->kind == K::Call && is_keras_layer_ctor(m.resolve(n->a->a))) ||
                            (n->a->kind == K::Name && layers.count(n->a->s));
        if (guards == 0 && layer_called)
          r.add(n.get(), "TFS301",
                "Keras layer `" + describe(n->a->kind == K::Call ? n->a->a : n->a) +
                    "` is built inside tf.function `" + f.name +
                    "` and creates its variables on every trace: tf.function only supports "
                    "singleton tf.Variables created on the first call (ValueError)",
                &f);
        break;
      }
      default:
        break;
    }
    for_children(*n, [&](const P& c) { visit(c, guards); });
  };
  block = [&](const Block& b, int guards) {
    for (auto& s : b) visit(s, guards);
  };
  if (f.def->kind == K::FunctionDef) block(f.def->v1, 0);
}

// ---------------------------------------------------------------- TFS302

class Stale {
 public:
  Stale(Report& r, const FnInfo& f, const std::set<std::string>& mutated)
      : r_(r), m_(r.module), f_(f), mutated_(mutated) {}

  void run() {
    // Free names the traced bodies read, and the scope that binds them (null: the module).
    std::map<std::pair<const FnInfo*, std::string>, const Node*> reads;
    for (auto& g : m_.fns) {
      if (g->traced_by != &f_ || g->def->kind != K::FunctionDef) continue;
      std::set<const Node*> callees;  // names in call position are functions, not values
      for (auto& s : g->def->v1)
        walk(s, [&](const P& n) {
          if (n->kind == K::Call && n->a->kind == K::Name) callees.insert(n->a.get());
          if (!callees.count(n.get())) note_read(n, *g, reads);
          return true;
        });
    }
    for (auto& [key, node] : reads) {
      const auto& [scope, name] = key;
      if (!scope && !changeable_global(name)) continue;
      const Block& body = scope ? scope->def->v1 : m_.parsed.body;
      int line = changed_after_call(body, scope, name);
      if (!line) continue;
      std::string what =
          scope ? "closure value `" + name + "` of `" + scope->name + "`" : "global `" + name + "`";
      r_.add(node, "TFS302",
             what + " is read by tf.function `" + f_.name +
                 "` at trace time and changed later (line " + std::to_string(line) +
                 "): the traced graph keeps the old value",
             &f_);
    }
  }

 private:
  Report& r_;
  const Module& m_;
  const FnInfo& f_;
  const std::set<std::string>& mutated_;

  // A module-level name the program may change: bound twice at module level, declared global
  // in a function, or mutated through a method or an item assignment somewhere.
  bool changeable_global(const std::string& name) const {
    auto it = m_.top_assigns.find(name);
    if (it != m_.top_assigns.end() && it->second.size() > 1) return true;
    for (auto& f : m_.fns)
      if (f->globals.count(name)) return true;
    return mutated_.count(name) > 0;
  }

  void note_read(const P& n, const FnInfo& g,
                 std::map<std::pair<const FnInfo*, std::string>, const Node*>& reads) const {
    if (n->kind != K::Name || n->ctx != autograph::detail::Ctx::Load) return;
    const std::string& name = n->s;
    for (const FnInfo* s = &g; s; s = s->parent) {
      if (s->globals.count(name)) break;
      if (s->locals.count(name)) {
        if (s->traced_by) return;  // a local of the trace
        if (s->nested.count(name)) return;
        reads.emplace(std::make_pair(s, name), n.get());
        return;
      }
    }
    if (!m_.top_assigns.count(name) || m_.top_fns.count(name) || m_.top_classes.count(name) ||
        m_.imports.count(name))
      return;
    reads.emplace(std::make_pair(nullptr, name), n.get());
  }

  // Whether `n` (not entering nested functions) calls the tf.function, directly or through a
  // function of the module that calls it.
  bool calls_fn(const P& n, const FnInfo* scope, int depth = 0) const {
    bool found = false;
    walk(n, [&](const P& x) {
      if (found) return false;
      if (x->kind == K::Call) {
        FnInfo* g = m_.callee(x->a, scope);
        if (g == &f_) found = true;
        if (!g && x->a->kind == K::Attribute && x->a->s == f_.name && f_.cls) found = true;
        if (g && g != &f_ && depth < 2 && g->def->kind == K::FunctionDef)
          for (auto& s : g->def->v1)
            if (calls_fn(s, g, depth + 1)) found = true;
      }
      return true;
    });
    return found;
  }

  // The line where `n` rebinds or mutates `name` (bound in `scope`), or 0.
  int changes(const P& n, const FnInfo* scope, const std::string& name) const {
    int line = 0;
    auto hit = [&](const Node* at) {
      if (!line) line = at->line;
    };
    walk(n, [&](const P& x) {
      switch (x->kind) {
        case K::Assign:
          for (auto& t : x->v1) {
            std::vector<std::string> names;
            target_names(t, names);
            for (auto& nm : names)
              if (nm == name) hit(x.get());
            if (t->kind == K::Subscript && is_name(t->a, name)) hit(x.get());
          }
          break;
        case K::AugAssign:
          if (is_name(x->a, name) || (x->a->kind == K::Subscript && is_name(x->a->a, name)))
            hit(x.get());
          break;
        case K::For: {
          std::vector<std::string> names;
          target_names(x->a, names);
          for (auto& nm : names)
            if (nm == name) hit(x.get());
          break;
        }
        case K::Call:
          if (x->a->kind == K::Attribute && is_name(x->a->a, name)) {
            static const std::set<std::string> mut = {"append", "extend", "insert", "update",
                                                      "pop",    "clear",  "remove", "setdefault"};
            if (mut.count(x->a->s)) hit(x.get());
          }
          if (!scope)
            if (FnInfo* g = m_.callee(x->a, scope))
              if (g->globals.count(name) && g->def->kind == K::FunctionDef)
                for (auto& s : g->def->v1)
                  if (changes(s, g, name)) hit(x.get());
          break;
        default:
          break;
      }
      return true;
    });
    return line;
  }

  // A change of `name` after the tf.function was called in `body`, or in a loop that calls it.
  int changed_after_call(const Block& body, const FnInfo* scope, const std::string& name) const {
    bool called = false;
    std::function<int(const Block&)> seq = [&](const Block& b) -> int {
      for (auto& s : b) {
        if (s->kind == K::If || s->kind == K::With || s->kind == K::Try) {
          for (const Block* sub : {&s->v1, &s->v2, &s->v3, &s->v4}) {
            if (s->kind == K::With && sub == &s->v1) continue;
            if (int l = seq(*sub)) return l;
          }
          continue;
        }
        bool c = calls_fn(s, scope);
        int ch = changes(s, scope, name);
        if ((s->kind == K::For || s->kind == K::While) && c && ch) return ch;
        if (called && ch) return ch;
        if (c) called = true;
      }
      return 0;
    };
    return seq(body);
  }
};

// Names mutated through a method call, an item assignment, += or a for loop anywhere.
std::set<std::string> mutated_names(const Module& m) {
  std::set<std::string> names;
  for (auto& s : m.parsed.body)
    walk(
        s,
        [&](const P& x) {
          if (x->kind == K::Call && x->a->kind == K::Attribute && x->a->a->kind == K::Name)
            names.insert(x->a->a->s);
          if (x->kind == K::AugAssign) {
            if (x->a->kind == K::Name) names.insert(x->a->s);
            if (x->a->kind == K::Subscript && x->a->a->kind == K::Name) names.insert(x->a->a->s);
          }
          if (x->kind == K::Assign)
            for (auto& t : x->v1)
              if (t->kind == K::Subscript && t->a->kind == K::Name) names.insert(t->a->s);
          if (x->kind == K::For) {
            std::vector<std::string> t;
            target_names(x->a, t);
            names.insert(t.begin(), t.end());
          }
          return true;
        },
        true);
  return names;
}

}  // namespace

void check_state(Report& r) {
  std::set<std::string> mutated;
  bool computed = false;
  for (auto& f : r.module.fns)
    if (f->tf_function) {
      variables(r, *f);
      if (!computed) {
        mutated = mutated_names(r.module);
        computed = true;
      }
      Stale(r, *f, mutated).run();
    }
}

}  // namespace tfs::lint::detail
