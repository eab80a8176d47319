// The Python syntax tree the converter works on: one node type for every statement and
// expression, shaped like CPython's `ast` module so that each AutoGraph pass reads like TF's.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tfs::autograph::detail {

enum class K {
  // expressions
  Name,            // s = id
  Constant,        // s = value (decoded text for str/bytes, literal text for numbers), ckind
  Attribute,       // a = value, s = attr
  Subscript,       // a = value, b = slice
  Slice,           // a = lower, b = upper, c = step (each may be null)
  Call,            // a = func, v1 = args, v2 = keywords
  Keyword,         // s = arg ("" for **), a = value
  Starred,         // a = value
  BinOp,           // a = left, s = op, b = right
  UnaryOp,         // s = op ("not", "-", "+", "~"), a = operand
  BoolOp,          // s = "and" / "or", v1 = values
  Compare,         // a = left, names = ops, v1 = comparators
  IfExp,           // a = test, b = body, c = orelse
  Lambda,          // a = args, b = body
  Tuple,           // v1 = elts
  List,            // v1 = elts
  Set,             // v1 = elts
  Dict,            // v1 = keys (null for **), v2 = values
  ListComp,        // a = elt, v1 = generators
  SetComp,         // a = elt, v1 = generators
  GeneratorExp,    // a = elt, v1 = generators
  DictComp,        // a = key, b = value, v1 = generators
  Comprehension,   // a = target, b = iter, v1 = ifs, flag = is_async
  JoinedStr,       // v1 = values (str Constants and FormattedValues)
  FormattedValue,  // a = value, flag = conversion char or -1, b = format spec (JoinedStr)
  NamedExpr,       // a = target, b = value
  Await,           // a = value
  Yield,           // a = value (may be null)
  YieldFrom,       // a = value
  Arguments,       // v1 = posonly, v2 = args, a = vararg, v3 = kwonly, b = kwarg,
                   // v4 = defaults, v5 = kw_defaults (entries may be null)
  Arg,             // s = name, a = annotation
  // match statements: a case and its patterns
  MatchCase,       // a = pattern, b = guard (may be null), v1 = body
  MatchValue,      // a = value
  MatchSingleton,  // ckind = None / True / False
  MatchSequence,   // v1 = patterns
  MatchMapping,    // v1 = keys, v2 = patterns, s = rest, flag = has rest
  MatchClass,      // a = cls, v1 = patterns, names = keyword attrs, v2 = keyword patterns
  MatchStar,       // s = name ("" for *_)
  MatchAs,         // a = pattern (may be null), s = name ("" for _)
  MatchOr,         // v1 = patterns
  // statements
  FunctionDef,    // s = name, a = args, v1 = body, v2 = decorators, b = returns, flag = async
  ClassDef,       // s = name, v1 = body, v2 = decorators, v3 = bases, v4 = keywords
  Return,         // a = value
  Delete,         // v1 = targets
  Assign,         // v1 = targets, a = value
  AugAssign,      // a = target, s = op, b = value
  AnnAssign,      // a = target, b = annotation, c = value, flag = simple
  For,            // a = target, b = iter, v1 = body, v2 = orelse, flag = async
  While,          // a = test, v1 = body, v2 = orelse
  If,             // a = test, v1 = body, v2 = orelse
  With,           // v1 = items, v2 = body, flag = async
  WithItem,       // a = context_expr, b = optional_vars
  Raise,          // a = exc, b = cause
  Try,            // v1 = body, v2 = handlers, v3 = orelse, v4 = finalbody, flag = try*
  ExceptHandler,  // a = type, s = name, v1 = body
  Assert,         // a = test, b = msg
  Import,         // v1 = aliases
  ImportFrom,     // s = module, v1 = aliases, flag = level
  Alias,          // s = name, s2 = asname
  Global,         // names
  Nonlocal,       // names
  Expr,           // a = value
  Pass,
  Break,
  Continue,
  Match,  // a = subject, v1 = cases (MatchCase)
};

enum class Ctx { Load, Store, Del };
enum class ConstKind { None, True, False, Ellipsis, Int, Float, Complex, Str, Bytes };

struct Node;
using P = std::shared_ptr<Node>;
using Block = std::vector<P>;

struct Node {
  K kind;
  Ctx ctx = Ctx::Load;
  ConstKind ckind = ConstKind::None;
  std::string s, s2;
  std::vector<std::string> names;
  P a, b, c;
  Block v1, v2, v3, v4, v5;
  int flag = 0;
  int line = 0;
  // 1-based column (byte offset + 1) of the node's first token; 0 for nodes the converter makes.
  int col = 0;
  // Source span of a def/class, decorators included (1-based, inclusive).
  int first_line = 0, last_line = 0;
  // True for names that come from the user's source (TF: has ORIG_DEFINITIONS); only those
  // are wrapped in ag__.ld().
  bool original = false;
  // For loops: the extra test left by break/return lowering, and set_loop_options values.
  P extra_test;
  std::vector<std::pair<std::string, P>> loop_opts;
  bool has_loop_opts = false;

  explicit Node(K k) : kind(k) {}
  Node(const Node&) = default;
  Node& operator=(const Node&) = default;
  // Frees the subtree without recursing once per level (an `x.a.a...` chain 50000 long).
  ~Node();
};

// Calls f(P&) for each child slot of n that holds a node.
template <typename F>
void for_each_child(Node& n, F&& f) {
  for (P* p : {&n.a, &n.b, &n.c, &n.extra_test})
    if (*p) f(*p);
  for (Block* v : {&n.v1, &n.v2, &n.v3, &n.v4, &n.v5})
    for (P& x : *v)
      if (x) f(x);
  for (auto& kv : n.loop_opts)
    if (kv.second) f(kv.second);
}

inline bool is_stmt(K k) {
  return k >= K::FunctionDef;
}

P clone(const P& n);
Block clone(const Block& b);

// Small constructors used by the templates.
P name(const std::string& id, Ctx ctx = Ctx::Load);
P str_const(const std::string& value);
P int_const(long long value);
P kw_const(ConstKind k);  // None / True / False
P attr(P value, const std::string& attr);
P call(P func, Block args, Block keywords = {});
P expr_stmt(P value);
P assign(P target, P value);
P tuple(Block elts, Ctx ctx = Ctx::Load);
P dotted(const std::string& path);  // "ag__.ld" -> Attribute(Name(ag__), ld)
P lambda0(P body);                  // lambda: body
P unary(const std::string& op, P operand);
P funcdef(const std::string& name, std::vector<std::string> params, Block body);
P pass_stmt();

void set_ctx(const P& target, Ctx ctx);

}  // namespace tfs::autograph::detail
