// A custom trace type whose values a tf.function may return (TF's composite tensors, as
// nest.flatten(..., expand_composites=True) sees them): the tracer flattens such a result into
// the type's to_tensors and a call packs its outputs back with from_tensors. A RaggedTensor is
// one: its flat_values and row_splits are two outputs of the function's graph.
#pragma once

#include <memory>
#include <vector>

#include "tfscope/trace_type.h"

namespace tfs {

class CompositeTraceType : public CustomTraceType {
 public:
  // False for a type that cannot rebuild its values from tensors (a function may not return
  // them: TF's "found return value of type ..." error).
  virtual bool packs_results() const = 0;
  // A value of this type from the tensors to_tensors gives for one.
  virtual Value from_tensors(const std::vector<Tensor>& tensors) const = 0;
};

// The composite type `v` traces as, when it holds a traced object of one that packs results.
inline std::shared_ptr<const CompositeTraceType> result_composite(const Value& v) {
  if (v.kind() != Value::Kind::kObject) return nullptr;
  auto* o = dynamic_cast<const TracedObject*>(v.as_object().get());
  if (!o) return nullptr;
  auto t = std::dynamic_pointer_cast<const CompositeTraceType>(o->trace_type());
  return t && t->packs_results() ? t : nullptr;
}

}  // namespace tfs
