// converters/break_statements.py and converters/continue_statements.py.
#include <functional>

#include "parser.h"
#include "passes.h"
#include "templates.h"
#include "tfscope/autograph.h"

namespace tfs::autograph::detail {

// ------------------------------------------------------------- break

namespace {

class BreakLowering {
 public:
  explicit BreakLowering(Context& ctx) : ctx_(ctx) {}

  void function(const P& fn) {
    fns_.push_back(fn.get());
    fn->v1 = block(fn->v1);
    fns_.pop_back();
  }

  Block block(const Block& b) {
    Block out;
    for (auto& s : b)
      for (auto& r : stmt(s)) out.push_back(r);
    return out;
  }

 private:
  struct State {
    bool used = false;
    std::string var;
  };

  Block stmt(const P& s) {
    switch (s->kind) {
      case K::Break: {
        states_.back().used = true;
        return {assign(name(states_.back().var), kw_const(ConstKind::True)),
                std::make_shared<Node>(K::Continue)};
      }
      case K::While:
      case K::For: {
        std::string var = ctx_.namer.new_symbol("break_", ctx_.referenced[fns_.back()]);
        states_.push_back({false, var});
        s->v1 = block(s->v1);
        bool used = states_.back().used;
        states_.pop_back();
        s->v2 = block(s->v2);
        if (!used) return single(s);
        if (s->kind == K::While) {
          s->a = and_(not_(name(var)), s->a);
        } else {
          s->v1.insert(s->v1.begin(), expr_stmt(tuple({name(var)})));
          s->extra_test = not_(name(var));
        }
        return {assign(name(var), kw_const(ConstKind::False)), s};
      }
      case K::FunctionDef:
        function(s);
        return single(s);
      case K::ClassDef:
        s->v1 = block(s->v1);
        return single(s);
      case K::If:
        s->v1 = block(s->v1);
        s->v2 = block(s->v2);
        return single(s);
      case K::With:
        s->v2 = block(s->v2);
        return single(s);
      case K::Try:
        s->v1 = block(s->v1);
        for (auto& h : s->v2) h->v1 = block(h->v1);
        s->v3 = block(s->v3);
        s->v4 = block(s->v4);
        return single(s);
      default:
        return single(s);
    }
  }

  Context& ctx_;
  std::vector<const Node*> fns_;
  std::vector<State> states_;
};

}  // namespace

void break_pass(const P& fn, Context& ctx) {
  BreakLowering(ctx).function(fn);
}

// ------------------------------------------------------------- continue

namespace {

class ContinueLowering {
 public:
  explicit ContinueLowering(Context& ctx) : ctx_(ctx) {}

  void function(const P& fn) {
    fns_.push_back(fn.get());
    fn->v1 = plain_block(fn->v1);
    fns_.pop_back();
  }

 private:
  struct BlockState {
    bool is_loop = false, guard_current = false, guard_next = false;
  };
  struct ContinueState {
    bool used = false;
    std::string var;
  };

  // A block visited without after_visit (generic_visit): no guards at this level.
  Block plain_block(const Block& b) {
    Block out;
    for (auto& s : b)
      for (auto& r : stmt(s)) out.push_back(r);
    return out;
  }

  Block guarded_block(const Block& b) {
    Block results;
    Block* dest = &results;
    for (auto& s : b) {
      Block repl = stmt(s);
      Block* new_dest = nullptr;
      if (!repl.empty() && !conts_.empty() && conts_.back().used) {
        BlockState& bs = blocks_.back();
        bool wrap = bs.guard_current;
        bs.guard_current = bs.guard_next;
        bs.guard_next = false;
        if (wrap) {
          P cond = if_not(conts_.back().var, repl);
          repl = {cond};
          new_dest = &cond->v1;
        }
      }
      for (auto& r : repl) dest->push_back(r);
      if (new_dest) dest = new_dest;
    }
    return results;
  }

  Block loop_body(const Block& b) {
    std::string var = ctx_.namer.new_symbol("continue_", ctx_.referenced[fns_.back()]);
    conts_.push_back({false, var});
    blocks_.push_back({true, false, false});
    Block out = guarded_block(b);
    if (conts_.back().used) out.insert(out.begin(), assign(name(var), kw_const(ConstKind::False)));
    blocks_.pop_back();
    conts_.pop_back();
    return out;
  }

  Block non_loop_body(const Block& b) {
    blocks_.push_back({});
    Block out = guarded_block(b);
    blocks_.pop_back();
    return out;
  }

  Block stmt(const P& s) {
    switch (s->kind) {
      case K::Continue: {
        conts_.back().used = true;
        for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
          it->guard_next = true;
          if (it->is_loop) break;
        }
        return {assign(name(conts_.back().var), kw_const(ConstKind::True))};
      }
      case K::While:
      case K::For:
        s->v1 = loop_body(s->v1);
        s->v2 = non_loop_body(s->v2);
        return single(s);
      case K::If:
        s->v1 = non_loop_body(s->v1);
        s->v2 = non_loop_body(s->v2);
        return single(s);
      case K::With:
        s->v2 = non_loop_body(s->v2);
        return single(s);
      case K::Try:
        s->v1 = non_loop_body(s->v1);
        s->v3 = non_loop_body(s->v3);
        s->v4 = non_loop_body(s->v4);
        for (auto& h : s->v2) h->v1 = non_loop_body(h->v1);
        return single(s);
      case K::FunctionDef:
        function(s);
        return single(s);
      case K::ClassDef:
        s->v1 = plain_block(s->v1);
        return single(s);
      default:
        return single(s);
    }
  }

  Context& ctx_;
  std::vector<const Node*> fns_;
  std::vector<BlockState> blocks_;
  std::vector<ContinueState> conts_;
};

}  // namespace

void continue_pass(const P& fn, Context& ctx) {
  ContinueLowering(ctx).function(fn);
}

}  // namespace tfs::autograph::detail
