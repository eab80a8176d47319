#include "module.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "tfscope/errors.h"

namespace tfs::hlo::detail {

std::string xla_type(DType dt) {
  switch (dt) {
    case DType::kFloat32:
      return "f32";
    case DType::kFloat64:
      return "f64";
    case DType::kInt32:
      return "s32";
    case DType::kInt64:
      return "s64";
    case DType::kInt16:
      return "s16";
    case DType::kInt8:
      return "s8";
    case DType::kUInt8:
      return "u8";
    case DType::kBool:
      return "pred";
    default:
      break;
  }
  throw Error(ErrorKind::kNotImplemented,
              "[hlo] no XLA element type for dtype " + std::string(dtype_name(dt)));
}

HloShape HloShape::array(DType dt, std::vector<int64_t> dims) {
  return array(xla_type(dt), std::move(dims));
}

HloShape HloShape::array(std::string type, std::vector<int64_t> dims) {
  HloShape s;
  s.type = std::move(type);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) s.layout.push_back(i);
  s.dims = std::move(dims);
  return s;
}

HloShape HloShape::tuple(std::vector<HloShape> elements) {
  HloShape s;
  s.is_tuple = true;
  s.elements = std::move(elements);
  return s;
}

static std::string join(const std::vector<int64_t>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out;
}

// XLA marks every fifth element of a long tuple or operand list: "/*index=5*/".
static std::string index_comment(size_t i) {
  return i && i % 5 == 0 ? "/*index=" + std::to_string(i) + "*/" : std::string();
}

std::string HloShape::str(bool with_layout) const {
  if (is_tuple) {
    std::string out = "(";
    for (size_t i = 0; i < elements.size(); ++i)
      out += (i ? ", " : "") + index_comment(i) + elements[i].str(with_layout);
    return out + ")";
  }
  std::string out = type + "[" + join(dims) + "]";
  if (with_layout && !dims.empty()) out += "{" + join(layout) + "}";
  return out;
}

Instr* Computation::add(Instr instr) {
  instrs.push_back(std::make_unique<Instr>(std::move(instr)));
  Instr* p = instrs.back().get();
  for (Instr* op : p->operands) ++op->users;
  if (p->opcode == "parameter") params.push_back(p);
  root = p;
  return p;
}

Computation* Module::add_computation(std::string base) {
  computations.push_back(std::make_unique<Computation>());
  computations.back()->base = std::move(base);
  return computations.back().get();
}

// XLA's post order: a depth-first walk from each instruction nobody uses, in creation order,
// visiting operands in order.
static std::vector<Instr*> post_order(const Computation& c) {
  std::vector<Instr*> order;
  std::set<const Instr*> seen;
  std::function<void(Instr*)> visit = [&](Instr* i) {
    if (!seen.insert(i).second) return;
    for (Instr* op : i->operands) visit(op);
    order.push_back(i);
  };
  for (auto& i : c.instrs)
    if (i->users == 0 || i.get() == c.root) visit(i.get());
  return order;
}

static std::string instr_line(const Instr& i, bool is_root) {
  std::string out = "  ";
  if (is_root) out += "ROOT ";
  out += "%" + i.name + " = " + i.shape.str() + " " + i.opcode + "(";
  if (!i.literal.empty()) out += i.literal;
  for (size_t k = 0; k < i.operands.size(); ++k)
    out += (k ? ", " : "") + index_comment(k) + i.operands[k]->shape.str() + " %" +
           i.operands[k]->name;
  out += ")" + i.attrs;
  for (auto& [key, c] : i.calls) out += ", " + key + "=%" + c->name;
  if (i.to_apply) out += ", to_apply=%" + i.to_apply->name;
  if (!i.metadata.empty()) out += ", metadata={" + i.metadata + "}";
  return out + "\n";
}

// The computations a computation calls, in the order XLA lists them: a while its body before its
// condition.
static std::vector<Computation*> called(const Instr& i) {
  std::vector<Computation*> out;
  if (i.to_apply) out.push_back(i.to_apply);
  for (auto& call : i.calls) out.push_back(call.second);
  if (i.opcode == "while") std::reverse(out.begin(), out.end());
  return out;
}

// XLA's MakeComputationPostOrder: from the entry, the computations called by each instruction in
// creation order, depth first, each after the ones it calls; the entry last.
static std::vector<Computation*> computation_order(Computation* entry) {
  std::vector<Computation*> order;
  std::set<const Computation*> seen;
  std::function<void(Computation*)> visit = [&](Computation* c) {
    if (!seen.insert(c).second) return;
    for (auto& i : c->instrs)
      for (Computation* callee : called(*i)) visit(callee);
    order.push_back(c);
  };
  visit(entry);
  return order;
}

std::string Module::str() const {
  // Names: base.N, numbered per base in creation order over the module; computations by their
  // position in the printed order, the entry last (its name is the module's).
  std::map<std::string, int> counts;
  for (auto& c : computations)
    for (auto& i : c->instrs) i->name = i->base + "." + std::to_string(++counts[i->base]);
  const std::vector<Computation*> order = computation_order(computations.front().get());
  for (size_t k = 0; k < order.size(); ++k)
    order[k]->name = order[k]->base + "." + std::to_string(k + 1);
  const Computation& entry = *computations.front();
  std::string sig = "(";
  for (size_t k = 0; k < entry.params.size(); ++k)
    sig += (k ? ", " : "") + entry.params[k]->shape.str();
  sig += ")->" + entry.root->shape.str();
  std::string out = "HloModule " + entry.name + ", entry_computation_layout={" + sig + "}\n\n";
  for (const Computation* c : order) {
    bool is_entry = c == &entry;
    out += is_entry ? "ENTRY %" : "%";
    out += c->name + " (";
    for (size_t k = 0; k < c->params.size(); ++k)
      out += (k ? ", " : "") + c->params[k]->name + ": " + c->params[k]->shape.str(false);
    out += ") -> " + c->root->shape.str(false) + " {\n";
    for (Instr* i : post_order(*c)) out += instr_line(*i, i == c->root);
    out += "}\n\n";
  }
  return out;
}

}  // namespace tfs::hlo::detail
