// The AutoGraph passes, in TF's order (impl/api.py PyToTF.transform_ast). Each works in place
// on the function's syntax tree.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis.h"
#include "ast.h"

namespace tfs::autograph::detail {

// pyct/naming.py: one namer per converted entity.
class Namer {
 public:
  explicit Namer(Names global_namespace) : globals_(std::move(global_namespace)) {}
  std::string new_symbol(const std::string& root, const Names& reserved);

 private:
  Names globals_;
  Names generated_;
};

struct Context {
  explicit Context(Names globals) : namer(std::move(globals)) {}
  Namer namer;
  QnTable qns;
  // TF's scope.referenced for the body of each function (keyed by FunctionDef/Lambda node).
  std::map<const Node*, Names> referenced;
  // Context-manager name ('fscope', 'fscope_1', ...) of each function.
  std::map<const Node*, std::string> context_name;
  int if_stmts = 0, while_stmts = 0, for_stmts = 0;
};

// Parses an expression written by the converter (names in it are not "original").
P gen_expr(const std::string& text);

void check_unsupported(const P& fn);  // core/unsupported_features_checker.py
// The first construct check_unsupported rejects (pre-order), with TF's reason; null when none.
const Node* find_unsupported(const P& fn, std::string* why);
void compute_referenced(const P& fn, Context& ctx);       // activity: scope.referenced per function
void functions_pass(const P& fn, Context& ctx);           // converters/functions.py
void directives_pass(const P& fn, Context& ctx);          // converters/directives.py
void break_pass(const P& fn, Context& ctx);               // converters/break_statements.py
void continue_pass(const P& fn, Context& ctx);            // converters/continue_statements.py
void return_pass(const P& fn, Context& ctx);              // converters/return_statements.py
void call_trees_pass(const P& fn, Context& ctx);          // converters/call_trees.py
void call_trees_pass_lambda(const P& lam, Context& ctx);  // the same, for a lambda entity
void control_flow_pass(const P& fn, Context& ctx);        // converters/control_flow.py
void conditional_expressions_pass(const P& fn);           // converters/conditional_expressions.py
void logical_expressions_pass(const P& fn);               // converters/logical_expressions.py
void variables_pass(const P& fn);                         // converters/variables.py

}  // namespace tfs::autograph::detail
