// The match statement (Python 3.10+): `match` and `case` are soft keywords, so a line starting
// with `match` is a match statement only when it has the statement's shape. Patterns become
// nodes shaped like CPython's ast (MatchValue, MatchSequence, MatchAs, ...).
#include "parser_impl.h"

namespace tfs::autograph::detail {

// `match <subject>:` followed by a newline: the subject is whatever lies between (at bracket
// depth 0 the line must end with ':'), and `match` must not be used as a name (`match = 1`,
// `match.group()`, `match(x)` on a line of its own without a trailing colon).
bool Parser::at_match_stmt() const {
  if (!at_kw("match")) return false;
  const Token& next = peek(1);
  if (next.type == Tok::Newline || next.type == Tok::End) return false;
  if (next.type == Tok::Op && next.text != "(" && next.text != "[" && next.text != "{" &&
      next.text != "-" && next.text != "*")
    return false;
  int depth = 0;
  for (size_t k = pos_ + 1; k < t_.size(); ++k) {
    const Token& t = t_[k];
    if (t.type == Tok::Newline || t.type == Tok::End) return false;
    if (t.type != Tok::Op) continue;
    if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
    if (t.text == ")" || t.text == "]" || t.text == "}") --depth;
    if (depth == 0 && t.text == ":") {
      return k + 1 < t_.size() && t_[k + 1].type == Tok::Newline;
    }
  }
  return false;
}

P Parser::match_stmt() {
  P n = node(K::Match);
  ++pos_;  // 'match'
  n->a = testlist_star_expr();
  expect_op(":");
  if (!accept_type(Tok::Newline) || !accept_type(Tok::Indent))
    syntax_error(peek().line, "expected an indented block of case clauses");
  while (!accept_type(Tok::Dedent)) {
    if (at(Tok::End)) break;
    if (accept_type(Tok::Newline)) continue;
    if (!at_kw("case")) syntax_error(peek().line, "expected 'case'");
    n->v1.push_back(match_case());
  }
  if (n->v1.empty()) syntax_error(n->line, "a match statement needs a case");
  return n;
}

P Parser::match_case() {
  P n = node(K::MatchCase);
  ++pos_;  // 'case'
  n->a = patterns();
  if (accept_kw("if")) n->b = namedexpr_test();
  n->v1 = suite();
  return n;
}

// An open sequence (`case a, *rest:`) is a MatchSequence.
P Parser::patterns() {
  int line = peek().line;
  P first = at_op("*") ? closed_pattern() : pattern();
  if (!at_op(",")) return first;
  P seq = std::make_shared<Node>(K::MatchSequence);
  seq->line = line;
  seq->v1.push_back(first);
  while (accept_op(",")) {
    if (at_kw("if") || at_op(":")) break;
    seq->v1.push_back(at_op("*") ? closed_pattern() : pattern());
  }
  return seq;
}

P Parser::pattern() {
  P p = or_pattern();
  if (accept_kw("as")) {
    P as = std::make_shared<Node>(K::MatchAs);
    as->line = p->line;
    as->a = p;
    as->s = expect_name();
    if (as->s == "_") syntax_error(as->line, "cannot use '_' as a target");
    return as;
  }
  return p;
}

P Parser::or_pattern() {
  P first = closed_pattern();
  if (!at_op("|")) return first;
  P n = std::make_shared<Node>(K::MatchOr);
  n->line = first->line;
  n->v1.push_back(first);
  while (accept_op("|")) n->v1.push_back(closed_pattern());
  return n;
}

// A dotted name as an expression: Name or Attribute chain (value and class patterns).
P Parser::name_or_attr_expr() {
  int line = peek().line;
  P e = name(expect_name());
  e->line = line;
  e->original = true;
  while (accept_op(".")) {
    e = attr(e, expect_name());
    e->line = line;
  }
  return e;
}

// Literals (numbers with an optional sign and complex part, strings, None/True/False) and value
// patterns (dotted names).
P Parser::literal_or_value_pattern() {
  int line = peek().line;
  if (at_kw("None") || at_kw("True") || at_kw("False")) {
    P n = std::make_shared<Node>(K::MatchSingleton);
    n->line = line;
    n->ckind = at_kw("None") ? ConstKind::None : at_kw("True") ? ConstKind::True : ConstKind::False;
    ++pos_;
    return n;
  }
  P v = std::make_shared<Node>(K::MatchValue);
  v->line = line;
  if (at(Tok::Name)) {
    v->a = name_or_attr_expr();
    return v;
  }
  if (at(Tok::String)) {
    v->a = strings();
    return v;
  }
  bool neg = accept_op("-");
  if (!at(Tok::Number)) syntax_error(line, "invalid pattern");
  P num = number(t_[pos_++].text, line);
  if (neg) num = unary("-", num);
  if (at_op("+") || at_op("-")) {
    std::string op = t_[pos_++].text;
    if (!at(Tok::Number)) syntax_error(line, "invalid complex literal pattern");
    P b = std::make_shared<Node>(K::BinOp);
    b->line = line;
    b->a = num;
    b->s = op;
    b->b = number(t_[pos_++].text, line);
    num = b;
  }
  v->a = num;
  return v;
}

P Parser::closed_pattern() {
  int line = peek().line;
  if (accept_op("*")) {
    P n = std::make_shared<Node>(K::MatchStar);
    n->line = line;
    std::string nm = expect_name();
    n->s = nm == "_" ? "" : nm;
    return n;
  }
  if (at_op("(") || at_op("[")) {
    bool paren = at_op("(");
    const char* close = paren ? ")" : "]";
    ++pos_;
    P seq = std::make_shared<Node>(K::MatchSequence);
    seq->line = line;
    if (accept_op(close)) return seq;
    P first = at_op("*") ? closed_pattern() : pattern();
    if (paren && accept_op(")")) return first;  // a group, not a sequence
    seq->v1.push_back(first);
    while (accept_op(",")) {
      if (at_op(close)) break;
      seq->v1.push_back(at_op("*") ? closed_pattern() : pattern());
    }
    expect_op(close);
    return seq;
  }
  if (accept_op("{")) {
    P m = std::make_shared<Node>(K::MatchMapping);
    m->line = line;
    while (!accept_op("}")) {
      if (accept_op("**")) {
        m->s = expect_name();
        m->flag = 1;
      } else {
        P key = literal_or_value_pattern();
        m->v1.push_back(key->kind == K::MatchSingleton ? kw_const(key->ckind) : key->a);
        expect_op(":");
        m->v2.push_back(pattern());
      }
      if (!accept_op(",")) {
        expect_op("}");
        break;
      }
    }
    return m;
  }
  if (at(Tok::Name) && !at_kw("None") && !at_kw("True") && !at_kw("False")) {
    bool dotted = peek(1).type == Tok::Op && peek(1).text == ".";
    bool call = peek(1).type == Tok::Op && peek(1).text == "(";
    if (!dotted && !call) {
      P as = std::make_shared<Node>(K::MatchAs);
      as->line = line;
      std::string nm = expect_name();
      as->s = nm == "_" ? "" : nm;
      return as;
    }
    P cls = name_or_attr_expr();
    if (!accept_op("(")) {
      P v = std::make_shared<Node>(K::MatchValue);
      v->line = line;
      v->a = cls;
      return v;
    }
    P c = std::make_shared<Node>(K::MatchClass);
    c->line = line;
    c->a = cls;
    while (!accept_op(")")) {
      if (at(Tok::Name) && peek(1).type == Tok::Op && peek(1).text == "=") {
        c->names.push_back(expect_name());
        expect_op("=");
        c->v2.push_back(pattern());
      } else {
        if (!c->names.empty()) syntax_error(line, "positional patterns follow keyword patterns");
        c->v1.push_back(pattern());
      }
      if (!accept_op(",")) {
        expect_op(")");
        break;
      }
    }
    return c;
  }
  return literal_or_value_pattern();
}

}  // namespace tfs::autograph::detail
