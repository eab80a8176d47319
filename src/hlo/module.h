// An HLO module under construction: instructions in creation order per computation, printed as
// XLA's HloModule::ToString prints them (computations in post order of the calls from the entry,
// instructions in post order from each user-less instruction, operands in order; shapes with their
// minor-to-major layouts).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tfscope/dtype.h"

namespace tfs::hlo::detail {

struct HloShape {
  std::string type;  // "f32"; empty for a tuple
  std::vector<int64_t> dims;
  std::vector<int64_t> layout;     // minor to major
  std::vector<HloShape> elements;  // a tuple's
  bool is_tuple = false;

  static HloShape array(DType dt, std::vector<int64_t> dims);          // default layout {r-1,...,0}
  static HloShape array(std::string type, std::vector<int64_t> dims);  // type: "f32"
  static HloShape tuple(std::vector<HloShape> elements);
  std::string str(bool with_layout = true) const;
};

std::string xla_type(DType dt);  // "f32", "s32", "pred"; throws for types XLA lacks

struct Computation;

struct Instr {
  std::string base;    // "add", "arg0", "XLA_Retvals"
  std::string opcode;  // "add", "parameter", "constant"
  HloShape shape;
  std::vector<Instr*> operands;
  std::string literal;              // parameter number or constant literal, printed in the parens
  std::string attrs;                // ", dimensions={1}"
  std::string metadata;             // "op_type=\"AddV2\" op_name=\"add\"" or empty
  Computation* to_apply = nullptr;  // a reduce's reducer, printed after attrs
  // Other called computations, printed after attrs as `key=%name` in this order:
  // a conditional's true_computation/false_computation, a while's condition/body.
  std::vector<std::pair<std::string, Computation*>> calls;
  int users = 0;
  std::string name;  // assigned when printing
};

struct Computation {
  std::string base;  // "Sum-reduction"; the printer appends ".N"
  std::string name;
  std::vector<std::unique_ptr<Instr>> instrs;
  std::vector<Instr*> params;
  Instr* root = nullptr;

  Instr* add(Instr instr);
};

struct Module {
  std::vector<std::unique_ptr<Computation>> computations;  // in creation order, the entry first

  Computation* add_computation(std::string base);
  std::string str() const;
};

}  // namespace tfs::hlo::detail
