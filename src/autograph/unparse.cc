#include "unparse.h"

#include "literals.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <utility>

namespace tfs::autograph::detail {
namespace {

// Python's ast._Precedence.
enum Prec {
  NAMED_EXPR = 1,
  TUPLE,
  YIELD,
  TEST,
  OR,
  AND,
  NOT,
  CMP,
  EXPR,
  BOR = EXPR,
  BXOR,
  BAND,
  SHIFT,
  ARITH,
  TERM,
  FACTOR,
  POWER,
  AWAIT,
  ATOM
};

int binop_prec(const std::string& op) {
  if (op == "+" || op == "-") return ARITH;
  if (op == "*" || op == "@" || op == "/" || op == "%" || op == "//") return TERM;
  if (op == "<<" || op == ">>") return SHIFT;
  if (op == "|") return BOR;
  if (op == "^") return BXOR;
  if (op == "&") return BAND;
  return POWER;
}

class Unparser {
 public:
  std::string out;

  void stmts(const Block& b) {
    for (const auto& s : b) stmt(s);
  }

  // (offset where an output line starts, the source line it comes from): the source map TF keeps
  // to report errors in converted code at the user's lines.
  std::vector<std::pair<size_t, int>> marks;

  void fill(const std::string& text = "") {
    if (!out.empty()) out += "\n";
    marks.emplace_back(out.size(), origin_);
    out += std::string(4 * indent_, ' ') + text;
  }
  void maybe_newline() {
    if (!out.empty()) {
      out += "\n";
      marks.emplace_back(out.size(), origin_);
    }
  }
  void block(const Block& b) {
    out += ":";
    ++indent_;
    stmts(b);
    --indent_;
  }

  // A statement's origin: its own line, else (made by a pass) the first source line in it, else
  // the enclosing statement's.
  void stmt(const P& n) {
    int saved = origin_;
    if (int o = first_source_line(n)) origin_ = o;
    stmt_lines(n);
    origin_ = saved;
  }

  // Nested statements have their own origin; only the expressions of `n` are searched.
  static int first_source_line(const P& n) {
    if (!n) return 0;
    if (n->line) return n->line;
    for (const P* c : {&n->a, &n->b, &n->c})
      if (*c && !is_stmt((*c)->kind))
        if (int l = first_source_line(*c)) return l;
    for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
      for (const auto& c : *v)
        if (c && !is_stmt(c->kind))
          if (int l = first_source_line(c)) return l;
    return 0;
  }

  void stmt_lines(const P& n) {
    switch (n->kind) {
      case K::FunctionDef: {
        maybe_newline();
        for (auto& d : n->v2) {
          fill("@");
          expr(d, TEST);
        }
        fill(std::string(n->flag ? "async def " : "def ") + n->s);
        out += "(";
        arguments(n->a);
        out += ")";
        if (n->b) {
          out += " -> ";
          expr(n->b, TEST);
        }
        body_with_docstring(n->v1);
        break;
      }
      case K::ClassDef: {
        maybe_newline();
        for (auto& d : n->v2) {
          fill("@");
          expr(d, TEST);
        }
        fill("class " + n->s);
        if (!n->v3.empty() || !n->v4.empty()) {
          out += "(";
          bool comma = false;
          for (auto& e : n->v3) {
            if (comma) out += ", ";
            comma = true;
            expr(e, TEST);
          }
          for (auto& e : n->v4) {
            if (comma) out += ", ";
            comma = true;
            expr(e, TEST);
          }
          out += ")";
        }
        body_with_docstring(n->v1);
        break;
      }
      case K::Return:
        fill("return");
        if (n->a) {
          out += " ";
          expr(n->a, TEST);
        }
        break;
      case K::Delete:
        fill("del ");
        interleave(n->v1, TEST);
        break;
      case K::Assign:
        fill();
        for (auto& t : n->v1) {
          expr(t, TUPLE);
          out += " = ";
        }
        expr(n->a, TEST);
        break;
      case K::AugAssign:
        fill();
        expr(n->a, TEST);
        out += " " + n->s + "= ";
        expr(n->b, TEST);
        break;
      case K::AnnAssign:
        fill();
        if (!n->flag && n->a->kind == K::Name) {
          out += "(";
          expr(n->a, TEST);
          out += ")";
        } else {
          expr(n->a, TEST);
        }
        out += ": ";
        expr(n->b, TEST);
        if (n->c) {
          out += " = ";
          expr(n->c, TEST);
        }
        break;
      case K::For:
        fill(n->flag ? "async for " : "for ");
        expr(n->a, TUPLE);
        out += " in ";
        expr(n->b, TEST);
        block(n->v1);
        if (!n->v2.empty()) {
          fill("else");
          block(n->v2);
        }
        break;
      case K::While:
        fill("while ");
        expr(n->a, TEST);
        block(n->v1);
        if (!n->v2.empty()) {
          fill("else");
          block(n->v2);
        }
        break;
      case K::If: {
        fill("if ");
        expr(n->a, TEST);
        block(n->v1);
        const Node* cur = n.get();
        while (cur->v2.size() == 1 && cur->v2[0]->kind == K::If) {
          cur = cur->v2[0].get();
          fill("elif ");
          expr(cur->a, TEST);
          block(cur->v1);
        }
        if (!cur->v2.empty()) {
          fill("else");
          block(cur->v2);
        }
        break;
      }
      case K::With:
        fill(n->flag ? "async with " : "with ");
        for (size_t i = 0; i < n->v1.size(); ++i) {
          if (i) out += ", ";
          expr(n->v1[i]->a, TEST);
          if (n->v1[i]->b) {
            out += " as ";
            expr(n->v1[i]->b, TEST);
          }
        }
        block(n->v2);
        break;
      case K::Raise:
        fill("raise");
        if (n->a) {
          out += " ";
          expr(n->a, TEST);
          if (n->b) {
            out += " from ";
            expr(n->b, TEST);
          }
        }
        break;
      case K::Try:
        fill("try");
        block(n->v1);
        for (auto& h : n->v2) {
          fill(n->flag ? "except*" : "except");
          if (h->a) {
            out += " ";
            expr(h->a, TEST);
          }
          if (!h->s.empty()) out += " as " + h->s;
          block(h->v1);
        }
        if (!n->v3.empty()) {
          fill("else");
          block(n->v3);
        }
        if (!n->v4.empty()) {
          fill("finally");
          block(n->v4);
        }
        break;
      case K::Assert:
        fill("assert ");
        expr(n->a, TEST);
        if (n->b) {
          out += ", ";
          expr(n->b, TEST);
        }
        break;
      case K::Import:
        fill("import ");
        aliases(n->v1);
        break;
      case K::ImportFrom:
        fill("from ");
        out += std::string(n->flag, '.');
        out += n->s;
        out += " import ";
        aliases(n->v1);
        break;
      case K::Global:
      case K::Nonlocal:
        fill(n->kind == K::Global ? "global " : "nonlocal ");
        for (size_t i = 0; i < n->names.size(); ++i) out += (i ? ", " : "") + n->names[i];
        break;
      case K::Expr:
        fill();
        expr(n->a, YIELD);
        break;
      case K::Pass:
        fill("pass");
        break;
      case K::Break:
        fill("break");
        break;
      case K::Continue:
        fill("continue");
        break;
      case K::Match:
        fill("match ");
        expr(n->a, TEST);
        out += ":";
        ++indent_;
        for (const P& c : n->v1) {
          fill("case ");
          pattern(c->a, TEST);
          if (c->b) {
            out += " if ";
            expr(c->b, TEST);
          }
          block(c->v1);
        }
        --indent_;
        break;
      default:
        throw std::logic_error("unparse: not a statement");
    }
  }

  // ast.unparse's visit_Match* methods; `prec` is the precedence the parent set (TEST if none).
  void pattern(const P& p, int prec) {
    auto list = [&](const Block& ps) {
      for (size_t i = 0; i < ps.size(); ++i) {
        if (i) out += ", ";
        pattern(ps[i], TEST);
      }
    };
    switch (p->kind) {
      case K::MatchValue:
        expr(p->a, TEST);
        break;
      case K::MatchSingleton:
        out += p->ckind == ConstKind::None ? "None" : p->ckind == ConstKind::True ? "True" : "False";
        break;
      case K::MatchSequence:
        out += "[";
        list(p->v1);
        out += "]";
        break;
      case K::MatchStar:
        out += "*" + (p->s.empty() ? std::string("_") : p->s);
        break;
      case K::MatchMapping:
        out += "{";
        for (size_t i = 0; i < p->v1.size(); ++i) {
          if (i) out += ", ";
          expr(p->v1[i], TEST);
          out += ": ";
          pattern(p->v2[i], TEST);
        }
        if (p->flag) out += (p->v1.empty() ? "**" : ", **") + p->s;
        out += "}";
        break;
      case K::MatchClass:
        expr(p->a, ATOM);
        out += "(";
        list(p->v1);
        for (size_t i = 0; i < p->names.size(); ++i) {
          if (i || !p->v1.empty()) out += ", ";
          out += p->names[i] + "=";
          pattern(p->v2[i], TEST);
        }
        out += ")";
        break;
      case K::MatchAs:
        if (p->s.empty()) {
          out += "_";
        } else if (!p->a) {
          out += p->s;
        } else {
          if (prec > TEST) out += "(";
          pattern(p->a, BOR);
          out += " as " + p->s;
          if (prec > TEST) out += ")";
        }
        break;
      case K::MatchOr:
        if (prec > BOR) out += "(";
        for (size_t i = 0; i < p->v1.size(); ++i) {
          if (i) out += " | ";
          pattern(p->v1[i], BOR + 1);
        }
        if (prec > BOR) out += ")";
        break;
      default:
        throw std::logic_error("unparse: not a pattern");
    }
  }

  void aliases(const Block& al) {
    for (size_t i = 0; i < al.size(); ++i) {
      if (i) out += ", ";
      out += al[i]->s;
      if (!al[i]->s2.empty()) out += " as " + al[i]->s2;
    }
  }

  void body_with_docstring(const Block& body) {
    if (!body.empty() && body[0]->kind == K::Expr && body[0]->a->kind == K::Constant &&
        body[0]->a->ckind == ConstKind::Str) {
      out += ":";
      ++indent_;
      fill();
      out += docstring(body[0]->a->s);
      stmts(Block(body.begin() + 1, body.end()));
      --indent_;
      return;
    }
    block(body);
  }

  static std::string docstring(const std::string& v) {
    // _str_literal_helper with multi-line quotes; newlines and tabs stay literal.
    std::string esc;
    for (size_t i = 0; i < v.size();) {
      size_t start = i;
      unsigned long cp = next_cp(v, i);
      if (cp == '\n' || cp == '\t')
        esc += static_cast<char>(cp);
      else if (cp == '\\')
        esc += "\\\\";
      else if (!printable(cp))
        esc += cp == '\r' ? "\\r" : hex_escape(cp);
      else
        esc += v.substr(start, i - start);
    }
    std::string q = esc.find("\"\"\"") == std::string::npos ? "\"\"\"" : "'''";
    if (!esc.empty() && esc.back() == q[0]) esc = esc.substr(0, esc.size() - 1) + "\\" + q[0];
    return q + esc + q;
  }

  void interleave(const Block& items, int prec) {
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      expr(items[i], prec);
    }
  }

  void items_view(const Block& items) {
    if (items.size() == 1) {
      expr(items[0], TEST);
      out += ",";
    } else {
      interleave(items, TEST);
    }
  }

  void arguments(const P& a) {
    if (!a) return;
    bool first = true;
    Block all = a->v1;
    all.insert(all.end(), a->v2.begin(), a->v2.end());
    size_t ndef = a->v4.size();
    for (size_t i = 0; i < all.size(); ++i) {
      if (!first) out += ", ";
      first = false;
      arg(all[i]);
      if (i + ndef >= all.size()) {
        out += "=";
        expr(a->v4[i + ndef - all.size()], TEST);
      }
      if (i + 1 == a->v1.size()) out += ", /";
    }
    if (a->a || !a->v3.empty()) {
      if (!first) out += ", ";
      first = false;
      out += "*";
      if (a->a) arg(a->a);
    }
    for (size_t i = 0; i < a->v3.size(); ++i) {
      out += ", ";
      arg(a->v3[i]);
      if (i < a->v5.size() && a->v5[i]) {
        out += "=";
        expr(a->v5[i], TEST);
      }
    }
    if (a->b) {
      if (!first) out += ", ";
      out += "**";
      arg(a->b);
    }
  }

  void arg(const P& a) {
    out += a->s;
    if (a->a) {
      out += ": ";
      expr(a->a, TEST);
    }
  }

  void paren_if(bool cond, const std::function<void()>& f) {
    if (cond) out += "(";
    f();
    if (cond) out += ")";
  }

  void expr(const P& n, int prec) {
    switch (n->kind) {
      case K::Name:
        out += n->s;
        break;
      case K::Constant:
        constant(n);
        break;
      case K::Attribute:
        expr(n->a, ATOM);
        if (n->a->kind == K::Constant && n->a->ckind == ConstKind::Int) out += " ";
        out += "." + n->s;
        break;
      case K::Subscript:
        expr(n->a, ATOM);
        out += "[";
        if (n->b->kind == K::Tuple && !n->b->v1.empty())
          items_view(n->b->v1);
        else
          expr(n->b, TEST);
        out += "]";
        break;
      case K::Slice:
        if (n->a) expr(n->a, TEST);
        out += ":";
        if (n->b) expr(n->b, TEST);
        if (n->c) {
          out += ":";
          expr(n->c, TEST);
        }
        break;
      case K::Call: {
        expr(n->a, ATOM);
        out += "(";
        bool comma = false;
        for (auto& e : n->v1) {
          if (comma) out += ", ";
          comma = true;
          expr(e, TEST);
        }
        for (auto& e : n->v2) {
          if (comma) out += ", ";
          comma = true;
          expr(e, TEST);
        }
        out += ")";
        break;
      }
      case K::Keyword:
        if (n->s.empty())
          out += "**";
        else
          out += n->s + "=";
        expr(n->a, TEST);
        break;
      case K::Starred:
        out += "*";
        expr(n->a, EXPR);
        break;
      case K::BinOp: {
        int p = binop_prec(n->s);
        bool rassoc = n->s == "**";
        paren_if(prec > p, [&] {
          expr(n->a, rassoc ? p + 1 : p);
          out += " " + n->s + " ";
          expr(n->b, rassoc ? p : p + 1);
        });
        break;
      }
      case K::UnaryOp: {
        int p = n->s == "not" ? NOT : FACTOR;
        paren_if(prec > p, [&] {
          out += n->s;
          if (p != FACTOR) out += " ";
          expr(n->a, p);
        });
        break;
      }
      case K::BoolOp: {
        int p = n->s == "and" ? AND : OR;
        paren_if(prec > p, [&] {
          int level = p;
          for (size_t i = 0; i < n->v1.size(); ++i) {
            if (i) out += " " + n->s + " ";
            ++level;
            expr(n->v1[i], level);
          }
        });
        break;
      }
      case K::Compare:
        paren_if(prec > CMP, [&] {
          expr(n->a, CMP + 1);
          for (size_t i = 0; i < n->v1.size(); ++i) {
            out += " " + n->names[i] + " ";
            expr(n->v1[i], CMP + 1);
          }
        });
        break;
      case K::IfExp:
        paren_if(prec > TEST, [&] {
          expr(n->b, TEST + 1);
          out += " if ";
          expr(n->a, TEST + 1);
          out += " else ";
          expr(n->c, TEST);
        });
        break;
      case K::Lambda:
        paren_if(prec > TEST, [&] {
          out += "lambda";
          Unparser sub;
          sub.arguments(n->a);
          if (!sub.out.empty()) out += " " + sub.out;
          out += ": ";
          expr(n->b, TEST);
        });
        break;
      case K::Tuple:
        paren_if(n->v1.empty() || prec > TUPLE, [&] { items_view(n->v1); });
        break;
      case K::List:
        out += "[";
        interleave(n->v1, TEST);
        out += "]";
        break;
      case K::Set:
        if (n->v1.empty()) {
          out += "{*()}";
        } else {
          out += "{";
          interleave(n->v1, TEST);
          out += "}";
        }
        break;
      case K::Dict:
        out += "{";
        for (size_t i = 0; i < n->v1.size(); ++i) {
          if (i) out += ", ";
          if (!n->v1[i]) {
            out += "**";
            expr(n->v2[i], EXPR);
          } else {
            expr(n->v1[i], TEST);
            out += ": ";
            expr(n->v2[i], TEST);
          }
        }
        out += "}";
        break;
      case K::ListComp:
      case K::SetComp:
      case K::GeneratorExp:
      case K::DictComp: {
        const char* open = n->kind == K::ListComp ? "[" : n->kind == K::GeneratorExp ? "(" : "{";
        const char* close = n->kind == K::ListComp ? "]" : n->kind == K::GeneratorExp ? ")" : "}";
        out += open;
        expr(n->a, TEST);
        if (n->kind == K::DictComp) {
          out += ": ";
          expr(n->b, TEST);
        }
        for (auto& g : n->v1) {
          out += g->flag ? " async for " : " for ";
          expr(g->a, TUPLE);
          out += " in ";
          expr(g->b, TEST + 1);
          for (auto& c : g->v1) {
            out += " if ";
            expr(c, TEST + 1);
          }
        }
        out += close;
        break;
      }
      case K::JoinedStr:
        out += "f" + fstring(n);
        break;
      case K::FormattedValue: {
        P js = std::make_shared<Node>(K::JoinedStr);
        js->v1.push_back(n);
        out += "f" + fstring(js);
        break;
      }
      case K::NamedExpr:
        paren_if(prec > NAMED_EXPR, [&] {
          expr(n->a, ATOM);
          out += " := ";
          expr(n->b, ATOM);
        });
        break;
      case K::Await:
        paren_if(prec > AWAIT, [&] {
          out += "await";
          if (n->a) {
            out += " ";
            expr(n->a, ATOM);
          }
        });
        break;
      case K::Yield:
        paren_if(prec > YIELD, [&] {
          out += "yield";
          if (n->a) {
            out += " ";
            expr(n->a, ATOM);
          }
        });
        break;
      case K::YieldFrom:
        paren_if(prec > YIELD, [&] {
          out += "yield from ";
          expr(n->a, ATOM);
        });
        break;
      default:
        throw std::logic_error("unparse: not an expression");
    }
  }

  void constant(const P& n) {
    switch (n->ckind) {
      case ConstKind::None:
        out += "None";
        break;
      case ConstKind::True:
        out += "True";
        break;
      case ConstKind::False:
        out += "False";
        break;
      case ConstKind::Ellipsis:
        out += "...";
        break;
      case ConstKind::Int:
        out += int_repr(n->s);
        break;
      case ConstKind::Float:
        out += float_repr(n->s);
        break;
      case ConstKind::Complex: {
        std::string f = float_repr(n->s);
        if (f.size() > 2 && f.compare(f.size() - 2, 2, ".0") == 0) f.resize(f.size() - 2);
        out += f + "j";
        break;
      }
      case ConstKind::Str:
        if (n->flag == 'u') out += "u";
        out += python_str_repr(n->s);
        break;
      case ConstKind::Bytes:
        out += bytes_repr(n->s);
        break;
    }
  }

  // The body of a JoinedStr: each part escaped, then the first quote style that fits them all.
  std::string fstring(const P& js) {
    std::string body;
    inner(js, body);
    std::string esc;
    for (size_t i = 0; i < body.size();) {
      size_t start = i;
      unsigned long cp = next_cp(body, i);
      if (cp == '\\')
        esc += "\\\\";
      else if (cp == '\n')
        esc += "\\n";
      else if (cp == '\t')
        esc += "\\t";
      else if (!printable(cp))
        esc += cp == '\r' ? "\\r" : hex_escape(cp);
      else
        esc += body.substr(start, i - start);
    }
    for (const char* q : {"'", "\"", "\"\"\"", "'''"}) {
      if (esc.find(q) == std::string::npos) {
        if (!esc.empty() && esc.back() == q[0]) continue;
        return q + esc + q;
      }
    }
    return "'''" + esc + "'''";
  }

  void inner(const P& n, std::string& buf) {
    if (n->kind == K::JoinedStr) {
      for (auto& v : n->v1) inner(v, buf);
    } else if (n->kind == K::Constant) {
      for (char c : n->s) {
        if (c == '{')
          buf += "{{";
        else if (c == '}')
          buf += "}}";
        else
          buf += c;
      }
    } else {
      Unparser sub;
      sub.quote_avoid_ = true;
      sub.expr(n->a, TEST + 1);
      buf += "{";
      if (!sub.out.empty() && sub.out[0] == '{') buf += " ";
      buf += sub.out;
      if (n->flag != -1) {
        buf += "!";
        buf += static_cast<char>(n->flag);
      }
      if (n->b) {
        buf += ":";
        inner(n->b, buf);
      }
      buf += "}";
    }
  }

  bool quote_avoid_ = false;

 private:
  int indent_ = 0;
  int origin_ = 0;
};

}  // namespace

std::string unparse(const P& node) {
  Unparser u;
  if (is_stmt(node->kind))
    u.stmt(node);
  else
    u.expr(node, TEST);
  return u.out;
}

std::string unparse(const P& stmt, std::vector<int>* line_origins) {
  Unparser u;
  u.stmt(stmt);
  line_origins->clear();
  size_t m = 0;
  int origin = 0;
  for (size_t start = 0; start <= u.out.size();) {
    while (m < u.marks.size() && u.marks[m].first <= start) origin = u.marks[m++].second;
    line_origins->push_back(origin);
    size_t nl = u.out.find('\n', start);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return u.out;
}

std::string unparse(const Block& stmts) {
  Unparser u;
  u.stmts(stmts);
  return u.out;
}

}  // namespace tfs::autograph::detail
