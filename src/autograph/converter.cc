// Public entry points: find the function, run the passes in TF's order, print, diff.
#include <fstream>
#include <functional>
#include <sstream>

#include "parser.h"
#include "passes.h"
#include "python_limits.h"
#include "tokenizer.h"
#include "tfscope/autograph.h"
#include "unparse.h"

namespace tfs::autograph {
namespace detail {
namespace {

// Names from the user's signature annotations and nested-function decorators are not
// annotated with definitions by TF's reaching_definitions, so `variables` leaves them alone.
void unmark_tree(const P& n) {
  if (!n) return;
  n->original = false;
  for (const P* c : {&n->a, &n->b, &n->c}) unmark_tree(*c);
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v) unmark_tree(c);
}

void unmark_signatures(const P& n) {
  if (!n) return;
  if (n->kind == K::ExceptHandler) unmark_tree(n->a);
  if (n->kind == K::FunctionDef) {
    for (auto& d : n->v2) unmark_tree(d);
    unmark_tree(n->b);
    const P& args = n->a;
    for (const Block* v : {&args->v1, &args->v2, &args->v3})
      for (auto& a : *v) unmark_tree(a->a);
    for (const P* a : {&args->a, &args->b})
      if (*a) unmark_tree((*a)->a);
  }
  for (const P* c : {&n->a, &n->b, &n->c}) unmark_signatures(*c);
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v) unmark_signatures(c);
}

// TF's initial analysis asserts on a NamedExpr, except one that is the whole test of an if or a
// while (the CFG node is then the NamedExpr itself, which gets a scope).
const Node* find_named_expr(const P& n) {
  if (!n) return nullptr;
  if (n->kind == K::NamedExpr) return n.get();
  if ((n->kind == K::If || n->kind == K::While) && n->a && n->a->kind == K::NamedExpr) {
    for (const P* c : {&n->a->a, &n->a->b, &n->a->c})
      if (const Node* r = find_named_expr(*c)) return r;
    for (const P* c : {&n->b, &n->c})
      if (const Node* r = find_named_expr(*c)) return r;
    for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
      for (auto& c : *v)
        if (const Node* r = find_named_expr(c)) return r;
    return nullptr;
  }
  for (const P* c : {&n->a, &n->b, &n->c})
    if (const Node* r = find_named_expr(*c)) return r;
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v)
      if (const Node* r = find_named_expr(c)) return r;
  return nullptr;
}

// The first Name node (children in field order) under n, or null.
const Node* first_name(const P& n) {
  if (!n) return nullptr;
  if (n->kind == K::Name) return n.get();
  for (const P* c : {&n->a, &n->b, &n->c})
    if (const Node* r = first_name(*c)) return r;
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v)
      if (const Node* r = first_name(c)) return r;
  return nullptr;
}

// TF's activity analysis has no visitor for `match`: the first Name it meets in a subject,
// pattern or guard (none of them inside a statement it knows) fails its assertion. Case bodies
// are statements and pass.
const Node* match_name_outside_statement(const P& n) {
  if (!n) return nullptr;
  if (n->kind == K::Match) {
    if (const Node* r = first_name(n->a)) return r;
    for (const P& c : n->v1) {
      if (const Node* r = first_name(c->a)) return r;
      if (const Node* r = first_name(c->b)) return r;
      for (const P& st : c->v1)
        if (const Node* r = match_name_outside_statement(st)) return r;
    }
    return nullptr;
  }
  if (!is_stmt(n->kind) && n->kind != K::ExceptHandler) return nullptr;
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v)
      if (const Node* r = match_name_outside_statement(c)) return r;
  return nullptr;
}

Names module_globals(const ParsedModule& m) {
  Names g = {"__name__", "__doc__",  "__package__", "__loader__",
             "__spec__", "__file__", "__cached__",  "__builtins__"};
  std::function<void(const P&)> targets = [&](const P& t) {
    if (!t) return;
    if (t->kind == K::Name) g.insert(t->s);
    if (t->kind == K::Tuple || t->kind == K::List)
      for (auto& e : t->v1) targets(e);
    if (t->kind == K::Starred) targets(t->a);
  };
  std::function<void(const Block&)> block = [&](const Block& b) {
    for (const auto& s : b) {
      switch (s->kind) {
        case K::FunctionDef:
        case K::ClassDef:
          g.insert(s->s);
          break;
        case K::Assign:
          for (auto& t : s->v1) targets(t);
          break;
        case K::AnnAssign:
        case K::AugAssign:
          targets(s->a);
          break;
        case K::Import:
        case K::ImportFrom:
          for (auto& al : s->v1)
            g.insert(!al->s2.empty() ? al->s2 : al->s.substr(0, al->s.find('.')));
          break;
        case K::For:
          targets(s->a);
          block(s->v1);
          block(s->v2);
          break;
        case K::If:
        case K::While:
          block(s->v1);
          block(s->v2);
          break;
        case K::Try:
          block(s->v1);
          for (auto& h : s->v2) block(h->v1);
          block(s->v3);
          block(s->v4);
          break;
        case K::With:
          block(s->v2);
          break;
        default:
          break;
      }
    }
  };
  block(m.body);
  return g;
}

std::string dedent(const std::string& text) {
  // textwrap.dedent: remove the longest common leading whitespace of non-blank lines.
  std::vector<std::string> lines;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) lines.push_back(line);
  std::string margin;
  bool first = true;
  for (const auto& l : lines) {
    if (l.find_first_not_of(" \t") == std::string::npos) continue;
    std::string ws = l.substr(0, l.find_first_not_of(" \t"));
    if (first) {
      margin = ws;
      first = false;
    } else {
      size_t k = 0;
      while (k < margin.size() && k < ws.size() && margin[k] == ws[k]) ++k;
      margin.resize(k);
    }
  }
  std::string out;
  for (const auto& l : lines) {
    if (l.find_first_not_of(" \t") == std::string::npos)
      out += "\n";
    else
      out += l.substr(margin.size()) + "\n";
  }
  return out;
}

// to_code is textwrap.dedent(inspect.getsource(...)) of the converted function as it sits in
// TF's generated module, two factory functions (8 spaces) deep. Code lines carry those 8 spaces;
// continuation lines of a multi-line literal (docstrings: ast.unparse writes them with real
// newlines) do not, so they can lower the common margin, and lose it like every other line.
std::string as_to_code_prints(const std::string& text) {
  std::stringstream ss(text);
  std::string line, laid_out;
  std::string open;  // the triple quote of the literal a line continues, if any
  while (std::getline(ss, line)) {
    laid_out += (open.empty() ? "        " : "") + line + "\n";
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\') {
        ++i;
      } else if (open.empty() &&
                 (line.compare(i, 3, "\"\"\"") == 0 || line.compare(i, 3, "'''") == 0)) {
        open = line.substr(i, 3);
        i += 2;
      } else if (!open.empty() && line.compare(i, 3, open) == 0) {
        open.clear();
        i += 2;
      } else if (open.empty() && (line[i] == '\'' || line[i] == '"')) {
        // A one-line literal (repr quoting): skip it, quotes inside do not open anything.
        char q = line[i];
        for (++i; i < line.size() && line[i] != q; ++i)
          if (line[i] == '\\') ++i;
      }
    }
  }
  return dedent(laid_out);
}

// PyToTF.transform_ast: the pass order of TF 2.21.
void run_passes(const P& fn, Context& ctx) {
  unmark_signatures(fn);
  check_unsupported(fn);
  if (const Node* ne = find_named_expr(fn)) {
    throw ConversionError(
        "(<gast.gast.NamedExpr object at 0x0>, " + unparse(std::make_shared<Node>(*ne)) + ")",
        "AssertionError");
  }
  if (const Node* nm = match_name_outside_statement(fn)) {
    throw ConversionError("name node, " + nm->s + ", outside of any statement?", "AssertionError");
  }
  compute_referenced(fn, ctx);
  functions_pass(fn, ctx);
  directives_pass(fn, ctx);
  break_pass(fn, ctx);
  continue_pass(fn, ctx);
  return_pass(fn, ctx);
  call_trees_pass(fn, ctx);
  control_flow_pass(fn, ctx);
  conditional_expressions_pass(fn);
  logical_expressions_pass(fn);
  variables_pass(fn);
}

}  // namespace
}  // namespace detail

int ConversionResult::converted_lines() const {
  int n = 0;
  for (char c : converted) n += c == '\n';
  return n;
}

namespace {

// The last def/class named `name` bound in `scope`, looking through if/try/with/loop blocks (a
// module may define functions conditionally) but not into other defs or classes.
detail::P find_definition(const detail::Block& scope, const std::string& name) {
  using detail::K;
  detail::P found;
  for (const auto& s : scope) {
    if ((s->kind == K::FunctionDef || s->kind == K::ClassDef) && s->s == name) found = s;
    std::vector<const detail::Block*> blocks;
    switch (s->kind) {
      case K::If:
      case K::For:
      case K::While:
        blocks = {&s->v1, &s->v2};
        break;
      case K::Try:
        blocks = {&s->v1, &s->v3, &s->v4};
        for (const auto& h : s->v2) blocks.push_back(&h->v1);
        break;
      case K::With:
        blocks = {&s->v2};
        break;
      default:
        break;
    }
    for (const detail::Block* b : blocks)
      if (detail::P inner = find_definition(*b, name)) found = inner;
  }
  return found;
}

ConversionResult convert_parsed(std::string_view source, const detail::ParsedModule& m,
                                std::string_view function_name, std::string_view filename,
                                detail::Names globals) {
  using namespace detail;
  // FUNC may name a method: "Class.method" (or deeper nesting of classes).
  P fn;
  const Block* scope = &m.body;
  std::string path(function_name);
  size_t start = 0;
  while (true) {
    size_t dot = path.find('.', start);
    std::string part = path.substr(start, dot == std::string::npos ? dot : dot - start);
    P found = find_definition(*scope, part);
    if (!found || (dot == std::string::npos) != (found->kind == K::FunctionDef)) {
      fn = nullptr;
      break;
    }
    if (dot == std::string::npos) {
      fn = found;
      break;
    }
    scope = &found->v1;
    start = dot + 1;
  }
  if (!fn)
    throw ConversionError("[autograph] no function named '" + path + "' in " +
                          std::string(filename));

  ConversionResult result;
  result.function_name = fn->s;
  {
    std::stringstream ss{std::string(source)};
    std::string line, text;
    for (int ln = 1; std::getline(ss, line); ++ln)
      if (ln >= fn->first_line && ln <= fn->last_line) text += line + "\n";
    result.original = dedent(text);
  }

  // TF's converter hits Python's recursion limit on a deep tree and lets RecursionError out.
  check_converter_depth(fn);
  Context ctx(std::move(globals));
  try {
    // gast has no conversion for a coroutine function (a nested one is left alone).
    if (fn->flag)
      throw ConversionError("Unknown node type <gast.gast.AsyncFunctionDef object at 0x0>",
                            "ValueError");
    run_passes(fn, ctx);
  } catch (const ConversionError& e) {
    // TF lets UnsupportedLanguageElementError through and wraps everything else raised while
    // transforming the entity (transpiler.py: "converting <entity>: <type>: <message>").
    if (e.tf_type().empty() || e.tf_type() == "UnsupportedLanguageElementError") throw;
    throw ConversionError(
        "converting <function " + path + " at 0x0>: " + e.tf_type() + ": " + e.what(),
        "ConversionError");
  }

  // TF names the result with its namer: a trailing _<digits> is read as a counter and dropped
  // (`_proc_gnusparse_00` -> `tf___proc_gnusparse`, `f_1` -> `tf__f`).
  fn->s = ctx.namer.new_symbol("tf__" + fn->s, Names{});
  for (auto& d : fn->a->v4) d = kw_const(ConstKind::None);
  for (auto& d : fn->a->v5)
    if (d) d = kw_const(ConstKind::None);

  result.converted = as_to_code_prints(unparse(fn, &result.line_origins) + "\n");
  result.if_stmts = ctx.if_stmts;
  result.while_stmts = ctx.while_stmts;
  result.for_stmts = ctx.for_stmts;
  std::string label = std::string(filename) + ":" + path;
  result.diff = unified_diff(result.original, result.converted, label + " (original)",
                             label + " (converted)");
  return result;
}

// parse_module, then what CPython's compiler refuses; Python's errors name `filename`.
detail::ParsedModule parse_as_python(std::string_view source, std::string_view filename) {
  try {
    detail::ParsedModule m = detail::parse_module(source);
    detail::check_python_limits(m.body);
    return m;
  } catch (const ConversionError& e) {
    std::string msg = e.what();
    const size_t at = msg.rfind(std::string(" (") + detail::kSourceName + ", line ");
    if (at == std::string::npos) throw;
    msg.replace(at + 2, std::string(detail::kSourceName).size(), filename);
    throw ConversionError(msg, e.tf_type());
  }
}

}  // namespace

ConversionResult convert_source(std::string_view source, std::string_view function_name,
                                std::string_view filename) {
  detail::ParsedModule m = parse_as_python(source, filename);
  return convert_parsed(source, m, function_name, filename, detail::module_globals(m));
}

ConversionResult convert_source(std::string_view source, std::string_view function_name,
                                std::string_view filename,
                                const std::vector<std::string>& global_names) {
  detail::ParsedModule m = parse_as_python(source, filename);
  return convert_parsed(source, m, function_name, filename,
                        detail::Names(global_names.begin(), global_names.end()));
}

namespace {

void find_lambdas(const detail::P& n, int line, std::vector<detail::P>& out) {
  using detail::K;
  if (!n) return;
  if (n->kind == K::Lambda && n->line == line) out.push_back(n);
  for (const detail::P* c : {&n->a, &n->b, &n->c}) find_lambdas(*c, line, out);
  for (const detail::Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v) find_lambdas(c, line, out);
}

std::vector<std::string> lambda_params(const detail::P& lam) {
  std::vector<std::string> names;
  const detail::P& args = lam->a;
  for (const detail::Block* v : {&args->v1, &args->v2})
    for (auto& a : *v) names.push_back(a->s);
  if (args->a) names.push_back(args->a->s);
  for (auto& a : args->v3) names.push_back(a->s);
  if (args->b) names.push_back(args->b->s);
  return names;
}

}  // namespace

ConversionResult convert_lambda_source(std::string_view source, int line,
                                       const std::vector<std::string>& param_names,
                                       std::string_view filename,
                                       const std::vector<std::string>& global_names) {
  using namespace detail;
  ParsedModule m = parse_as_python(source, filename);
  std::vector<P> candidates, found;
  for (const auto& s : m.body) find_lambdas(s, line, candidates);
  for (const auto& c : candidates)
    if (lambda_params(c) == param_names) found.push_back(c);
  if (found.size() > 1) {
    // parser._parse_lambda gives up when several lambdas on the line share the signature.
    std::string matches;
    for (size_t i = 0; i < found.size(); ++i) {
      if (i) matches += "\n";
      matches += "Match " + std::to_string(i) + ":\n" + unparse(found[i]) + "\n";
    }
    throw ConversionError(
        "could not parse the source code of <function <lambda> at 0x0>: found multiple "
        "definitions with identical signatures at the location. This error may be avoided by "
        "defining each lambda on a single line and with unique argument names. The matching "
        "definitions were:\n" + matches,
        "UnsupportedLanguageElementError");
  }
  if (found.empty())
    throw ConversionError("[autograph] could not identify the source of the lambda on line " +
                          std::to_string(line) + " of " + std::string(filename));
  P lam = found[0];

  ConversionResult result;
  result.function_name = "<lambda>";
  result.original = unparse(lam) + "\n";
  Context ctx(Names(global_names.begin(), global_names.end()));
  // TF's initial analysis builds no CFG for a lambda entity, so no name gets ag__.ld.
  unmark_tree(lam);
  check_unsupported(lam);
  compute_referenced(lam, ctx);
  // functions.py visit_Lambda: the body runs in ag__.with_function_scope(lambda lscope: ...).
  std::string scope = ctx.namer.new_symbol("lscope", ctx.referenced[lam.get()]);
  ctx.context_name[lam.get()] = scope;
  functions_pass(lam->b, ctx);
  call_trees_pass_lambda(lam, ctx);
  conditional_expressions_pass(lam);
  logical_expressions_pass(lam);
  auto inner = std::make_shared<Node>(K::Lambda);
  inner->a = std::make_shared<Node>(K::Arguments);
  auto param = std::make_shared<Node>(K::Arg);
  param->s = scope;
  inner->a->v2.push_back(param);
  inner->b = lam->b;
  lam->b = call(gen_expr("ag__.with_function_scope"),
                {inner, str_const(scope),
                 gen_expr("ag__.ConversionOptions(recursive=True, user_requested=True, "
                          "optional_features=(), internal_convert_user_code=True)")});
  for (auto& d : lam->a->v4) d = kw_const(ConstKind::None);
  for (auto& d : lam->a->v5)
    if (d) d = kw_const(ConstKind::None);

  auto assign_stmt = std::make_shared<Node>(K::Assign);
  assign_stmt->v1 = {name("tf__lam", Ctx::Store)};
  assign_stmt->a = lam;
  assign_stmt->line = line;
  result.converted = as_to_code_prints(unparse(assign_stmt, &result.line_origins) + "\n");
  std::string label = std::string(filename) + ":" + std::to_string(line) + ":<lambda>";
  result.diff = unified_diff(result.original, result.converted, label + " (original)",
                             label + " (converted)");
  return result;
}

ConversionResult convert_file(const std::string& path, std::string_view function_name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConversionError("[autograph] cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return convert_source(ss.str(), function_name, path);
}

}  // namespace tfs::autograph
