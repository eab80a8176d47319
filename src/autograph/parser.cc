#include <algorithm>
#include <cctype>
#include <cstring>

#include "parser_impl.h"
#include "tfscope/autograph.h"

namespace tfs::autograph::detail {

[[noreturn]] void syntax_error(int line, const std::string& what) {
  throw ConversionError("[autograph] syntax error at line " + std::to_string(line) + ": " + what);
}

ParsedModule Parser::module() {
  ParsedModule m;
  while (!at(Tok::End)) {
    if (accept_type(Tok::Newline)) continue;
    int first = peek().line;
    Block stmts = statement();
    int last = last_token_line();
    for (auto& s : stmts) {
      m.body.push_back(s);
      m.spans.emplace_back(first, last);
    }
  }
  return m;
}

P Parser::expression_only() {
  P e = testlist_star_expr();
  while (accept_type(Tok::Newline)) {
  }
  if (!at(Tok::End)) syntax_error(peek().line, "invalid syntax");
  return e;
}

int Parser::count_newlines(const Token& t) {
  return static_cast<int>(std::count(t.text.begin(), t.text.end(), '\n'));
}

bool Parser::accept_op(const char* op) {
  if (!at_op(op)) return false;
  ++pos_;
  return true;
}

bool Parser::accept_kw(const char* kw) {
  if (!at_kw(kw)) return false;
  ++pos_;
  return true;
}

bool Parser::accept_type(Tok type) {
  if (!at(type)) return false;
  ++pos_;
  return true;
}

void Parser::expect_op(const char* op) {
  if (!accept_op(op)) syntax_error(peek().line, std::string("expected '") + op + "'");
}

void Parser::expect_kw(const char* kw) {
  if (!accept_kw(kw)) syntax_error(peek().line, std::string("expected '") + kw + "'");
}

std::string Parser::expect_name() {
  if (!at(Tok::Name) || is_keyword(peek().text)) syntax_error(peek().line, "expected a name");
  return t_[pos_++].text;
}

bool Parser::is_keyword(const std::string& s) {
  static const char* const kws[] = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  for (const char* k : kws)
    if (s == k) return true;
  return false;
}

P Parser::node(K k) {
  auto n = std::make_shared<Node>(k);
  n->line = peek().line;
  n->col = peek().col + 1;
  return n;
}

Block Parser::statement() {
  if (at_op("@") || at_kw("def") || at_kw("class") || at_kw("if") || at_kw("while") ||
      at_kw("for") || at_kw("try") || at_kw("with") ||
      (at_kw("async") &&
       (peek(1).text == "def" || peek(1).text == "for" || peek(1).text == "with")) ||
      at_match_stmt())
    return {compound()};
  return simple_line();
}

Block Parser::suite() {
  expect_op(":");
  if (!accept_type(Tok::Newline)) return simple_line();
  if (!accept_type(Tok::Indent)) syntax_error(peek().line, "expected an indented block");
  Block body;
  while (!accept_type(Tok::Dedent)) {
    if (at(Tok::End)) break;
    if (accept_type(Tok::Newline)) continue;
    for (auto& s : statement()) body.push_back(s);
  }
  return body;
}

int Parser::last_token_line() const {
  // The last token of a compound statement is a NEWLINE/DEDENT; find the last real token.
  for (size_t k = pos_; k-- > 0;) {
    if (t_[k].type != Tok::Newline && t_[k].type != Tok::Dedent && t_[k].type != Tok::Indent)
      return t_[k].line + count_newlines(t_[k]);
  }
  return 1;
}

P Parser::compound() {
  int first = peek().line;
  P n = compound_inner();
  n->first_line = first;
  n->last_line = last_token_line();
  return n;
}

P Parser::compound_inner() {
  if (at_op("@")) {
    Block decorators;
    while (accept_op("@")) {
      decorators.push_back(namedexpr_test());
      if (!accept_type(Tok::Newline)) syntax_error(peek().line, "expected newline after decorator");
    }
    P d = compound();
    if (d->kind != K::FunctionDef && d->kind != K::ClassDef)
      syntax_error(d->line, "decorator must precede a def or class");
    d->v2 = std::move(decorators);
    return d;
  }
  bool is_async = accept_kw("async");
  if (at_kw("def")) return funcdef(is_async);
  if (at_kw("class")) return classdef();
  if (at_kw("if")) return if_stmt();
  if (at_kw("while")) {
    P n = node(K::While);
    ++pos_;
    n->a = namedexpr_test();
    n->v1 = suite();
    if (accept_kw("else")) n->v2 = suite();
    return n;
  }
  if (at_kw("for")) {
    P n = node(K::For);
    ++pos_;
    n->flag = is_async;
    n->a = target_list();
    expect_kw("in");
    n->b = testlist();
    n->v1 = suite();
    if (accept_kw("else")) n->v2 = suite();
    return n;
  }
  if (at_kw("try")) return try_stmt();
  if (at_kw("with")) return with_stmt(is_async);
  if (at_match_stmt()) return match_stmt();
  syntax_error(peek().line, "invalid syntax");
}

P Parser::funcdef(bool is_async) {
  P n = node(K::FunctionDef);
  expect_kw("def");
  n->flag = is_async;
  n->s = expect_name();
  expect_op("(");
  n->a = arguments(")", true);
  expect_op(")");
  if (accept_op("->")) n->b = test();
  n->v1 = suite();
  return n;
}

P Parser::classdef() {
  P n = node(K::ClassDef);
  expect_kw("class");
  n->s = expect_name();
  if (accept_op("(")) {
    Block args, kws;
    call_args(args, kws);
    n->v3 = args;
    n->v4 = kws;
    expect_op(")");
  }
  n->v1 = suite();
  return n;
}

P Parser::if_stmt() {
  P n = node(K::If);
  ++pos_;  // 'if' or 'elif'
  n->a = namedexpr_test();
  n->v1 = suite();
  if (at_kw("elif")) {
    n->v2.push_back(if_stmt());
  } else if (accept_kw("else")) {
    n->v2 = suite();
  }
  return n;
}

P Parser::try_stmt() {
  P n = node(K::Try);
  expect_kw("try");
  n->v1 = suite();
  while (at_kw("except")) {
    P h = node(K::ExceptHandler);
    ++pos_;
    if (accept_op("*")) n->flag = 1;
    if (!at_op(":")) {
      h->a = test();
      if (accept_op(",")) {
        Block elts{h->a};
        do elts.push_back(test());
        while (accept_op(","));
        h->a = tuple(elts);
      }
      if (accept_kw("as")) h->s = expect_name();
    }
    h->v1 = suite();
    n->v2.push_back(h);
  }
  if (accept_kw("else")) n->v3 = suite();
  if (accept_kw("finally")) n->v4 = suite();
  return n;
}

P Parser::with_stmt(bool is_async) {
  P n = node(K::With);
  expect_kw("with");
  n->flag = is_async;
  // Parenthesised item lists: with (a as b, c):
  bool parens = false;
  if (at_op("(")) {
    size_t save = pos_;
    int depth = 0;
    size_t k = pos_;
    for (; k < t_.size(); ++k) {
      if (t_[k].type == Tok::Op && (t_[k].text == "(" || t_[k].text == "[" || t_[k].text == "{"))
        ++depth;
      if (t_[k].type == Tok::Op && (t_[k].text == ")" || t_[k].text == "]" || t_[k].text == "}"))
        if (--depth == 0) break;
    }
    parens = k + 1 < t_.size() && t_[k + 1].type == Tok::Op && t_[k + 1].text == ":";
    bool has_as = false;
    depth = 0;
    for (size_t j = pos_; j < k; ++j) {
      if (t_[j].type == Tok::Op && (t_[j].text == "(" || t_[j].text == "[")) ++depth;
      if (t_[j].type == Tok::Op && (t_[j].text == ")" || t_[j].text == "]")) --depth;
      if (depth == 1 && t_[j].type == Tok::Name && t_[j].text == "as") has_as = true;
    }
    parens = parens && has_as;
    pos_ = save;
    if (parens) ++pos_;
  }
  do {
    if (parens && at_op(")")) break;
    P item = node(K::WithItem);
    item->a = test();
    if (accept_kw("as")) {
      item->b = target();
      set_ctx(item->b, Ctx::Store);
    }
    n->v1.push_back(item);
  } while (accept_op(","));
  if (parens) expect_op(")");
  n->v2 = suite();
  return n;
}

Block Parser::simple_line() {
  Block out;
  out.push_back(small_stmt());
  while (accept_op(";")) {
    if (at(Tok::Newline)) break;
    out.push_back(small_stmt());
  }
  if (!accept_type(Tok::Newline) && !at(Tok::End)) syntax_error(peek().line, "invalid syntax");
  return out;
}

P Parser::small_stmt() {
  const Token& t = peek();
  if (t.type == Tok::Name) {
    if (t.text == "pass") return (++pos_, with_pos(std::make_shared<Node>(K::Pass), t));
    if (t.text == "break") return (++pos_, with_pos(std::make_shared<Node>(K::Break), t));
    if (t.text == "continue") return (++pos_, with_pos(std::make_shared<Node>(K::Continue), t));
    if (t.text == "return") {
      P n = node(K::Return);
      ++pos_;
      if (!at_stmt_end()) n->a = testlist_star_expr();
      return n;
    }
    if (t.text == "raise") {
      P n = node(K::Raise);
      ++pos_;
      if (!at_stmt_end()) {
        n->a = test();
        if (accept_kw("from")) n->b = test();
      }
      return n;
    }
    if (t.text == "global" || t.text == "nonlocal") {
      P n = node(t.text == "global" ? K::Global : K::Nonlocal);
      ++pos_;
      do n->names.push_back(expect_name());
      while (accept_op(","));
      return n;
    }
    if (t.text == "del") {
      P n = node(K::Delete);
      ++pos_;
      P targets = exprlist();
      if (targets->kind == K::Tuple && !targets->flag)
        n->v1 = targets->v1;
      else
        n->v1.push_back(targets);
      for (auto& x : n->v1) set_ctx(x, Ctx::Del);
      return n;
    }
    if (t.text == "assert") {
      P n = node(K::Assert);
      ++pos_;
      n->a = test();
      if (accept_op(",")) n->b = test();
      return n;
    }
    if (t.text == "import") {
      P n = node(K::Import);
      ++pos_;
      do {
        P al = node(K::Alias);
        al->s = dotted_name();
        if (accept_kw("as")) al->s2 = expect_name();
        n->v1.push_back(al);
      } while (accept_op(","));
      return n;
    }
    if (t.text == "from") {
      P n = node(K::ImportFrom);
      ++pos_;
      while (at_op(".") || at_op("...")) n->flag += static_cast<int>(t_[pos_++].text.size());
      if (!at_kw("import")) n->s = dotted_name();
      expect_kw("import");
      bool parens = accept_op("(");
      if (accept_op("*")) {
        P al = node(K::Alias);
        al->s = "*";
        n->v1.push_back(al);
      } else {
        do {
          if (parens && at_op(")")) break;
          P al = node(K::Alias);
          al->s = expect_name();
          if (accept_kw("as")) al->s2 = expect_name();
          n->v1.push_back(al);
        } while (accept_op(","));
      }
      if (parens) expect_op(")");
      return n;
    }
  }
  return expr_stmt_or_assign();
}

P Parser::with_pos(P n, const Token& t) {
  n->line = t.line;
  n->col = t.col + 1;
  return n;
}

std::string Parser::dotted_name() {
  std::string s = expect_name();
  while (accept_op(".")) s += "." + expect_name();
  return s;
}

P Parser::expr_stmt_or_assign() {
  int line = peek().line, col = peek().col + 1;
  P first = at_kw("yield") ? yield_expr() : testlist_star_expr();
  if (at_op(":")) {  // annotated assignment
    ++pos_;
    P n = std::make_shared<Node>(K::AnnAssign);
    n->line = line;
    n->col = col;
    n->a = first;
    n->flag = first->kind == K::Name && !first->flag;  // simple: bare name, not parenthesised
    set_ctx(first, Ctx::Store);
    n->b = test();
    if (accept_op("=")) n->c = at_kw("yield") ? yield_expr() : testlist_star_expr();
    return n;
  }
  static const char* const aug[] = {
      "+=", "-=", "*=", "@=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "**=", "//="};
  for (const char* op : aug) {
    if (accept_op(op)) {
      P n = std::make_shared<Node>(K::AugAssign);
      n->line = line;
      n->col = col;
      n->a = first;
      set_ctx(first, Ctx::Store);
      n->s = std::string(op, std::char_traits<char>::length(op) - 1);
      n->b = at_kw("yield") ? yield_expr() : testlist();
      return n;
    }
  }
  if (at_op("=")) {
    P n = std::make_shared<Node>(K::Assign);
    n->line = line;
    n->col = col;
    Block chain{first};
    while (accept_op("=")) chain.push_back(at_kw("yield") ? yield_expr() : testlist_star_expr());
    n->a = chain.back();
    chain.pop_back();
    for (auto& tg : chain) set_ctx(tg, Ctx::Store);
    n->v1 = chain;
    return n;
  }
  P n = std::make_shared<Node>(K::Expr);
  n->line = line;
  n->col = col;
  n->a = first;
  return n;
}

ParsedModule parse_module(std::string_view src) {
  return Parser(tokenize(src)).module();
}

P parse_expression(std::string_view src) {
  return Parser(tokenize(src)).expression_only();
}

}  // namespace tfs::autograph::detail
