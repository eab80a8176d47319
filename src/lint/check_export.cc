// TFS5xx: export. Ops a TFLite conversion cannot map to builtin kernels, and variables a
// SavedModel cannot track.
#include <functional>
#include <map>
#include <set>

#include "checks.h"

namespace tfs::lint::detail {
namespace {

// TF APIs whose ops have no TFLite builtin kernel: each converted by TF 2.21's TFLiteConverter
// (from_concrete_functions, default builtin op set) fails with "ops are not supported by the
// native TFLite runtime" naming the op below (checked against the oracle).
const std::map<std::string, std::string>& no_builtin() {
  static const std::map<std::string, std::string> table = {
      {"py_function", "EagerPyFunc"},
      {"numpy_function", "PyFunc"},
      {"print", "PrintV2"},
      {"strings.length", "StringLength"},
      {"strings.split", "StringSplitV2"},
      {"strings.regex_replace", "StaticRegexReplace"},
      {"strings.to_number", "StringToNumber"},
      {"strings.as_string", "AsString"},
      {"as_string", "AsString"},
      {"strings.lower", "StringLower"},
      {"strings.join", "StringJoin"},
      {"strings.reduce_join", "ReduceJoin"},
      {"strings.format", "StringFormat"},
      {"linalg.svd", "Svd"},
      {"linalg.qr", "Qr"},
      {"linalg.inv", "MatrixInverse"},
      {"linalg.det", "MatrixDeterminant"},
      {"linalg.cholesky", "Cholesky"},
      {"linalg.eigh", "SelfAdjointEigV2"},
      {"linalg.triangular_solve", "MatrixTriangularSolve"},
      {"linalg.lu", "Lu"},
      {"math.bincount", "DenseBincount"},
      {"math.erf", "Erf"},
      {"math.cumprod", "Cumprod"},
      {"math.sinh", "Sinh"},
      {"math.cosh", "Cosh"},
      {"math.asin", "Asin"},
      {"math.acos", "Acos"},
      {"math.atan", "Atan"},
      {"math.tan", "Tan"},
      {"math.bessel_i0", "BesselI0"},
      {"math.igamma", "Igamma"},
      {"math.digamma", "Digamma"},
      {"math.erfinv", "Erfinv"},
      {"math.reduce_euclidean_norm", "EuclideanNorm"},
      {"signal.fft", "FFT"},
      {"io.decode_png", "DecodePng"},
      {"image.decode_png", "DecodePng"},
      {"io.decode_raw", "DecodeRaw"},
      {"random.shuffle", "RandomShuffle"},
      {"random.gamma", "RandomGamma"},
      {"histogram_fixed_width", "HistogramFixedWidth"},
      {"nn.ctc_greedy_decoder", "CTCGreedyDecoder"},
  };
  return table;
}

bool mentions_select_tf_ops(const Module& m) {
  bool found = false;
  for (auto& s : m.parsed.body)
    walk(
        s,
        [&](const P& n) {
          if (n->kind == K::Attribute && (n->s == "SELECT_TF_OPS" || n->s == "allow_custom_ops"))
            found = true;
          return !found;
        },
        true);
  return found;
}

// The tf.functions whose concrete functions go to TFLiteConverter.from_concrete_functions.
std::set<const FnInfo*> converted_functions(const Module& m) {
  std::set<const FnInfo*> out;
  std::map<std::string, const FnInfo*> concrete;  // name = f.get_concrete_function(...)
  auto of_concrete = [&](const Node* e, const FnInfo* scope) -> const FnInfo* {
    if (e->kind == K::Name) {
      auto it = concrete.find(e->s);
      return it == concrete.end() ? nullptr : it->second;
    }
    if (e->kind == K::Call && e->a->kind == K::Attribute && e->a->s == "get_concrete_function")
      return m.tf_callee(e->a->a, scope);
    return nullptr;
  };
  std::function<void(const P&, const FnInfo*)> visit = [&](const P& n, const FnInfo* scope) {
    if (n->kind == K::FunctionDef || n->kind == K::Lambda) scope = m.fn_info(n.get());
    if (n->kind == K::Assign && n->v1.size() == 1 && n->v1[0]->kind == K::Name)
      if (const FnInfo* f = of_concrete(n->a.get(), scope)) concrete[n->v1[0]->s] = f;
    if (n->kind == K::Call &&
        m.resolve(n->a) == "tensorflow.lite.TFLiteConverter.from_concrete_functions" &&
        !n->v1.empty() && (n->v1[0]->kind == K::List || n->v1[0]->kind == K::Tuple))
      for (auto& e : n->v1[0]->v1)
        if (const FnInfo* f = of_concrete(e.get(), scope)) out.insert(f);
    for_children(*n, [&](const P& c) { visit(c, scope); });
  };
  for (auto& s : m.parsed.body) visit(s, nullptr);
  return out;
}

void tflite(Report& r) {
  const Module& m = r.module;
  std::set<const FnInfo*> converted = converted_functions(m);
  if (converted.empty() || mentions_select_tf_ops(m)) return;
  for (auto& g : m.fns) {
    if (!g->traced_by || !converted.count(g->traced_by)) continue;
    const Block body = g->def->kind == K::Lambda ? Block{g->def->b} : g->def->v1;
    for (auto& s : body)
      walk(s, [&](const P& n) {
        if (n->kind != K::Call) return true;
        std::string c = m.resolve(n->a);
        if (c.compare(0, 11, "tensorflow.") != 0) return true;
        auto it = no_builtin().find(c.substr(11));
        if (it != no_builtin().end())
          r.add(n.get(), "TFS501",
                "tf." + it->first + " (TF op " + it->second +
                    ") has no TFLite builtin kernel, and tf.function `" + g->traced_by->name +
                    "` is converted to TFLite: conversion fails unless Select TF ops are enabled",
                g->traced_by);
        return true;
      });
  }
}

// ---------------------------------------------------------------- TFS502

bool is_variable_ctor(const Module& m, const Node* v) {
  return v && v->kind == K::Call &&
         (m.resolve(v->a) == "tensorflow.Variable" || m.resolve(v->a) == "keras.Variable");
}

void saved_variables(Report& r) {
  const Module& m = r.module;
  // saved objects: the first argument of tf.saved_model.save, and what was attached to them
  std::set<const ClassInfo*> saved_classes;
  std::set<const FnInfo*> saved_fns;
  std::set<std::string> saved_names;
  std::set<std::string> tracked;  // global variables assigned to some object's attribute
  for (auto& s : m.parsed.body)
    walk(
        s,
        [&](const P& n) {
          if (n->kind == K::Call && m.resolve(n->a) == "tensorflow.saved_model.save" &&
              !n->v1.empty()) {
            const P& obj = n->v1[0];
            if (obj->kind == K::Name) saved_names.insert(obj->s);
            if (obj->kind == K::Call && obj->a->kind == K::Name) {
              auto c = m.top_classes.find(obj->a->s);
              if (c != m.top_classes.end()) saved_classes.insert(c->second);
            }
          }
          if (n->kind == K::Assign)
            for (auto& t : n->v1)
              if (t->kind == K::Attribute)
                walk(n->a, [&](const P& v) {
                  if (v->kind == K::Name) tracked.insert(v->s);
                  return true;
                });
          return true;
        },
        true);
  for (const std::string& name : saved_names) {
    auto it = m.top_assigns.find(name);
    if (it == m.top_assigns.end()) continue;
    for (const Node* v : it->second)
      if (v->kind == K::Call && v->a->kind == K::Name) {
        auto c = m.top_classes.find(v->a->s);
        if (c != m.top_classes.end()) saved_classes.insert(c->second);
      }
  }
  // functions attached to a saved name: obj.f = tf.function(...) / obj.f = f
  for (auto& s : m.parsed.body)
    if (s->kind == K::Assign)
      for (auto& t : s->v1)
        if (t->kind == K::Attribute && t->a->kind == K::Name && saved_names.count(t->a->s)) {
          FnInfo* f = nullptr;
          if (s->a->kind == K::Call && m.resolve(s->a->a) == "tensorflow.function" &&
              !s->a->v1.empty())
            f = m.callee(s->a->v1[0], nullptr);
          else
            f = m.tf_callee(s->a, nullptr);
          if (f) saved_fns.insert(f);
        }
  for (auto& f : m.fns)
    if (f->tf_function && f->cls && saved_classes.count(f->cls)) saved_fns.insert(f.get());
  std::set<std::pair<const FnInfo*, std::string>> done;
  for (auto& g : m.fns) {
    if (!g->traced_by || !saved_fns.count(g->traced_by) || g->def->kind != K::FunctionDef) continue;
    for (auto& s : g->def->v1)
      walk(s, [&](const P& n) {
        if (n->kind != K::Name || n->ctx != autograph::detail::Ctx::Load) return true;
        for (const FnInfo* sc = g.get(); sc; sc = sc->parent)
          if (sc->locals.count(n->s) && !sc->globals.count(n->s)) return true;
        auto it = m.top_assigns.find(n->s);
        if (it == m.top_assigns.end() || it->second.size() != 1 ||
            !is_variable_ctor(m, it->second[0]) || tracked.count(n->s))
          return true;
        if (!done.insert({g->traced_by, n->s}).second) return true;
        r.add(n.get(), "TFS502",
              "tf.Variable `" + n->s + "` is captured by tf.function `" + g->traced_by->name +
                  "`, which is saved, but no saved object tracks it: tf.saved_model.save "
                  "refuses the untracked resource and SavedModel cannot restore it",
              g->traced_by);
        return true;
      });
  }
}

}  // namespace

void check_export(Report& r) {
  tflite(r);
  saved_variables(r);
}

}  // namespace tfs::lint::detail
