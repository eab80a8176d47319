// converters/control_flow.py: if/while/for statements become ag__.if_stmt / while_stmt /
// for_stmt calls over generated closures, bottom-up, using the analysis of the lowered tree.
#include <algorithm>

#include "passes.h"
#include "unparse.h"

namespace tfs::autograph::detail {
namespace {

class ControlFlow {
 public:
  ControlFlow(Context& ctx, std::map<const Node*, FlowInfo> flow)
      : ctx_(ctx), flow_(std::move(flow)) {}

  void function(const P& fn) {
    fns_.push_back(fn);
    fn_scopes_.push_back(function_scope(fn, ctx_.qns));
    fn->v1 = block(fn->v1);
    fn_scopes_.pop_back();
    fns_.pop_back();
  }

 private:
  Block block(const Block& b) {
    Block out;
    for (auto& s : b)
      for (auto& r : stmt(s)) out.push_back(r);
    return out;
  }

  Block stmt(const P& s) {
    switch (s->kind) {
      case K::FunctionDef:
        function(s);
        return {s};
      case K::If:
        s->v1 = block(s->v1);
        s->v2 = block(s->v2);
        return visit_if(s);
      case K::While:
        s->v1 = block(s->v1);
        return visit_while(s);
      case K::For:
        s->v1 = block(s->v1);
        return visit_for(s);
      case K::With:
        s->v2 = block(s->v2);
        return {s};
      case K::ClassDef:
        s->v1 = block(s->v1);
        return {s};
      case K::Try:
        s->v1 = block(s->v1);
        for (auto& h : s->v2) h->v1 = block(h->v1);
        s->v3 = block(s->v3);
        s->v4 = block(s->v4);
        return {s};
      default:
        return {s};
    }
  }

  struct BlockVars {
    std::vector<std::string> vars;  // sorted: outputs first, then input-only
    std::vector<std::string> undefined;
    int nouts = 0;
  };

  BlockVars block_vars(const P& node, const Names& modified) {
    const FlowInfo& f = flow_[node.get()];
    const Activity& fn_scope = fn_scopes_.back();
    Names basic, composite;
    for (const auto& s : modified) {
      const QnInfo& info = ctx_.qns.info(s);
      if (info.simple) {
        if (f.live_in.count(s) || f.live_out.count(s) || fn_scope.nonlocals.count(s))
          basic.insert(s);
      } else {
        bool all = std::all_of(info.support.begin(), info.support.end(),
                               [&](const std::string& x) { return f.live_in.count(x) > 0; });
        if (all) composite.insert(s);
      }
    }
    Names input_only;
    for (const auto& s : basic)
      if (f.live_in.count(s) && !f.live_out.count(s)) input_only.insert(s);
    BlockVars bv;
    Names all = basic;
    all.insert(composite.begin(), composite.end());
    for (const auto& s : all)
      if (!input_only.count(s)) bv.vars.push_back(s);
    for (const auto& s : all)
      if (input_only.count(s)) bv.vars.push_back(s);
    bv.nouts = static_cast<int>(all.size() - input_only.size());
    for (const auto& s : modified) {
      if (f.defined_in.count(s) || fn_scope.globals.count(s) || fn_scope.nonlocals.count(s))
        continue;
      if (ctx_.qns.info(s).simple) bv.undefined.push_back(s);
    }
    return bv;
  }

  Block nonlocal_declarations(const std::vector<std::string>& vars) {
    Block out;
    auto g = std::make_shared<Node>(K::Global);
    auto nl = std::make_shared<Node>(K::Nonlocal);
    for (const auto& v : vars) {
      if (fn_scopes_.back().globals.count(v))
        g->names.push_back(v);
      else if (ctx_.qns.info(v).simple)
        nl->names.push_back(v);
    }
    std::sort(g->names.begin(), g->names.end());
    std::sort(nl->names.begin(), nl->names.end());
    if (!g->names.empty()) out.push_back(g);
    if (!nl->names.empty()) out.push_back(nl);
    return out;
  }

  P var_expr(const std::string& v, Ctx ctx) {
    P e = clone(ctx_.qns.info(v).ast);
    set_ctx(e, ctx);
    return e;
  }

  Block state_functions(const std::vector<std::string>& vars, const Block& decls,
                        const std::string& getter, const std::string& setter) {
    if (vars.empty()) {
      auto r = std::make_shared<Node>(K::Return);
      r->a = tuple({});
      return {funcdef(getter, {}, {r}), funcdef(setter, {"block_vars"}, {pass_stmt()})};
    }
    Block guarded;
    for (const auto& v : vars) {
      if (ctx_.qns.info(v).simple) {
        guarded.push_back(name(v));
      } else {
        guarded.push_back(
            call(gen_expr("ag__.ldu"), {lambda0(var_expr(v, Ctx::Load)), str_const(v)}));
      }
    }
    auto r = std::make_shared<Node>(K::Return);
    r->a = tuple(guarded);
    Block targets;
    for (const auto& v : vars) targets.push_back(var_expr(v, Ctx::Store));
    Block setter_body = clone(decls);
    setter_body.push_back(assign(tuple(targets, Ctx::Store), name("vars_")));
    return {funcdef(getter, {}, {r}), funcdef(setter, {"vars_"}, setter_body)};
  }

  Block undefined_assigns(const BlockVars& bv) {
    std::vector<std::string> names = bv.undefined;
    std::sort(names.begin(), names.end());
    Block out;
    for (const auto& v : names)
      out.push_back(assign(name(v), call(gen_expr("ag__.Undefined"), {str_const(v)})));
    return out;
  }

  static Block with_decls(const Block& decls, const Block& body) {
    Block out = clone(decls);
    out.insert(out.end(), body.begin(), body.end());
    return out;
  }

  static P names_tuple(const std::vector<std::string>& vars) {
    Block elts;
    for (const auto& v : vars) elts.push_back(str_const(v));
    return tuple(elts);
  }

  const Names& reserved() { return ctx_.referenced[fns_.back().get()]; }

  // The statements made for a control-flow statement come from its line (TF copies the origin
  // of the visited node to the template's nodes): errors in them are reported there.
  static Block from_line(Block out, int line) {
    for (auto& s : out)
      if (!s->line) s->line = line;
    return out;
  }

  Block visit_if(const P& node) {
    ++ctx_.if_stmts;
    const FlowInfo& f = flow_[node.get()];
    Names modified = f.body.bound;
    modified.insert(f.orelse.bound.begin(), f.orelse.bound.end());
    BlockVars bv = block_vars(node, modified);
    Block decls = nonlocal_declarations(bv.vars);
    std::string getter = ctx_.namer.new_symbol("get_state", reserved());
    std::string setter = ctx_.namer.new_symbol("set_state", reserved());
    Block out = state_functions(bv.vars, decls, getter, setter);
    std::string body_name = ctx_.namer.new_symbol("if_body", reserved());
    std::string else_name = ctx_.namer.new_symbol("else_body", reserved());
    Block orelse = node->v2.empty() ? Block{pass_stmt()} : node->v2;
    out.push_back(funcdef(body_name, {}, with_decls(decls, node->v1)));
    out.push_back(funcdef(else_name, {}, with_decls(decls, orelse)));
    for (auto& u : undefined_assigns(bv)) out.push_back(u);
    out.push_back(expr_stmt(
        call(gen_expr("ag__.if_stmt"), {node->a, name(body_name), name(else_name), name(getter),
                                        name(setter), names_tuple(bv.vars), int_const(bv.nouts)})));
    return from_line(std::move(out), node->line);
  }

  P loop_options(const P& node) {
    auto d = std::make_shared<Node>(K::Dict);
    for (auto& [k, v] : node->loop_opts) {
      d->v1.push_back(str_const(k));
      d->v2.push_back(v);
    }
    return d;
  }

  Block visit_while(const P& node) {
    ++ctx_.while_stmts;
    const FlowInfo& f = flow_[node.get()];
    BlockVars bv = block_vars(node, f.body.bound);
    Block decls = nonlocal_declarations(bv.vars);
    std::string getter = ctx_.namer.new_symbol("get_state", reserved());
    std::string setter = ctx_.namer.new_symbol("set_state", reserved());
    Block out = state_functions(bv.vars, decls, getter, setter);
    std::string body_name = ctx_.namer.new_symbol("loop_body", reserved());
    std::string test_name = ctx_.namer.new_symbol("loop_test", reserved());
    out.push_back(funcdef(body_name, {}, with_decls(decls, node->v1)));
    auto ret = std::make_shared<Node>(K::Return);
    ret->a = node->a;
    out.push_back(funcdef(test_name, {}, {ret}));
    for (auto& u : undefined_assigns(bv)) out.push_back(u);
    out.push_back(expr_stmt(call(gen_expr("ag__.while_stmt"),
                                 {name(test_name), name(body_name), name(getter), name(setter),
                                  names_tuple(bv.vars), loop_options(node)})));
    return from_line(std::move(out), node->line);
  }

  Block visit_for(const P& node) {
    ++ctx_.for_stmts;
    const FlowInfo& f = flow_[node.get()];
    Names modified = f.body.bound;
    modified.insert(f.iterate.bound.begin(), f.iterate.bound.end());
    BlockVars bv = block_vars(node, modified);
    Block decls = nonlocal_declarations(bv.vars);
    std::string getter = ctx_.namer.new_symbol("get_state", reserved());
    std::string setter = ctx_.namer.new_symbol("set_state", reserved());
    Block out = state_functions(bv.vars, decls, getter, setter);
    P opts = loop_options(node);
    opts->v1.push_back(str_const("iterate_names"));
    opts->v2.push_back(str_const(unparse(node->a)));
    P extra_name = kw_const(ConstKind::None);
    P extra_fn;
    if (node->extra_test) {
      std::string en = ctx_.namer.new_symbol("extra_test", reserved());
      auto ret = std::make_shared<Node>(K::Return);
      ret->a = node->extra_test;
      extra_fn = funcdef(en, {}, with_decls(decls, {ret}));
      extra_name = name(en);
    }
    std::string itr = ctx_.namer.new_symbol("itr", reserved());
    std::string body_name = ctx_.namer.new_symbol("loop_body", reserved());
    Block body = with_decls(decls, {assign(node->a, name(itr))});
    body.insert(body.end(), node->v1.begin(), node->v1.end());
    out.push_back(funcdef(body_name, {itr}, body));
    if (extra_fn) out.push_back(extra_fn);
    for (auto& u : undefined_assigns(bv)) out.push_back(u);
    out.push_back(expr_stmt(
        call(gen_expr("ag__.for_stmt"), {node->b, extra_name, name(body_name), name(getter),
                                         name(setter), names_tuple(bv.vars), opts})));
    return from_line(std::move(out), node->line);
  }

  Context& ctx_;
  std::map<const Node*, FlowInfo> flow_;
  std::vector<P> fns_;
  std::vector<Activity> fn_scopes_;
};

}  // namespace

void control_flow_pass(const P& fn, Context& ctx) {
  ControlFlow(ctx, analyze_control_flow(fn, ctx.qns)).function(fn);
}

}  // namespace tfs::autograph::detail
