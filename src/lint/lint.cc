// lint_source: tokenize, parse, build the model, run the rule families, then apply `# noqa`
// comments and the selection.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "checks.h"
#include "parser_impl.h"
#include "tfscope/autograph.h"
#include "tokenizer.h"

namespace tfs::lint {
namespace detail {

void Report::add(const Node* at, const char* code, std::string message, const FnInfo* about) {
  if (!options.selection.enabled(code)) return;
  Finding f;
  f.line = at ? at->line : 1;
  f.col = at && at->col > 0 ? at->col : 1;
  f.code = code;
  f.message = std::move(message);
  if (const Rule* r = find_rule(code)) f.hint = std::string(r->hint);
  if (about) {
    f.function = about->name;
    f.function_first_line = about->first_line;
    f.function_last_line = about->last_line;
  }
  out_.push_back(std::move(f));
}

namespace {

// Where strings are, so that a '#' inside one is not taken for a comment.
struct StringSpan {
  int line, col, end_line, end_col;  // col 0-based; end exclusive
};

std::vector<StringSpan> string_spans(const std::vector<autograph::detail::Token>& toks) {
  std::vector<StringSpan> out;
  for (auto& t : toks) {
    if (t.type != autograph::detail::Tok::String) continue;
    int lines = 0;
    size_t last_nl = std::string::npos;
    for (size_t i = 0; i < t.text.size(); ++i)
      if (t.text[i] == '\n') {
        ++lines;
        last_nl = i;
      }
    int end_col = lines ? static_cast<int>(t.text.size() - last_nl - 1)
                        : t.col + static_cast<int>(t.text.size());
    out.push_back({t.line, t.col, t.line + lines, end_col});
  }
  return out;
}

std::string trim(std::string s) {
  size_t a = s.find_first_not_of(" \t");
  size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// `# noqa` comments, per line: empty set = every code suppressed.
class Noqa {
 public:
  Noqa(std::string_view src, const std::vector<StringSpan>& strings) {
    size_t start = 0;
    int line = 1;
    while (start <= src.size()) {
      size_t end = src.find('\n', start);
      if (end == std::string_view::npos) end = src.size();
      std::string_view text = src.substr(start, end - start);
      size_t hash = text.find('#');
      while (hash != std::string_view::npos && inside_string(strings, line, int(hash)))
        hash = text.find('#', hash + 1);
      if (hash != std::string_view::npos) parse(line, text.substr(hash + 1));
      if (end == src.size()) break;
      start = end + 1;
      ++line;
    }
  }

  bool suppressed(int line, const std::string& code) const {
    if (blanket_.count(line)) return true;
    auto it = lines_.find(line);
    if (it == lines_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](const std::string& c) { return code.compare(0, c.size(), c) == 0; });
  }

 private:
  std::map<int, std::vector<std::string>> lines_;
  std::set<int> blanket_;

  static bool inside_string(const std::vector<StringSpan>& s, int line, int col) {
    for (auto& sp : s) {
      bool after_start = line > sp.line || (line == sp.line && col >= sp.col);
      bool before_end = line < sp.end_line || (line == sp.end_line && col < sp.end_col);
      if (after_start && before_end) return true;
    }
    return false;
  }

  // "noqa", "noqa: TFS101, TFS2" (case-insensitive noqa, as flake8 and ruff accept it)
  void parse(int line, std::string_view comment) {
    std::string c(comment);
    std::string lower = c;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    size_t at = lower.find("noqa");
    if (at == std::string::npos) return;
    std::string rest = c.substr(at + 4);
    std::vector<std::string> codes;
    size_t colon = rest.find_first_not_of(' ');
    if (colon != std::string::npos && rest[colon] == ':') {
      std::string list = rest.substr(colon + 1);
      size_t p = 0;
      while (p < list.size()) {
        size_t q = list.find_first_of(", \t", p);
        std::string code = trim(list.substr(p, q == std::string::npos ? std::string::npos : q - p));
        if (!code.empty() && std::isupper(static_cast<unsigned char>(code[0])))
          codes.push_back(code);
        else if (!code.empty())
          break;  // the codes end at the first word that is not one
        if (q == std::string::npos) break;
        p = q + 1;
      }
      if (codes.empty()) return;  // "noqa:" followed by nothing valid suppresses nothing
    }
    if (codes.empty())
      blanket_.insert(line);
    else
      lines_[line] = codes;
  }
};

// CPython's limits on nesting, which its parser enforces before anything runs: more than 200
// open brackets ("too many nested parentheses", its tokenizer's MAXLEVEL) and a syntax tree
// deeper than about 3000 levels (RecursionError during ast construction; 2988 levels of
// `1+1+...`, `x.a.a...` or `---1` still parse on CPython 3.11).
constexpr int kMaxBrackets = 200;
constexpr int kMaxDepth = 2988;
const char* kTooDeep = "maximum recursion depth exceeded during ast construction";

// The first token position past CPython's limits, or {0, ""}.
std::pair<int, const char*> nesting_limit(const std::vector<autograph::detail::Token>& toks) {
  int depth = 0, unary_run = 0, powers = 0;  // powers: `**` in this logical line (right-nested)
  bool after_operand = false;
  for (auto& t : toks) {
    bool op = t.type == autograph::detail::Tok::Op;
    if (t.type == autograph::detail::Tok::Newline) powers = 0;
    if (op && t.text == "**" && ++powers > kMaxDepth) return {t.line, kTooDeep};
    if (op && (t.text == "(" || t.text == "[" || t.text == "{")) {
      if (++depth > kMaxBrackets) return {t.line, "too many nested parentheses"};
    } else if (op && (t.text == ")" || t.text == "]" || t.text == "}")) {
      --depth;
    }
    bool unary = (op && (t.text == "-" || t.text == "+" || t.text == "~") && !after_operand) ||
                 (t.type == autograph::detail::Tok::Name && t.text == "not");
    unary_run = unary ? unary_run + 1 : 0;
    if (unary_run > kMaxDepth) return {t.line, kTooDeep};
    after_operand = t.type == autograph::detail::Tok::Name ||
                    t.type == autograph::detail::Tok::Number ||
                    t.type == autograph::detail::Tok::String ||
                    (op && (t.text == ")" || t.text == "]" || t.text == "}"));
  }
  return {0, nullptr};
}

// The tree's depth, and the line where it is deepest, without recursion.
std::pair<int, int> tree_depth(const Block& body) {
  std::vector<std::pair<const Node*, int>> stack;
  for (auto& s : body) stack.emplace_back(s.get(), 1);
  int best = 0, line = 0;
  while (!stack.empty()) {
    // Plain copies, not a structured binding: clang 14 (the fuzz build) cannot capture one.
    const Node* n = stack.back().first;
    const int d = stack.back().second;
    stack.pop_back();
    if (d > best) {
      best = d;
      line = n->line;
    }
    for_children(*n, [&](const P& c) { stack.emplace_back(c.get(), d + 1); });
  }
  return {best, line};
}

// Releases a deep tree one node at a time (the nodes' own destructors would recurse).
void dismantle(Block& body) {
  std::vector<P> stack(body.begin(), body.end());
  body.clear();
  while (!stack.empty()) {
    P n = std::move(stack.back());
    stack.pop_back();
    if (!n || n.use_count() > 1) continue;
    for (P* c : {&n->a, &n->b, &n->c})
      if (*c) stack.push_back(std::move(*c));
    for (Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5}) {
      for (auto& c : *v)
        if (c) stack.push_back(std::move(c));
      v->clear();
    }
  }
}

// "[autograph] syntax error at line N: what" -> N, "SyntaxError: what"; one of CPython's own
// errors from the tokenizer, "what (<source>, line N)" of type T -> N, "T: what".
std::pair<int, std::string> syntax_error(const autograph::ConversionError& e) {
  std::string what = e.what();
  if (!e.tf_type().empty()) {
    const std::string tag = std::string(" (") + autograph::detail::kSourceName + ", line ";
    size_t at = what.rfind(tag);
    if (at == std::string::npos) return {1, e.tf_type() + ": " + what};
    int line = std::atoi(what.c_str() + at + tag.size());
    return {line > 0 ? line : 1, e.tf_type() + ": " + what.substr(0, at)};
  }
  const std::string tag = "syntax error at line ";
  size_t at = what.find(tag);
  if (at == std::string::npos) return {1, "SyntaxError: " + what};
  int line = std::atoi(what.c_str() + at + tag.size());
  size_t colon = what.find(": ", at);
  return {line > 0 ? line : 1,
          "SyntaxError: " + (colon == std::string::npos ? what : what.substr(colon + 2))};
}

}  // namespace
}  // namespace detail

std::vector<Finding> lint_source(std::string_view source, std::string_view path,
                                 const Options& options) {
  using namespace detail;
  std::vector<Finding> out;
  std::vector<StringSpan> strings;
  std::unique_ptr<Module> module;
  auto limit_finding = [&](int line, const std::string& what) {
    Finding f;
    f.path = std::string(path);
    f.line = line;
    f.col = 1;
    f.code = "TFS000";
    f.message = what;
    f.hint = std::string(find_rule("TFS000")->hint);
    out.push_back(std::move(f));
    return out;
  };
  try {
    auto toks = autograph::detail::tokenize(source);
    auto [limit_line, limit] = nesting_limit(toks);
    if (limit)
      return limit_finding(
          limit_line,
          std::string(limit == kTooDeep ? "RecursionError: " : "SyntaxError: ") + limit);
    strings = string_spans(toks);
    autograph::detail::ParsedModule parsed = autograph::detail::Parser(std::move(toks)).module();
    auto [depth, deep_line] = tree_depth(parsed.body);
    if (depth > kMaxDepth) {
      dismantle(parsed.body);
      return limit_finding(deep_line, std::string("RecursionError: ") + kTooDeep);
    }
    module = build_module(std::move(parsed));
  } catch (const autograph::ConversionError& e) {
    auto [line, what] = syntax_error(e);
    Finding f;
    f.path = std::string(path);
    f.line = line;
    f.col = 1;
    f.code = "TFS000";
    f.message = what;
    f.hint = std::string(find_rule("TFS000")->hint);
    out.push_back(std::move(f));
    return out;
  }
  Report r(*module, options, out);
  check_retracing(r);
  check_side_effects(r);
  check_state(r);
  check_autograph(r);
  check_export(r);
  Noqa noqa(source, strings);
  std::vector<Finding> kept;
  for (auto& f : out) {
    if (noqa.suppressed(f.line, f.code)) continue;
    f.path = std::string(path);
    kept.push_back(std::move(f));
  }
  std::sort(kept.begin(), kept.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.line, a.col, a.code) < std::tie(b.line, b.col, b.code);
  });
  kept.erase(std::unique(kept.begin(), kept.end(),
                         [](const Finding& a, const Finding& b) {
                           return a.line == b.line && a.col == b.col && a.code == b.code;
                         }),
             kept.end());
  return kept;
}

}  // namespace tfs::lint
