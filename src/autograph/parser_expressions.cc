// Expression grammar of Python 3.11, one precedence level per function.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "parser_impl.h"
#include "string_literals.h"

namespace tfs::autograph::detail {

P Parser::arguments(const char* closer, bool annotations) {
  P args = std::make_shared<Node>(K::Arguments);
  bool kwonly = false;
  while (!at_op(closer)) {
    if (accept_op("/")) {
      args->v1 = args->v2;
      args->v2.clear();
    } else if (accept_op("**")) {
      args->b = arg(annotations);
    } else if (accept_op("*")) {
      kwonly = true;
      if (!at_op(",") && !at_op(closer)) args->a = arg(annotations);
    } else {
      P a = arg(annotations);
      P def;
      if (accept_op("=")) def = test();
      if (kwonly) {
        args->v3.push_back(a);
        args->v5.push_back(def);
      } else {
        args->v2.push_back(a);
        if (def)
          args->v4.push_back(def);
        else if (!args->v4.empty())
          syntax_error(peek().line, "non-default argument follows default argument");
      }
    }
    if (!accept_op(",")) break;
  }
  return args;
}

P Parser::arg(bool annotations) {
  P a = node(K::Arg);
  a->s = expect_name();
  if (annotations && accept_op(":")) a->a = test();
  return a;
}

P Parser::testlist_star_expr() {
  int line = peek().line, col = peek().col + 1;
  P first = at_op("*") ? star_expr() : namedexpr_test();
  if (!at_op(",")) return first;
  Block elts{first};
  while (accept_op(",")) {
    if (at_expr_end()) break;
    elts.push_back(at_op("*") ? star_expr() : namedexpr_test());
  }
  P t = tuple(elts);
  t->line = line;
  t->col = col;
  return t;
}

bool Parser::at_expr_end() const {
  if (at(Tok::Newline) || at(Tok::End)) return true;
  if (peek().type == Tok::Op) {
    const std::string& s = peek().text;
    return s == ")" || s == "]" || s == "}" || s == "=" || s == ":" || s == ";" ||
           (s.size() >= 2 && s.back() == '=' && s != "==" && s != "!=" && s != "<=" && s != ">=");
  }
  return peek().type == Tok::Name && (peek().text == "in" || peek().text == "for");
}

P Parser::star_expr() {
  P n = node(K::Starred);
  expect_op("*");
  n->a = bitor_expr();
  return n;
}

P Parser::namedexpr_test() {
  if (at(Tok::Name) && peek(1).type == Tok::Op && peek(1).text == ":=") {
    P n = node(K::NamedExpr);
    n->a = name(expect_name(), Ctx::Store);
    n->a->original = true;
    expect_op(":=");
    n->b = test();
    return n;
  }
  return test();
}

P Parser::test() {
  Nesting nest(*this, 1);
  if (at_kw("lambda")) return lambdef();
  int line = peek().line, col = peek().col + 1;
  P body = or_test();
  if (accept_kw("if")) {
    P n = std::make_shared<Node>(K::IfExp);
    n->line = line;
    n->col = col;
    n->b = body;
    n->a = or_test();
    expect_kw("else");
    n->c = test();
    return n;
  }
  return body;
}

P Parser::lambdef() {
  Nesting nest(*this, 1);
  P n = node(K::Lambda);
  expect_kw("lambda");
  n->a = arguments(":", false);
  expect_op(":");
  n->b = test();
  return n;
}

P Parser::or_test() {
  return boolop("or", [this] { return and_test(); });
}

P Parser::and_test() {
  return boolop("and", [this] { return not_test(); });
}

P Parser::not_test() {
  if (at_kw("not")) {
    Nesting nest(*this, 1);
    P n = node(K::UnaryOp);
    ++pos_;
    n->s = "not";
    n->a = not_test();
    return n;
  }
  return comparison();
}

P Parser::comparison() {
  P left = bitor_expr();
  P n;
  while (true) {
    std::string op;
    if (peek().type == Tok::Op &&
        (peek().text == "<" || peek().text == ">" || peek().text == "==" || peek().text == ">=" ||
         peek().text == "<=" || peek().text == "!=")) {
      op = t_[pos_++].text;
    } else if (at_kw("in")) {
      ++pos_;
      op = "in";
    } else if (at_kw("not") && peek(1).type == Tok::Name && peek(1).text == "in") {
      pos_ += 2;
      op = "not in";
    } else if (at_kw("is")) {
      ++pos_;
      op = accept_kw("not") ? "is not" : "is";
    } else {
      break;
    }
    if (!n) {
      n = std::make_shared<Node>(K::Compare);
      n->line = left->line;
      n->col = left->col;
      n->a = left;
    }
    n->names.push_back(op);
    n->v1.push_back(bitor_expr());
  }
  return n ? n : left;
}

P Parser::binary(int level) {
  static const std::vector<std::vector<std::string>> levels = {
      {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
  if (level == static_cast<int>(levels.size())) return factor();
  P left = binary(level + 1);
  while (peek().type == Tok::Op && std::find(levels[level].begin(), levels[level].end(),
                                             peek().text) != levels[level].end()) {
    P n = std::make_shared<Node>(K::BinOp);
    n->line = left->line;
    n->col = left->col;
    n->s = t_[pos_++].text;
    n->a = left;
    n->b = binary(level + 1);
    left = n;
  }
  return left;
}

P Parser::factor() {
  if (at_op("-") || at_op("+") || at_op("~")) {
    Nesting nest(*this, 1);
    P n = node(K::UnaryOp);
    n->s = t_[pos_++].text;
    n->a = factor();
    return n;
  }
  return power();
}

P Parser::power() {
  P base;
  if (at_kw("await")) {
    base = node(K::Await);
    ++pos_;
    base->a = primary();
  } else {
    base = primary();
  }
  if (accept_op("**")) {
    Nesting nest(*this, 2);
    P n = std::make_shared<Node>(K::BinOp);
    n->line = base->line;
    n->col = base->col;
    n->s = "**";
    n->a = base;
    n->b = factor();
    return n;
  }
  return base;
}

P Parser::primary() {
  P e = atom();
  while (true) {
    if (accept_op(".")) {
      P n = std::make_shared<Node>(K::Attribute);
      n->line = e->line;
      n->col = e->col;
      n->a = e;
      n->s = expect_name();
      e = n;
    } else if (at_op("(")) {
      ++pos_;
      P n = std::make_shared<Node>(K::Call);
      n->line = e->line;
      n->col = e->col;
      n->a = e;
      call_args(n->v1, n->v2);
      expect_op(")");
      e = n;
    } else if (at_op("[")) {
      ++pos_;
      P n = std::make_shared<Node>(K::Subscript);
      n->line = e->line;
      n->col = e->col;
      n->a = e;
      n->b = subscript_list();
      expect_op("]");
      e = n;
    } else {
      return e;
    }
  }
}

void Parser::call_args(Block& args, Block& keywords) {
  while (!at_op(")")) {
    if (accept_op("**")) {
      P k = node(K::Keyword);
      k->a = test();
      keywords.push_back(k);
    } else if (at_op("*")) {
      args.push_back(star_expr());
    } else if (at(Tok::Name) && peek(1).type == Tok::Op && peek(1).text == "=") {
      P k = node(K::Keyword);
      k->s = expect_name();
      expect_op("=");
      k->a = test();
      keywords.push_back(k);
    } else {
      P e = namedexpr_test();
      if (at_kw("for") || at_kw("async")) {
        P g = std::make_shared<Node>(K::GeneratorExp);
        g->line = e->line;
        g->col = e->col;
        g->a = e;
        g->v1 = comp_for();
        e = g;
      }
      args.push_back(e);
    }
    if (!accept_op(",")) break;
  }
}

P Parser::subscript_list() {
  P first = subscript();
  if (!at_op(",")) return first;
  Block elts{first};
  while (accept_op(",")) {
    if (at_op("]")) break;
    elts.push_back(subscript());
  }
  return tuple(elts);
}

P Parser::subscript() {
  if (at_op("*")) return star_expr();
  P lower;
  if (!at_op(":")) {
    lower = namedexpr_test();
    if (!at_op(":")) return lower;
  }
  P s = node(K::Slice);
  expect_op(":");
  s->a = lower;
  if (!at_op(":") && !at_op("]") && !at_op(",")) s->b = test();
  if (accept_op(":")) {
    if (!at_op("]") && !at_op(",")) s->c = test();
  }
  return s;
}

Block Parser::comp_for() {
  Block gens;
  while (at_kw("for") || (at_kw("async") && peek(1).text == "for")) {
    P c = node(K::Comprehension);
    if (accept_kw("async")) c->flag = 1;
    expect_kw("for");
    c->a = target_list();
    expect_kw("in");
    c->b = or_test();
    while (accept_kw("if")) c->v1.push_back(test_nocond());
    gens.push_back(c);
  }
  return gens;
}

P Parser::test_nocond() {
  if (at_kw("lambda")) return lambdef();
  return or_test();
}

P Parser::target_list() {
  P first = at_op("*") ? star_expr() : bitor_expr();
  P out = first;
  if (at_op(",")) {
    Block elts{first};
    while (accept_op(",")) {
      if (at_kw("in") || at_op("=")) break;
      elts.push_back(at_op("*") ? star_expr() : bitor_expr());
    }
    out = tuple(elts);
  }
  set_ctx(out, Ctx::Store);
  return out;
}

P Parser::exprlist() {
  P first = bitor_expr();
  if (!at_op(",")) return first;
  Block elts{first};
  while (accept_op(",")) {
    if (at_stmt_end()) break;
    elts.push_back(bitor_expr());
  }
  return tuple(elts);
}

P Parser::yield_expr() {
  P n = node(K::Yield);
  expect_kw("yield");
  if (accept_kw("from")) {
    n->kind = K::YieldFrom;
    n->a = test();
  } else if (!at_expr_end() && !at_op(")")) {
    n->a = testlist_star_expr();
  }
  return n;
}

P Parser::atom() {
  const Token& t = peek();
  int line = t.line, col = t.col + 1;
  if (t.type == Tok::Op) {
    if (t.text == "(") {
      ++pos_;
      if (accept_op(")")) return tuple({});
      if (at_kw("yield")) {
        P y = yield_expr();
        expect_op(")");
        return y;
      }
      P first = at_op("*") ? star_expr() : namedexpr_test();
      if (at_kw("for") || at_kw("async")) {
        P g = std::make_shared<Node>(K::GeneratorExp);
        g->line = line;
        g->col = col;
        g->a = first;
        g->v1 = comp_for();
        expect_op(")");
        return g;
      }
      if (accept_op(")")) {
        // A parenthesised single expression: remember it for AnnAssign's `simple` flag.
        if (first->kind == K::Name) {
          P copy = clone(first);
          copy->flag = 1;
          return copy;
        }
        return first;
      }
      Block elts{first};
      while (accept_op(",")) {
        if (at_op(")")) break;
        elts.push_back(at_op("*") ? star_expr() : namedexpr_test());
      }
      expect_op(")");
      P tp = tuple(elts);
      tp->line = line;
      tp->col = col;
      tp->flag = 1;
      return tp;
    }
    if (t.text == "[") {
      ++pos_;
      P n = std::make_shared<Node>(K::List);
      n->line = line;
      n->col = col;
      if (accept_op("]")) return n;
      P first = at_op("*") ? star_expr() : namedexpr_test();
      if (at_kw("for") || at_kw("async")) {
        n->kind = K::ListComp;
        n->a = first;
        n->v1 = comp_for();
        expect_op("]");
        return n;
      }
      n->v1.push_back(first);
      while (accept_op(",")) {
        if (at_op("]")) break;
        n->v1.push_back(at_op("*") ? star_expr() : namedexpr_test());
      }
      expect_op("]");
      return n;
    }
    if (t.text == "{") return brace_atom();
    if (t.text == "...") {
      ++pos_;
      P n = kw_const(ConstKind::Ellipsis);
      n->line = line;
      n->col = col;
      return n;
    }
    syntax_error(line, "invalid syntax near '" + t.text + "'");
  }
  if (t.type == Tok::Number) {
    ++pos_;
    P n = number(t.text, line);
    n->col = col;
    return n;
  }
  if (t.type == Tok::String) return strings();
  if (t.type == Tok::Name) {
    if (t.text == "None" || t.text == "True" || t.text == "False") {
      ++pos_;
      P n = kw_const(t.text == "None"   ? ConstKind::None
                     : t.text == "True" ? ConstKind::True
                                        : ConstKind::False);
      n->line = line;
      n->col = col;
      return n;
    }
    if (is_keyword(t.text)) syntax_error(line, "invalid syntax near '" + t.text + "'");
    ++pos_;
    P n = name(t.text);
    n->line = line;
    n->col = col;
    n->original = true;
    return n;
  }
  syntax_error(line, "invalid syntax");
}

P Parser::brace_atom() {
  int line = peek().line, col = peek().col + 1;
  expect_op("{");
  if (accept_op("}")) {
    P d = std::make_shared<Node>(K::Dict);
    d->line = line;
    d->col = col;
    return d;
  }
  P key, value;
  bool is_dict = false;
  if (accept_op("**")) {
    is_dict = true;
    value = bitor_expr();
  } else {
    key = at_op("*") ? star_expr() : namedexpr_test();
    if (accept_op(":")) {
      is_dict = true;
      value = test();
    }
  }
  if (is_dict) {
    P d = std::make_shared<Node>(K::Dict);
    d->line = line;
    d->col = col;
    if (at_kw("for") || at_kw("async")) {
      d->kind = K::DictComp;
      d->a = key;
      d->b = value;
      d->v1 = comp_for();
      expect_op("}");
      return d;
    }
    d->v1.push_back(key);
    d->v2.push_back(value);
    while (accept_op(",")) {
      if (at_op("}")) break;
      if (accept_op("**")) {
        d->v1.push_back(nullptr);
        d->v2.push_back(bitor_expr());
      } else {
        d->v1.push_back(test());
        expect_op(":");
        d->v2.push_back(test());
      }
    }
    expect_op("}");
    return d;
  }
  P s = std::make_shared<Node>(K::Set);
  s->line = line;
  s->col = col;
  if (at_kw("for") || at_kw("async")) {
    s->kind = K::SetComp;
    s->a = key;
    s->v1 = comp_for();
    expect_op("}");
    return s;
  }
  s->v1.push_back(key);
  while (accept_op(",")) {
    if (at_op("}")) break;
    s->v1.push_back(at_op("*") ? star_expr() : namedexpr_test());
  }
  expect_op("}");
  return s;
}

P Parser::number(const std::string& text, int line) {
  P n = std::make_shared<Node>(K::Constant);
  n->line = line;
  std::string t;
  for (char c : text)
    if (c != '_') t += c;
  char last = static_cast<char>(std::tolower(t.back()));
  bool hex = t.size() > 1 && t[0] == '0' && std::strchr("xXoObB", t[1]);
  if (last == 'j') {
    n->ckind = ConstKind::Complex;
    n->s = t.substr(0, t.size() - 1);
  } else if (!hex && (t.find_first_of(".eE") != std::string::npos)) {
    n->ckind = ConstKind::Float;
    n->s = t;
  } else {
    n->ckind = ConstKind::Int;
    n->s = t;
  }
  return n;
}

P Parser::strings() {
  int line = peek().line, col = peek().col + 1;
  bool any_f = false, bytes = false;
  std::vector<std::pair<std::string, bool>> pieces;  // token text, is f-string
  while (at(Tok::String)) {
    const std::string& tok = t_[pos_++].text;
    StrParts sp = split_literal(tok);
    bool f = sp.prefix.find('f') != std::string::npos;
    bytes = sp.prefix.find('b') != std::string::npos;
    any_f = any_f || f;
    pieces.emplace_back(tok, f);
  }
  if (!any_f) {
    std::string value;
    for (auto& [tok, f] : pieces) {
      bool b = false, ff = false;
      value += decode_string_literal(tok, &b, &ff);
    }
    P n = std::make_shared<Node>(K::Constant);
    n->line = line;
    n->col = col;
    n->ckind = bytes ? ConstKind::Bytes : ConstKind::Str;
    n->s = value;
    // Constant.kind is 'u' when the first piece has a u prefix; ast.unparse prints it.
    if (split_literal(pieces[0].first).prefix == "u") n->flag = 'u';
    return n;
  }
  P js = std::make_shared<Node>(K::JoinedStr);
  js->line = line;
  js->col = col;
  for (auto& [tok, f] : pieces) {
    if (!f) {
      bool b = false, ff = false;
      add_fstring_literal(js, decode_string_literal(tok, &b, &ff));
      continue;
    }
    StrParts sp = split_literal(tok);
    bool raw = sp.prefix.find('r') != std::string::npos;
    parse_fstring_body(js, sp.body, raw, line);
  }
  return js;
}

}  // namespace tfs::autograph::detail
