// The linter's view of one parsed module: imports resolved to dotted paths, every function and
// class, which functions are tf.functions, which bodies run at trace time (a tf.function's body
// and the module's functions it calls), and what kind of value a name holds inside them.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ast.h"
#include "parser.h"

namespace tfs::lint::detail {

using autograph::detail::Block;
using autograph::detail::ConstKind;
using autograph::detail::K;
using autograph::detail::Node;
using autograph::detail::P;

// What a value is, as far as the source tells. Ordered: a name assigned several kinds takes the
// largest.
enum class Kind { Unknown, Python, Numpy, Tensor };

struct FnInfo;

struct ClassInfo {
  const Node* def = nullptr;
  std::string name;
  std::vector<std::string> bases;  // resolved dotted paths ("keras.Model", "Base")
  std::map<std::string, FnInfo*> methods;
  // self.<attr> = <value> anywhere in the class's methods (the first assignment).
  std::map<std::string, const Node*> attrs;
  bool keras_model = false;  // subclasses keras.Model / keras.Sequential (through module classes)
  bool tf_module = false;    // tf.Module, keras Layer/Model, tf.train.Checkpoint: trackable
  bool structural = false;   // namedtuple, ExtensionType, attrs or __tf_tracing_type__
};

struct FnInfo {
  const Node* def = nullptr;  // FunctionDef or Lambda
  FnInfo* parent = nullptr;   // enclosing function
  ClassInfo* cls = nullptr;   // the class a method is defined in
  std::string name;           // "<lambda>" for lambdas
  bool tf_function = false;
  bool autograph = true;
  bool input_signature = false;
  bool keras_step = false;            // train_step/test_step/predict_step of a Keras model
  const Node* tf_site = nullptr;      // the decorator or tf.function(...) call
  const FnInfo* traced_by = nullptr;  // the tf.function whose trace runs this body
  std::vector<std::string> params;    // in order, self/cls of methods excluded
  std::map<std::string, const Node*> defaults;
  std::set<std::string> locals;  // bound in the body: params, assignments, loop targets, defs
  std::set<std::string> globals, nonlocals;
  std::map<std::string, FnInfo*> nested;  // defs directly in this body
  std::map<std::string, Kind> kinds;      // traced bodies: what each local holds
  int first_line = 0, last_line = 0;      // the def's span, decorators included
};

struct Module {
  autograph::detail::ParsedModule parsed;
  std::map<std::string, std::string> imports;  // local name -> dotted path
  std::vector<std::unique_ptr<FnInfo>> fns;
  std::vector<std::unique_ptr<ClassInfo>> classes;
  std::map<const Node*, FnInfo*> fn_of;
  std::map<const Node*, ClassInfo*> class_of;
  std::map<std::string, FnInfo*> top_fns;         // module-level defs
  std::map<std::string, ClassInfo*> top_classes;  // module-level classes
  // Module-level `name = value` assignments, in order.
  std::map<std::string, std::vector<const Node*>> top_assigns;
  // Names bound to a tf.function: module-level `f = tf.function(g)` (and decorated defs via
  // top_fns), and class attributes `self.f = tf.function(...)`.
  std::map<std::string, FnInfo*> tf_aliases;
  std::map<const ClassInfo*, std::map<std::string, FnInfo*>> tf_attr_aliases;
  bool names_print = false;  // `print` is rebound in the module

  // The FnInfo of a FunctionDef or Lambda node (every one in the module has one).
  FnInfo* fn_info(const Node* def) const {
    auto it = fn_of.find(def);
    return it == fn_of.end() ? nullptr : it->second;
  }
  // Canonical dotted path of a Name/Attribute chain through the imports ("" when the root is not
  // an import): tf.function -> "tensorflow.function", np.random.rand -> "numpy.random.rand".
  std::string resolve(const P& e) const;
  // The function a call's callee names, from inside `scope` (lexically, then the module; self.m
  // for methods), or null.
  FnInfo* callee(const P& func, const FnInfo* scope) const;
  // The tf.function a call's callee names (a decorated def, an alias, self.m), or null.
  FnInfo* tf_callee(const P& func, const FnInfo* scope) const;
  // The kind of value an expression gives inside `scope` (traced bodies; Unknown elsewhere).
  Kind kind_of(const P& e, const FnInfo* scope) const;
};

// tf.compat.v2 is tf; tfscope's API mirrors tf's; tf.keras and tf_keras are Keras; TF's own
// modules name tf.function by its implementation's path.
std::string canonical_path(std::string dotted);

// Builds the model: runs the analyses the rules share.
std::unique_ptr<Module> build_module(autograph::detail::ParsedModule parsed);

// Tree helpers shared by the rules.
template <class F>
void for_children(const Node& n, F&& f) {
  for (const P* c : {&n.a, &n.b, &n.c})
    if (*c) f(*c);
  for (const Block* v : {&n.v1, &n.v2, &n.v3, &n.v4, &n.v5})
    for (const P& c : *v)
      if (c) f(c);
}

// Visits every node under `n` (n included) in pre-order, not entering nested functions, lambdas
// or classes unless `into_nested`. `f` returns false to skip a node's children.
template <class F>
void walk(const P& n, F&& f, bool into_nested = false) {
  if (!n || !f(n)) return;
  if (!into_nested && (n->kind == K::FunctionDef || n->kind == K::Lambda || n->kind == K::ClassDef))
    return;
  for_children(*n, [&](const P& c) { walk(c, f, into_nested); });
}
template <class F>
void walk_body(const Node& fn_or_block_owner, const Block& body, F&& f, bool into_nested = false) {
  (void)fn_or_block_owner;
  for (const P& s : body) walk(s, f, into_nested);
}

bool is_name(const Node* e, std::string_view id);
inline bool is_name(const P& e, std::string_view id) {
  return is_name(e.get(), id);
}
bool is_constant(const Node* e);  // a literal number, string, True/False/None
inline bool is_constant(const P& e) {
  return is_constant(e.get());
}
std::string describe(const P& e);  // short source text for messages ("xs.append", "i")
// The simple names an assignment target binds (a, (b, c), [d, *e]).
void target_names(const P& target, std::vector<std::string>& out);
// The name of a method's first parameter (self), "" for other functions.
std::string self_name(const FnInfo& method);
// The root Name of an Attribute/Subscript/Call chain, or null.
const Node* root_name(const P& e);

}  // namespace tfs::lint::detail
