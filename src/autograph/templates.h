// Small node builders shared by the passes: the pieces TF writes as template strings.
#pragma once

#include <functional>
#include <string>

#include "ast.h"

namespace tfs::autograph::detail {

inline void unmark(const P& n) {
  if (!n) return;
  n->original = false;
  for (const P* c : {&n->a, &n->b, &n->c}) unmark(*c);
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v) unmark(c);
}

inline P not_(P operand) {
  return unary("not", std::move(operand));
}

inline P and_(P a, P b) {
  auto n = std::make_shared<Node>(K::BoolOp);
  n->s = "and";
  n->v1 = {std::move(a), std::move(b)};
  return n;
}

// if not var: body
inline P if_not(const std::string& var, Block body) {
  auto n = std::make_shared<Node>(K::If);
  n->a = not_(name(var));
  n->v1 = std::move(body);
  return n;
}

inline Block single(P n) {
  return Block{std::move(n)};
}

}  // namespace tfs::autograph::detail
