#include "parser.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "string_literals.h"
#include "tfscope/autograph.h"
#include "tokenizer.h"

namespace tfs::autograph::detail {
namespace {

[[noreturn]] void fail(int line, const std::string& what) {
  throw ConversionError("[autograph] syntax error at line " + std::to_string(line) + ": " + what);
}

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : t_(std::move(toks)) {}

  ParsedModule module() {
    ParsedModule m;
    while (!at(Tok::End)) {
      if (accept_type(Tok::Newline)) continue;
      int first = peek().line;
      Block stmts = statement();
      int last = t_[pos_ - 1].line;
      // The last token of a compound statement is a NEWLINE/DEDENT; find the last real token.
      for (size_t k = pos_; k-- > 0;) {
        if (t_[k].type != Tok::Newline && t_[k].type != Tok::Dedent && t_[k].type != Tok::Indent) {
          last = t_[k].line + count_newlines(t_[k]);
          break;
        }
      }
      for (auto& s : stmts) {
        m.body.push_back(s);
        m.spans.emplace_back(first, last);
      }
    }
    return m;
  }

  P expression_only() {
    P e = testlist_star_expr();
    while (accept_type(Tok::Newline)) {
    }
    if (!at(Tok::End)) fail(peek().line, "invalid syntax");
    return e;
  }

 private:
  static int count_newlines(const Token& t) {
    return static_cast<int>(std::count(t.text.begin(), t.text.end(), '\n'));
  }

  // ---- token helpers
  const Token& peek(int k = 0) const { return t_[std::min(pos_ + k, t_.size() - 1)]; }
  bool at(Tok type) const { return peek().type == type; }
  bool at_op(const char* op) const { return peek().type == Tok::Op && peek().text == op; }
  bool at_kw(const char* kw) const { return peek().type == Tok::Name && peek().text == kw; }
  bool accept_op(const char* op) {
    if (!at_op(op)) return false;
    ++pos_;
    return true;
  }
  bool accept_kw(const char* kw) {
    if (!at_kw(kw)) return false;
    ++pos_;
    return true;
  }
  bool accept_type(Tok type) {
    if (!at(type)) return false;
    ++pos_;
    return true;
  }
  void expect_op(const char* op) {
    if (!accept_op(op)) fail(peek().line, std::string("expected '") + op + "'");
  }
  void expect_kw(const char* kw) {
    if (!accept_kw(kw)) fail(peek().line, std::string("expected '") + kw + "'");
  }
  std::string expect_name() {
    if (!at(Tok::Name) || is_keyword(peek().text)) fail(peek().line, "expected a name");
    return t_[pos_++].text;
  }
  static bool is_keyword(const std::string& s) {
    static const char* const kws[] = {
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    for (const char* k : kws)
      if (s == k) return true;
    return false;
  }
  P node(K k) {
    auto n = std::make_shared<Node>(k);
    n->line = peek().line;
    return n;
  }

  // ---- statements
  Block statement() {
    if (at_op("@") || at_kw("def") || at_kw("class") || at_kw("if") || at_kw("while") ||
        at_kw("for") || at_kw("try") || at_kw("with") ||
        (at_kw("async") &&
         (peek(1).text == "def" || peek(1).text == "for" || peek(1).text == "with")))
      return {compound()};
    return simple_line();
  }

  Block suite() {
    expect_op(":");
    if (!accept_type(Tok::Newline)) return simple_line();
    if (!accept_type(Tok::Indent)) fail(peek().line, "expected an indented block");
    Block body;
    while (!accept_type(Tok::Dedent)) {
      if (at(Tok::End)) break;
      if (accept_type(Tok::Newline)) continue;
      for (auto& s : statement()) body.push_back(s);
    }
    return body;
  }

  P compound() {
    if (at_op("@")) {
      Block decorators;
      while (accept_op("@")) {
        decorators.push_back(namedexpr_test());
        if (!accept_type(Tok::Newline)) fail(peek().line, "expected newline after decorator");
      }
      P d = compound();
      if (d->kind != K::FunctionDef && d->kind != K::ClassDef)
        fail(d->line, "decorator must precede a def or class");
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
    fail(peek().line, "invalid syntax");
  }

  P funcdef(bool is_async) {
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

  P classdef() {
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

  P if_stmt() {
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

  P try_stmt() {
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

  P with_stmt(bool is_async) {
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

  Block simple_line() {
    Block out;
    out.push_back(small_stmt());
    while (accept_op(";")) {
      if (at(Tok::Newline)) break;
      out.push_back(small_stmt());
    }
    if (!accept_type(Tok::Newline) && !at(Tok::End)) fail(peek().line, "invalid syntax");
    return out;
  }

  P small_stmt() {
    const Token& t = peek();
    if (t.type == Tok::Name) {
      if (t.text == "pass") return (++pos_, with_line(std::make_shared<Node>(K::Pass), t.line));
      if (t.text == "break") return (++pos_, with_line(std::make_shared<Node>(K::Break), t.line));
      if (t.text == "continue")
        return (++pos_, with_line(std::make_shared<Node>(K::Continue), t.line));
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

  static P with_line(P n, int line) {
    n->line = line;
    return n;
  }

  bool at_stmt_end() const { return at(Tok::Newline) || at_op(";") || at(Tok::End); }

  std::string dotted_name() {
    std::string s = expect_name();
    while (accept_op(".")) s += "." + expect_name();
    return s;
  }

  P expr_stmt_or_assign() {
    int line = peek().line;
    P first = at_kw("yield") ? yield_expr() : testlist_star_expr();
    if (at_op(":")) {  // annotated assignment
      ++pos_;
      P n = std::make_shared<Node>(K::AnnAssign);
      n->line = line;
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
    n->a = first;
    return n;
  }

  // ---- argument lists (def and lambda)
  P arguments(const char* closer, bool annotations) {
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
            fail(peek().line, "non-default argument follows default argument");
        }
      }
      if (!accept_op(",")) break;
    }
    return args;
  }

  P arg(bool annotations) {
    P a = node(K::Arg);
    a->s = expect_name();
    if (annotations && accept_op(":")) a->a = test();
    return a;
  }

  // ---- expressions
  P testlist_star_expr() {
    int line = peek().line;
    P first = at_op("*") ? star_expr() : namedexpr_test();
    if (!at_op(",")) return first;
    Block elts{first};
    while (accept_op(",")) {
      if (at_expr_end()) break;
      elts.push_back(at_op("*") ? star_expr() : namedexpr_test());
    }
    P t = tuple(elts);
    t->line = line;
    return t;
  }

  P testlist() { return testlist_star_expr(); }

  bool at_expr_end() const {
    if (at(Tok::Newline) || at(Tok::End)) return true;
    if (peek().type == Tok::Op) {
      const std::string& s = peek().text;
      return s == ")" || s == "]" || s == "}" || s == "=" || s == ":" || s == ";" ||
             (s.size() >= 2 && s.back() == '=' && s != "==" && s != "!=" && s != "<=" && s != ">=");
    }
    return peek().type == Tok::Name && (peek().text == "in" || peek().text == "for");
  }

  P star_expr() {
    P n = node(K::Starred);
    expect_op("*");
    n->a = bitor_expr();
    return n;
  }

  P namedexpr_test() {
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

  P test() {
    if (at_kw("lambda")) return lambdef();
    int line = peek().line;
    P body = or_test();
    if (accept_kw("if")) {
      P n = std::make_shared<Node>(K::IfExp);
      n->line = line;
      n->b = body;
      n->a = or_test();
      expect_kw("else");
      n->c = test();
      return n;
    }
    return body;
  }

  P lambdef() {
    P n = node(K::Lambda);
    expect_kw("lambda");
    n->a = arguments(":", false);
    expect_op(":");
    n->b = test();
    return n;
  }

  P or_test() {
    return boolop("or", [this] { return and_test(); });
  }
  P and_test() {
    return boolop("and", [this] { return not_test(); });
  }

  template <class F>
  P boolop(const char* op, F next) {
    P first = next();
    if (!at_kw(op)) return first;
    P n = std::make_shared<Node>(K::BoolOp);
    n->line = first->line;
    n->s = op;
    n->v1.push_back(first);
    while (accept_kw(op)) n->v1.push_back(next());
    return n;
  }

  P not_test() {
    if (at_kw("not")) {
      P n = node(K::UnaryOp);
      ++pos_;
      n->s = "not";
      n->a = not_test();
      return n;
    }
    return comparison();
  }

  P comparison() {
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
        n->a = left;
      }
      n->names.push_back(op);
      n->v1.push_back(bitor_expr());
    }
    return n ? n : left;
  }

  P binary(int level) {
    static const std::vector<std::vector<std::string>> levels = {
        {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
    if (level == static_cast<int>(levels.size())) return factor();
    P left = binary(level + 1);
    while (peek().type == Tok::Op && std::find(levels[level].begin(), levels[level].end(),
                                               peek().text) != levels[level].end()) {
      P n = std::make_shared<Node>(K::BinOp);
      n->line = left->line;
      n->s = t_[pos_++].text;
      n->a = left;
      n->b = binary(level + 1);
      left = n;
    }
    return left;
  }
  P bitor_expr() { return binary(0); }

  P factor() {
    if (at_op("-") || at_op("+") || at_op("~")) {
      P n = node(K::UnaryOp);
      n->s = t_[pos_++].text;
      n->a = factor();
      return n;
    }
    return power();
  }

  P power() {
    P base;
    if (at_kw("await")) {
      base = node(K::Await);
      ++pos_;
      base->a = primary();
    } else {
      base = primary();
    }
    if (accept_op("**")) {
      P n = std::make_shared<Node>(K::BinOp);
      n->line = base->line;
      n->s = "**";
      n->a = base;
      n->b = factor();
      return n;
    }
    return base;
  }

  P primary() {
    P e = atom();
    while (true) {
      if (accept_op(".")) {
        P n = std::make_shared<Node>(K::Attribute);
        n->line = e->line;
        n->a = e;
        n->s = expect_name();
        e = n;
      } else if (at_op("(")) {
        ++pos_;
        P n = std::make_shared<Node>(K::Call);
        n->line = e->line;
        n->a = e;
        call_args(n->v1, n->v2);
        expect_op(")");
        e = n;
      } else if (at_op("[")) {
        ++pos_;
        P n = std::make_shared<Node>(K::Subscript);
        n->line = e->line;
        n->a = e;
        n->b = subscript_list();
        expect_op("]");
        e = n;
      } else {
        return e;
      }
    }
  }

  void call_args(Block& args, Block& keywords) {
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
          g->a = e;
          g->v1 = comp_for();
          e = g;
        }
        args.push_back(e);
      }
      if (!accept_op(",")) break;
    }
  }

  P subscript_list() {
    P first = subscript();
    if (!at_op(",")) return first;
    Block elts{first};
    while (accept_op(",")) {
      if (at_op("]")) break;
      elts.push_back(subscript());
    }
    return tuple(elts);
  }

  P subscript() {
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

  Block comp_for() {
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

  P test_nocond() {
    if (at_kw("lambda")) return lambdef();
    return or_test();
  }

  // for-loop / comprehension targets: a comma-separated list of star targets.
  P target_list() {
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

  P target() { return bitor_expr(); }

  P exprlist() {
    P first = bitor_expr();
    if (!at_op(",")) return first;
    Block elts{first};
    while (accept_op(",")) {
      if (at_stmt_end()) break;
      elts.push_back(bitor_expr());
    }
    return tuple(elts);
  }

  P yield_expr() {
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

  P atom() {
    const Token& t = peek();
    int line = t.line;
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
        tp->flag = 1;
        return tp;
      }
      if (t.text == "[") {
        ++pos_;
        P n = std::make_shared<Node>(K::List);
        n->line = line;
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
        return n;
      }
      fail(line, "invalid syntax near '" + t.text + "'");
    }
    if (t.type == Tok::Number) {
      ++pos_;
      return number(t.text, line);
    }
    if (t.type == Tok::String) return strings();
    if (t.type == Tok::Name) {
      if (t.text == "None" || t.text == "True" || t.text == "False") {
        ++pos_;
        P n = kw_const(t.text == "None"   ? ConstKind::None
                       : t.text == "True" ? ConstKind::True
                                          : ConstKind::False);
        n->line = line;
        return n;
      }
      if (is_keyword(t.text)) fail(line, "invalid syntax near '" + t.text + "'");
      ++pos_;
      P n = name(t.text);
      n->line = line;
      n->original = true;
      return n;
    }
    fail(line, "invalid syntax");
  }

  P brace_atom() {
    int line = peek().line;
    expect_op("{");
    if (accept_op("}")) {
      P d = std::make_shared<Node>(K::Dict);
      d->line = line;
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

  static P number(const std::string& text, int line) {
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

  P strings() {
    int line = peek().line;
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
      n->ckind = bytes ? ConstKind::Bytes : ConstKind::Str;
      n->s = value;
      // Constant.kind is 'u' when the first piece has a u prefix; ast.unparse prints it.
      if (split_literal(pieces[0].first).prefix == "u") n->flag = 'u';
      return n;
    }
    P js = std::make_shared<Node>(K::JoinedStr);
    js->line = line;
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

  std::vector<Token> t_;
  size_t pos_ = 0;
};

}  // namespace

ParsedModule parse_module(std::string_view src) {
  return Parser(tokenize(src)).module();
}

P parse_expression(std::string_view src) {
  return Parser(tokenize(src)).expression_only();
}

}  // namespace tfs::autograph::detail
