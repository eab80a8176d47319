// The recursive-descent parser behind parse_module / parse_expression. Statements are in
// parser.cc, expressions in parser_expressions.cc.
#pragma once

#include <string>
#include <vector>

#include "parser.h"
#include "tfscope/autograph.h"
#include "tokenizer.h"

namespace tfs::autograph::detail {

[[noreturn]] void syntax_error(int line, const std::string& what);

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : t_(std::move(toks)) {}
  ParsedModule module();
  P expression_only();

 private:
  static int count_newlines(const Token& t);

  // ---- token helpers
  const Token& peek(int k = 0) const { return t_[std::min(pos_ + k, t_.size() - 1)]; }
  bool at(Tok type) const { return peek().type == type; }
  bool at_op(const char* op) const { return peek().type == Tok::Op && peek().text == op; }
  bool at_kw(const char* kw) const { return peek().type == Tok::Name && peek().text == kw; }
  bool accept_op(const char* op);
  bool accept_kw(const char* kw);
  bool accept_type(Tok type);
  void expect_op(const char* op);
  void expect_kw(const char* kw);
  std::string expect_name();
  static bool is_keyword(const std::string& s);
  P node(K k);

  // ---- statements
  Block statement();
  Block suite();
  P compound();
  P compound_inner();
  int last_token_line() const;
  P funcdef(bool is_async);
  P classdef();
  P if_stmt();
  P try_stmt();
  P with_stmt(bool is_async);
  // match statements (soft keywords `match` and `case`; parser_patterns.cc)
  bool at_match_stmt() const;
  P match_stmt();
  P match_case();
  P patterns();
  P pattern();
  P or_pattern();
  P closed_pattern();
  P literal_or_value_pattern();
  P name_or_attr_expr();
  Block simple_line();
  P small_stmt();
  static P with_pos(P n, const Token& t);
  bool at_stmt_end() const { return at(Tok::Newline) || at_op(";") || at(Tok::End); }
  std::string dotted_name();
  P expr_stmt_or_assign();

  // ---- argument lists (def and lambda)
  P arguments(const char* closer, bool annotations);
  P arg(bool annotations);

  // ---- expressions
  P testlist_star_expr();
  P testlist() { return testlist_star_expr(); }
  bool at_expr_end() const;
  P star_expr();
  P namedexpr_test();
  P test();
  P lambdef();
  P or_test();
  P and_test();
  template <class F>
  P boolop(const char* op, F next) {
    P first = next();
    if (!at_kw(op)) return first;
    P n = std::make_shared<Node>(K::BoolOp);
    n->line = first->line;
    n->col = first->col;
    n->s = op;
    n->v1.push_back(first);
    while (accept_kw(op)) n->v1.push_back(next());
    return n;
  }
  P not_test();
  P comparison();
  P binary(int level);
  P bitor_expr() { return binary(0); }
  P factor();
  P power();
  P primary();
  void call_args(Block& args, Block& keywords);
  P subscript_list();
  P subscript();
  Block comp_for();
  P test_nocond();

  // for-loop / comprehension targets: a comma-separated list of star targets.
  P target_list();
  P target() { return bitor_expr(); }
  P exprlist();
  P yield_expr();
  P atom();
  P brace_atom();
  static P number(const std::string& text, int line);
  P strings();
  std::vector<Token> t_;
  size_t pos_ = 0;

  // CPython 3.11's PEG parser gives up with a MemoryError past MAXSTACK (6000) nested rule calls.
  // Its cost of a nesting, as measured: 1 per nested expression (test), unary operator, `not`
  // and conditional expression, 2 per `**` and lambda, from 38 for a return statement's value in
  // a function (so 5961 unary minus parse, 5962 do not; 2980 `**`, not 2981).
  static constexpr int kMaxStack = 6000;
  int level_ = 38;
  class Nesting {
   public:
    Nesting(Parser& p, int cost) : p_(p), cost_(cost) {
      if ((p_.level_ += cost_) > kMaxStack) throw ConversionError("", "MemoryError");
    }
    ~Nesting() { p_.level_ -= cost_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& p_;
    int cost_;
  };
};

}  // namespace tfs::autograph::detail
