// The nesting Python and TF refuse, checked on the parsed tree before any pass walks it (so that
// no pass recurses deeper than these limits allow).
#include "python_limits.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "tfscope/autograph.h"
#include "tokenizer.h"

namespace tfs::autograph::detail {
namespace {

// CPython 3.11 compiles with a recursion limit of 3 x sys.getrecursionlimit(): a function whose
// return value nests 2991 unary operators compiles, 2992 do not ("maximum recursion depth
// exceeded during compilation"). Counted from the module: Module, FunctionDef, Return, ... .
constexpr int kMaxCompileDepth = 2995;
// CO_MAXBLOCKS: loops, try and with statements nested in one function.
constexpr int kMaxBlocks = 20;

bool is_block(K k) {
  return k == K::For || k == K::While || k == K::With || k == K::Try;
}
bool is_scope(K k) {
  return k == K::FunctionDef || k == K::ClassDef || k == K::Lambda;
}

// TF 2.21's converter recurses in Python once or more per level of the tree it transforms; under
// the default recursion limit (1000) it raises RecursionError for a function whose returned
// expression nests more than these levels (measured with tensorflow-cpu 2.21.0 from a module's
// top level, `def f(x): return <expr>`): attributes and unary operators 193, binary operators
// 233, calls of calls and lists in lists 155. A node of these kinds costs 1/limit of the budget;
// a path over budget fails. Other nodes cost nothing.
double converter_cost(K k) {
  switch (k) {
    case K::Attribute:
    case K::UnaryOp:
      return 1.0 / 193.5;
    case K::BinOp:
      return 1.0 / 233.5;
    case K::List:
    case K::Call:
      return 1.0 / 155.5;
    default:
      return 0.0;
  }
}

struct Frame {
  Node* node;
  int depth;    // nodes from the module down to this one
  int blocks;   // loop/try/with statements around it in its function
  double cost;  // converter budget spent down to it
};

}  // namespace

void check_python_limits(const Block& module) {
  std::vector<Frame> stack;
  for (const P& s : module)
    if (s) stack.push_back({s.get(), 2, 0, 0});
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    if (f.depth > kMaxCompileDepth)
      throw ConversionError("maximum recursion depth exceeded during compilation",
                            "RecursionError");
    int blocks = is_scope(f.node->kind) ? 0 : f.blocks + (is_block(f.node->kind) ? 1 : 0);
    if (blocks > kMaxBlocks)
      python_error("SyntaxError", f.node->line, "too many statically nested blocks");
    for_each_child(*f.node, [&](P& c) { stack.push_back({c.get(), f.depth + 1, blocks, 0}); });
  }
}

void check_converter_depth(const P& fn) {
  std::vector<Frame> stack{{fn.get(), 0, 0, 0}};
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    const double cost = f.cost + converter_cost(f.node->kind);
    if (cost > 1.0) throw ConversionError("maximum recursion depth exceeded", "RecursionError");
    for_each_child(*f.node, [&](P& c) { stack.push_back({c.get(), 0, 0, cost}); });
  }
}

}  // namespace tfs::autograph::detail
