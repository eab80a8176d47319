// TFS4xx: what AutoGraph rejects, cannot convert, or converts into something unexpected.
#include <functional>
#include <map>
#include <set>

#include "checks.h"
#include "passes.h"

namespace tfs::lint::detail {
namespace {

class Autograph {
 public:
  Autograph(Report& r, const FnInfo& f) : r_(r), m_(r.module), f_(f) {}

  void run() {
    if (f_.def->kind != K::FunctionDef) return;
    const FnInfo& root = *f_.traced_by;
    if (root.autograph) {
      block(f_.def->v1, Loops{});
    } else {
      without_autograph(f_.def->v1);
    }
    unrolled_loops(f_.def->v1);
    if (&root == &f_ && root.autograph && root.tf_function) unsupported();
  }

 private:
  Report& r_;
  const Module& m_;
  const FnInfo& f_;

  struct Loops {
    const Node* tensor_loop = nullptr;  // innermost enclosing TF loop
    const Node* python_loop = nullptr;  // innermost enclosing Python loop
    bool innermost_is_python = false;
    int ifs_in_loop = 0;              // If statements inside the innermost loop
    const Node* tensor_if = nullptr;  // innermost If with a tensor test, inside that loop
  };

  Kind kind(const P& e) const { return m_.kind_of(e, &f_); }

  bool tensor_for(const Node& n) const {
    const P& it = n.b;
    if (it->kind == K::Call && is_name(it->a, "range")) {
      for (auto& a : it->v1)
        if (kind(a) == Kind::Tensor) return true;
      return false;
    }
    return kind(it) == Kind::Tensor;
  }

  // Python loops whose iteration count is known from the source: range over Python values,
  // a literal list, while True / a Python test.
  bool python_for(const Node& n) const {
    const P& it = n.b;
    if (it->kind == K::Call && is_name(it->a, "range")) return !tensor_for(n);
    return it->kind == K::List || it->kind == K::Tuple;
  }

  void block(const Block& b, Loops l) {
    for (auto& s : b) stmt(s, l);
  }

  void stmt(const P& n, Loops l) {
    switch (n->kind) {
      case K::FunctionDef:
      case K::ClassDef:
        return;
      case K::For:
      case K::While: {
        bool tensor = n->kind == K::For ? tensor_for(*n) : kind(n->a) == Kind::Tensor;
        bool python = n->kind == K::For ? python_for(*n) : kind(n->a) == Kind::Python;
        Loops inner = l;
        inner.ifs_in_loop = 0;
        inner.tensor_if = nullptr;
        inner.innermost_is_python = !tensor && python;
        if (tensor) inner.tensor_loop = n.get();
        if (!tensor && python) inner.python_loop = n.get();
        if (!tensor && !python) {  // unknown iterable: say nothing inside
          inner.tensor_loop = inner.python_loop = nullptr;
        }
        block(n->v1, inner);
        block(n->v2, l);
        return;
      }
      case K::If: {
        Loops inner = l;
        ++inner.ifs_in_loop;
        if (kind(n->a) == Kind::Tensor) inner.tensor_if = n.get();
        block(n->v1, inner);
        block(n->v2, inner);
        return;
      }
      case K::With:
        block(n->v2, l);
        return;
      case K::Try:
        block(n->v1, l);
        for (auto& h : n->v2) block(h->v1, l);
        block(n->v3, l);
        block(n->v4, l);
        return;
      case K::Return:
        if (l.tensor_loop && l.ifs_in_loop > 0 && !l.innermost_is_python) {
          r_.add(n.get(), "TFS401",
                 "return under a condition inside a TensorFlow loop (line " +
                     std::to_string(l.tensor_loop->line) + ") in " + traced_name(f_) +
                     ": AutoGraph raises \"a return statement cannot be placed inside this "
                     "TensorFlow loop\"",
                 f_.traced_by);
          return;
        }
        [[fallthrough]];
      case K::Break:
        if (l.python_loop && l.tensor_if && (n->kind == K::Return || l.innermost_is_python))
          r_.add(n.get(), "TFS402",
                 std::string(n->kind == K::Break ? "break" : "return") +
                     " depends on a tensor (line " + std::to_string(l.tensor_if->line) +
                     ") inside the Python loop at line " + std::to_string(l.python_loop->line) +
                     " in " + traced_name(f_) + ": AutoGraph cannot turn it into a TensorFlow loop",
                 f_.traced_by);
        return;
      default:
        return;
    }
  }

  // TFS403: with autograph=False, Python control flow on a tensor raises.
  void without_autograph(const Block& body) {
    auto bool_use = [&](const P& test, const Node* at, const char* what) {
      if (kind(test) == Kind::Tensor)
        r_.add(at, "TFS403",
               std::string("tensor `") + describe(test) + "` is used as a Python bool (" + what +
                   ") in " + traced_name(f_) +
                   " with autograph=False: this raises OperatorNotAllowedInGraphError",
               f_.traced_by);
    };
    for (auto& s : body)
      walk(s, [&](const P& n) {
        switch (n->kind) {
          case K::If:
            bool_use(n->a, n.get(), "if");
            break;
          case K::While:
            bool_use(n->a, n.get(), "while");
            break;
          case K::IfExp:
            bool_use(n->a, n.get(), "conditional expression");
            break;
          case K::Assert:
            bool_use(n->a, n.get(), "assert");
            break;
          case K::BoolOp:
            bool_use(n->v1[0], n.get(), n->s == "and" ? "and" : "or");
            break;
          case K::UnaryOp:
            if (n->s == "not") bool_use(n->a, n.get(), "not");
            break;
          case K::For:
            if (kind(n->b) == Kind::Tensor && !(n->b->kind == K::Call && is_name(n->b->a, "range")))
              r_.add(n.get(), "TFS403",
                     "a symbolic tensor is iterated in " + traced_name(f_) +
                         " with autograph=False: this raises OperatorNotAllowedInGraphError",
                     f_.traced_by);
            break;
          default:
            break;
        }
        return true;
      });
  }

  // TFS406: long Python range() loops unroll.
  long constant_int(const P& e) const {
    if (!e) return -1;
    if (e->kind == K::Constant && e->ckind == ConstKind::Int) {
      try {
        return std::stol(e->s, nullptr, 0);
      } catch (...) {
        return -1;
      }
    }
    if (e->kind == K::Name) {
      auto it = m_.top_assigns.find(e->s);
      if (it != m_.top_assigns.end() && it->second.size() == 1 && !f_.locals.count(e->s)) {
        const Node* v = it->second[0];
        if (v->kind == K::Constant && v->ckind == ConstKind::Int) {
          try {
            return std::stol(v->s, nullptr, 0);
          } catch (...) {
            return -1;
          }
        }
      }
    }
    return -1;
  }

  void unrolled_loops(const Block& body) {
    for (auto& s : body)
      walk(s, [&](const P& n) {
        if (n->kind != K::For || n->b->kind != K::Call || !is_name(n->b->a, "range") ||
            m_.callee(n->b->a, &f_))
          return true;
        const Block& a = n->b->v1;
        long count = -1;
        if (a.size() == 1) count = constant_int(a[0]);
        if (a.size() == 2 && constant_int(a[0]) >= 0 && constant_int(a[1]) >= 0)
          count = constant_int(a[1]) - constant_int(a[0]);
        if (count < r_.options.unroll_threshold) return true;
        bool ops = false;
        for (auto& b : n->v1)
          walk(b, [&](const P& x) {
            if (x->kind == K::Call || x->kind == K::BinOp) ops = true;
            return !ops;
          });
        if (ops)
          r_.add(n.get(), "TFS406",
                 "Python loop `for ... in range(" + std::to_string(count) + ")` in " +
                     traced_name(f_) + " is unrolled: the graph gets " + std::to_string(count) +
                     " copies of the loop body",
                 f_.traced_by);
        return true;
      });
  }

  // TFS407: constructs AutoGraph's unsupported-features checker rejects.
  void unsupported() {
    std::string why;
    for (auto& d : f_.def->v2)
      if (m_.resolve(d).find("do_not_convert") != std::string::npos) return;
    P holder = std::make_shared<Node>(K::FunctionDef);
    holder->v1 = f_.def->v1;
    if (const Node* bad = autograph::detail::find_unsupported(holder, &why))
      r_.add(bad, "TFS407",
             "AutoGraph could not transform tf.function `" + f_.name +
                 "` and will run it as-is: " + why,
             &f_);
  }
};

// ---------------------------------------------------------------- TFS404 / TFS405

bool dataset_chain(const Module& m, const Node* e, int depth = 0) {
  if (!e || depth > 32) return false;
  if (e->kind == K::Call) {
    if (m.resolve(e->a).compare(0, 16, "tensorflow.data.") == 0) return true;
    return dataset_chain(m, e->a.get(), depth + 1);
  }
  if (e->kind == K::Attribute) return dataset_chain(m, e->a.get(), depth + 1);
  if (e->kind == K::Name) {
    auto it = m.top_assigns.find(e->s);
    return it != m.top_assigns.end() && it->second.size() == 1 &&
           dataset_chain(m, it->second[0], depth + 1);
  }
  return false;
}

std::vector<std::string> lambda_params(const Node& lam) {
  std::vector<std::string> out;
  const P& a = lam.a;
  if (!a) return out;
  for (const Block* v : {&a->v1, &a->v2, &a->v3})
    for (auto& x : *v) out.push_back(x->s);
  if (a->a) out.push_back("*" + a->a->s);
  if (a->b) out.push_back("**" + a->b->s);
  return out;
}

void lambdas_and_sources(Report& r) {
  const Module& m = r.module;
  std::map<int, std::vector<const Node*>> by_line;
  std::set<const Node*> converted;  // lambdas AutoGraph converts as entities of their own
  std::set<std::string> exec_namespaces;
  for (auto& s : m.parsed.body)
    walk(
        s,
        [&](const P& n) {
          if (n->kind == K::Lambda) by_line[n->line].push_back(n.get());
          if (n->kind == K::Call) {
            std::string c = m.resolve(n->a);
            static const std::set<std::string> ds = {"map",        "filter",         "flat_map",
                                                     "interleave", "reduce",         "scan",
                                                     "take_while", "group_by_window"};
            if (c == "tensorflow.function" || (n->a->kind == K::Attribute && ds.count(n->a->s) &&
                                               dataset_chain(m, n->a->a.get())))
              for (auto& a : n->v1)
                if (a->kind == K::Lambda) converted.insert(a.get());
            if (is_name(n->a, "exec") && n->v1.size() >= 2 && n->v1[1]->kind == K::Name)
              exec_namespaces.insert(n->v1[1]->s);
          }
          return true;
        },
        true);
  for (auto& [line, lams] : by_line) {
    if (lams.size() < 2) continue;
    for (size_t i = 0; i < lams.size(); ++i) {
      if (!converted.count(lams[i])) continue;
      bool twin = false;
      for (size_t j = 0; j < lams.size(); ++j)
        twin = twin || (j != i && lambda_params(*lams[j]) == lambda_params(*lams[i]));
      if (!twin) continue;
      r.add(lams[i], "TFS404",
            "two lambdas with the same arguments on line " + std::to_string(line) +
                ": AutoGraph cannot tell their source apart (\"found multiple definitions with "
                "identical signatures\") and runs them unconverted");
      break;
    }
  }
  // TFS405: tf.function over a function made by eval/exec
  auto from_eval = [&](const Node* x) {
    if (!x) return false;
    if (x->kind == K::Call && is_name(x->a, "eval")) return true;
    if (x->kind == K::Subscript && x->a->kind == K::Name && exec_namespaces.count(x->a->s))
      return true;
    return false;
  };
  for (auto& s : m.parsed.body)
    walk(
        s,
        [&](const P& n) {
          if (n->kind != K::Call || n->v1.empty() || m.resolve(n->a) != "tensorflow.function")
            return true;
          const Node* x = n->v1[0].get();
          if (x->kind == K::Name) {
            auto it = m.top_assigns.find(x->s);
            if (it != m.top_assigns.end() && it->second.size() == 1) x = it->second[0];
          }
          if (from_eval(x))
            r.add(n.get(), "TFS405",
                  "tf.function wraps a function made by " +
                      std::string(x->kind == K::Call ? "eval" : "exec") +
                      ": AutoGraph cannot find its source and runs it unconverted, so tensor "
                      "conditions in it raise OperatorNotAllowedInGraphError");
          return true;
        },
        true);
}

}  // namespace

void check_autograph(Report& r) {
  for (auto& f : r.module.fns)
    if (f->traced_by && !f->traced_by->keras_step) Autograph(r, *f).run();
  lambdas_and_sources(r);
}

}  // namespace tfs::lint::detail
