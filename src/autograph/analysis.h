// Static analysis as AutoGraph's pyct does it (qual_names, activity, reaching definitions,
// reaching function definitions, liveness), computed structurally over the statement tree.
#pragma once

#include <map>
#include <set>
#include <string>

#include "ast.h"

namespace tfs::autograph::detail {

using Names = std::set<std::string>;  // qualified names by str(), which is also QN order

// What TF's QN knows about a qualified name.
struct QnInfo {
  bool simple = true;
  Names support;  // the simple symbols it depends on (a.b -> a; a[i] -> a, i)
  P ast;          // an expression that evaluates it (Load context, not an original name)
};

// Activity of a block or statement (activity.Scope).
struct Activity {
  Names read, modified, bound, deleted, globals, nonlocals, params;
};

class QnTable {
 public:
  // The QN string of a Name/Attribute/Subscript, or "" when it has none.
  std::string of(const P& n);
  const QnInfo& info(const std::string& qn) const { return table_.at(qn); }
  Names owners(const std::string& qn) const;

 private:
  std::map<std::string, QnInfo> table_;
  std::map<std::string, std::string> parent_;
};

// Activity of a list of statements as one non-isolated block (what BODY_SCOPE holds).
Activity block_activity(const Block& b, QnTable& qns);
// Activity of one CFG node: a simple statement (nested function bodies excluded), or an
// expression such as an if test.
Activity node_activity(const P& n, QnTable& qns);
// Names read anywhere in `fn` (args and body) as TF's `scope.referenced` sees them from inside:
// including free names of nested functions, attribute names of composite reads.
Names referenced_names(const P& fn, QnTable& qns);

// Annotations for one control-flow statement (If, While, For).
struct FlowInfo {
  Names defined_in, live_in, live_out;
  Activity body, orelse, iterate;  // BODY_SCOPE, ORELSE_SCOPE, ITERATE_SCOPE
};

// Runs reaching definitions and liveness over `fn` and every function nested in it.
std::map<const Node*, FlowInfo> analyze_control_flow(const P& fn, QnTable& qns);

// Globals and nonlocals declared in a function's body (its BODY_SCOPE).
Activity function_scope(const P& fn, QnTable& qns);

}  // namespace tfs::autograph::detail
