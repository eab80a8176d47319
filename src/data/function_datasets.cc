// Datasets that run a traced function per element, as TF's CapturedFunction runs them:
// MapDataset / ParallelMapDatasetV2, FilterDataset, FlatMapDataset, InterleaveDataset /
// ParallelInterleaveDatasetV4,
// ScanDataset, and the ReduceDataset op. The function is named by an attr; its captured tensors
// come as the op's `other_arguments` and are fed after the element on every call.
#include "dataset_impl.h"
#include "tfscope/context.h"
#include "tfscope/cpu_info.h"
#include "tfscope/detail/function_resolver.h"

namespace tfs::data {
namespace {

using detail::DatasetIterator;
using detail::make_iterator_of;

// The function of a dataset op (TF's CapturedFunction): resolved when the dataset is made and
// held by it, so it lives as long as the dataset, whoever else lets it go.
class CapturedFunction {
 public:
  CapturedFunction(const OpKernelContext& ctx, const char* attr, std::vector<Tensor> captured)
      : name_(attr_func(*ctx.attrs, attr).name), captured_(std::move(captured)) {
    // In a graph: the plan the running graph has for its library function. Eagerly: the trace
    // registered under that name while it lives.
    if (const auto* r = dynamic_cast<const tfs::detail::FunctionResolver*>(ctx.runtime)) {
      fn_ = r->resolve(name_);
    } else {
      fn_ = Context::get().find_function(name_);
    }
    if (!fn_) throw Error(ErrorKind::kNotFound, "[data] function " + name_ + " is not defined");
  }

  // f(args..., captured...).
  std::vector<Tensor> run(Element args) const {
    args.insert(args.end(), captured_.begin(), captured_.end());
    return fn_->call(args);
  }

 private:
  std::string name_;
  std::vector<Tensor> captured_;
  std::shared_ptr<const CallableFunction> fn_;
};

std::vector<Tensor> inputs_from(const OpKernelContext& ctx, int begin, int end) {
  return std::vector<Tensor>(ctx.inputs.begin() + begin, ctx.inputs.begin() + end);
}

// The captured arguments of an op whose inputs end with them: the last len(Targuments).
std::vector<Tensor> captured_inputs(const OpKernelContext& ctx, int first) {
  const size_t n = attr_types(*ctx.attrs, "Targuments").size();
  return inputs_from(ctx, first, first + static_cast<int>(n));
}

class FunctionDataset : public DatasetBase {
 public:
  FunctionDataset(const OpKernelContext& ctx, DatasetRef input, CapturedFunction f)
      : DatasetBase(detail::output_types(ctx), detail::output_shapes(ctx)),
        input_(std::move(input)),
        f_(std::move(f)) {}

 protected:
  DatasetRef input_;
  CapturedFunction f_;
};

class MapDataset : public FunctionDataset {
 public:
  MapDataset(const OpKernelContext& ctx, DatasetRef input, CapturedFunction f, bool parallel)
      : FunctionDataset(ctx, std::move(input), std::move(f)), parallel_(parallel) {}

  // preserve_cardinality is on in TF 2: a map keeps its input's count.
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string type() const override { return parallel_ ? "ParallelMap" : "Map"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  // Results come in input order whatever num_parallel_calls and deterministic say: tfscope
  // runs the calls one after another.
  class Iter : public DatasetIterator<MapDataset> {
   public:
    Iter(std::shared_ptr<const MapDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}
    bool get_next(Element& out) override {
      Element in;
      if (!input_->get_next(in)) return false;
      out = dataset().f_.run(std::move(in));
      return true;
    }

   private:
    std::unique_ptr<IteratorBase> input_;
  };

  bool parallel_;
};

bool predicate_value(const std::vector<Tensor>& r) {
  if (r.size() != 1 || r[0].dtype() != DType::kBool || r[0].eager_shape().rank() != 0) {
    invalid_argument("Filter predicate `predicate` must return a scalar bool.");  // TF's text
  }
  return r[0].data<bool>()[0];
}

class FilterDataset : public FunctionDataset {
 public:
  using FunctionDataset::FunctionDataset;
  int64_t cardinality() const override {
    return input_->cardinality() == 0 ? 0 : kUnknownCardinality;
  }
  std::string type() const override { return "Filter"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<FilterDataset> {
   public:
    Iter(std::shared_ptr<const FilterDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}
    bool get_next(Element& out) override {
      while (true) {
        out.clear();
        if (!input_->get_next(out)) return false;
        if (predicate_value(dataset().f_.run(out))) return true;
      }
    }

   private:
    std::unique_ptr<IteratorBase> input_;
  };
};

// TF's TakeWhileDataset: the elements up to the first for which the predicate is false.
class TakeWhileDataset : public FunctionDataset {
 public:
  using FunctionDataset::FunctionDataset;
  int64_t cardinality() const override {
    return input_->cardinality() == 0 ? 0 : kUnknownCardinality;
  }
  std::string type() const override { return "TakeWhile"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<TakeWhileDataset> {
   public:
    Iter(std::shared_ptr<const TakeWhileDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}
    bool get_next(Element& out) override {
      if (!input_) return false;
      out.clear();
      if (input_->get_next(out) && predicate_value(dataset().f_.run(out))) return true;
      input_.reset();
      out.clear();
      return false;
    }

   private:
    std::unique_ptr<IteratorBase> input_;
  };
};

// The dataset f returns for one input element, iterated.
std::unique_ptr<IteratorBase> iterate_result(const CapturedFunction& f, Element in,
                                             const IteratorContext& ctx) {
  std::vector<Tensor> r = f.run(std::move(in));
  if (r.size() != 1 || r[0].dtype() != DType::kVariant) {
    invalid_argument("[data] the function of flat_map/interleave must return one dataset");
  }
  return dataset_of(r[0])->make_iterator(ctx);
}

class FlatMapDataset : public FunctionDataset {
 public:
  using FunctionDataset::FunctionDataset;
  int64_t cardinality() const override {
    return input_->cardinality() == 0 ? 0 : kUnknownCardinality;
  }
  std::string type() const override { return "FlatMap"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<FlatMapDataset> {
   public:
    Iter(std::shared_ptr<const FlatMapDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx), input_(iterate(*dataset().input_)) {}
    bool get_next(Element& out) override {
      while (true) {
        if (current_) {
          out.clear();
          if (current_->get_next(out)) return true;
          current_.reset();
        }
        Element in;
        if (!input_->get_next(in)) return false;
        current_ = iterate_result(dataset().f_, std::move(in), context());
      }
    }

   private:
    std::unique_ptr<IteratorBase> input_;
    std::unique_ptr<IteratorBase> current_;
  };
};

// TF's InterleaveDataset: cycle_length open elements visited in turn, block_length
// sub-elements from each; an exhausted element's slot takes the next input element when the
// cycle comes back to it. ParallelInterleaveDatasetV4 computes the open elements ahead on
// threads, but its deterministic order is this same one; a nondeterministic one
// (deterministic=False) may hand out whichever element is ready first, so this order is one of
// the orders TF may give.
class InterleaveDataset : public FunctionDataset {
 public:
  InterleaveDataset(const OpKernelContext& ctx, DatasetRef input, CapturedFunction f,
                    int64_t cycle_length, int64_t block_length, std::string type = "Interleave")
      : FunctionDataset(ctx, std::move(input), std::move(f)),
        cycle_length_(cycle_length),
        block_length_(block_length),
        type_(std::move(type)) {}
  int64_t cardinality() const override {
    return input_->cardinality() == 0 ? 0 : kUnknownCardinality;
  }
  std::string type() const override { return type_; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<InterleaveDataset> {
   public:
    Iter(std::shared_ptr<const InterleaveDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx),
          input_(iterate(*dataset().input_)),
          current_(static_cast<size_t>(dataset().cycle_length_)) {}

    bool get_next(Element& out) override {
      while (!end_of_input_ || open_ > 0) {
        auto& slot = current_[cycle_index_];
        if (slot) {
          out.clear();
          if (slot->get_next(out)) {
            if (++block_index_ == dataset().block_length_) advance();
            return true;
          }
          slot.reset();
          --open_;
          advance();
        } else if (!end_of_input_) {
          Element in;
          if (input_->get_next(in)) {
            slot = iterate_result(dataset().f_, std::move(in), context());
            ++open_;
          } else {
            end_of_input_ = true;
          }
        } else {
          advance();
        }
      }
      return false;
    }

   private:
    void advance() {
      block_index_ = 0;
      cycle_index_ = (cycle_index_ + 1) % current_.size();
    }

    std::unique_ptr<IteratorBase> input_;
    std::vector<std::unique_ptr<IteratorBase>> current_;
    size_t cycle_index_ = 0;
    int64_t block_index_ = 0;
    int64_t open_ = 0;
    bool end_of_input_ = false;
  };

  int64_t cycle_length_;
  int64_t block_length_;
  std::string type_;
};

class ScanDataset : public FunctionDataset {
 public:
  ScanDataset(const OpKernelContext& ctx, DatasetRef input, std::vector<Tensor> initial_state,
              CapturedFunction f)
      : FunctionDataset(ctx, std::move(input), std::move(f)), initial_(std::move(initial_state)) {}
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string type() const override { return "Scan"; }
  std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const override {
    return make_iterator_of<Iter>(*this, ctx);
  }

 private:
  class Iter : public DatasetIterator<ScanDataset> {
   public:
    Iter(std::shared_ptr<const ScanDataset> ds, const IteratorContext& ctx)
        : DatasetIterator(std::move(ds), ctx),
          input_(iterate(*dataset().input_)),
          state_(dataset().initial_) {}
    bool get_next(Element& out) override {
      Element in;
      if (!input_->get_next(in)) return false;
      Element args = state_;
      args.insert(args.end(), std::make_move_iterator(in.begin()),
                  std::make_move_iterator(in.end()));
      std::vector<Tensor> r = dataset().f_.run(std::move(args));
      const size_t n = state_.size();
      state_.assign(r.begin(), r.begin() + static_cast<long>(n));
      out.assign(r.begin() + static_cast<long>(n), r.end());
      return true;
    }

   private:
    std::unique_ptr<IteratorBase> input_;
    Element state_;
  };

  std::vector<Tensor> initial_;
};

const std::vector<ArgDef> kFunctionInputs = {
    {"input_dataset", "", DType::kVariant},
    {"other_arguments", "", DType::kInvalid, "", "Targuments"}};

int64_t positive(const OpKernelContext& ctx, int input, const std::string& name) {
  const int64_t v = detail::scalar_int64(ctx, input, name);
  if (v <= 0) invalid_argument(name + " must be greater than zero.");
  return v;
}

}  // namespace

void detail::register_function_datasets() {
  register_dataset_op("MapDataset", kFunctionInputs, [](OpKernelContext& ctx) -> DatasetRef {
    return std::make_shared<MapDataset>(ctx, input_dataset(ctx, 0),
                                        CapturedFunction(ctx, "f", captured_inputs(ctx, 1)), false);
  });
  auto parallel_inputs = kFunctionInputs;
  parallel_inputs.push_back({"num_parallel_calls", "", DType::kInt64});
  register_dataset_op(
      "ParallelMapDatasetV2", parallel_inputs, [](OpKernelContext& ctx) -> DatasetRef {
        const int last = ctx.num_inputs() - 1;
        const int64_t n = scalar_int64(ctx, last, "num_parallel_calls");
        if (n <= 0 && n != kAutotune) {
          invalid_argument("num_parallel_calls must be greater than zero.");
        }
        return std::make_shared<MapDataset>(
            ctx, input_dataset(ctx, 0), CapturedFunction(ctx, "f", captured_inputs(ctx, 1)), true);
      });
  register_dataset_op("FilterDataset", kFunctionInputs, [](OpKernelContext& ctx) -> DatasetRef {
    return std::make_shared<FilterDataset>(
        ctx, input_dataset(ctx, 0), CapturedFunction(ctx, "predicate", captured_inputs(ctx, 1)));
  });
  register_dataset_op("TakeWhileDataset", kFunctionInputs, [](OpKernelContext& ctx) -> DatasetRef {
    return std::make_shared<TakeWhileDataset>(
        ctx, input_dataset(ctx, 0), CapturedFunction(ctx, "predicate", captured_inputs(ctx, 1)));
  });
  register_dataset_op("FlatMapDataset", kFunctionInputs, [](OpKernelContext& ctx) -> DatasetRef {
    return std::make_shared<FlatMapDataset>(ctx, input_dataset(ctx, 0),
                                            CapturedFunction(ctx, "f", captured_inputs(ctx, 1)));
  });
  auto interleave_inputs = kFunctionInputs;
  interleave_inputs.push_back({"cycle_length", "", DType::kInt64});
  interleave_inputs.push_back({"block_length", "", DType::kInt64});
  register_dataset_op(
      "InterleaveDataset", interleave_inputs, [](OpKernelContext& ctx) -> DatasetRef {
        const int n = ctx.num_inputs();
        // AUTOTUNE: TF's port::MaxParallelism(), the CPUs this process may run on.
        int64_t cycle = scalar_int64(ctx, n - 2, "cycle_length");
        if (cycle == kAutotune) cycle = cpu_info().schedulable_cpus;
        if (cycle <= 0) invalid_argument("cycle_length must be greater than zero.");
        return std::make_shared<InterleaveDataset>(
            ctx, input_dataset(ctx, 0), CapturedFunction(ctx, "f", captured_inputs(ctx, 1)), cycle,
            positive(ctx, n - 1, "block_length"));
      });
  auto parallel_interleave_inputs = interleave_inputs;
  for (const char* name :
       {"buffer_output_elements", "prefetch_input_elements", "num_parallel_calls"}) {
    parallel_interleave_inputs.push_back({name, "", DType::kInt64});
  }
  register_dataset_op(
      "ParallelInterleaveDatasetV4", parallel_interleave_inputs,
      [](OpKernelContext& ctx) -> DatasetRef {
        const int n = ctx.num_inputs();
        // TF's checks, in its order and with its texts.
        int64_t cycle = scalar_int64(ctx, n - 5, "cycle_length");
        if (cycle <= 0 && cycle != kAutotune) {
          invalid_argument("`cycle_length` must be `tf.data.AUTOTUNE` or greater than 0 but is " +
                           std::to_string(cycle));
        }
        const int64_t block = scalar_int64(ctx, n - 4, "block_length");
        if (block <= 0) invalid_argument("`block_length` must be > 0");
        for (int i : {n - 3, n - 2}) {
          const char* name = i == n - 3 ? "buffer_output_elements" : "prefetch_input_elements";
          const int64_t v = scalar_int64(ctx, i, name);
          if (v <= 0 && v != kAutotune) {
            invalid_argument("`" + std::string(name) +
                             "` must be `tf.data.AUTOTUNE` or greater than 0 but is " +
                             std::to_string(v));
          }
        }
        const int64_t parallel = scalar_int64(ctx, n - 1, "num_parallel_calls");
        if (parallel <= 0 && parallel != kAutotune) {
          invalid_argument("num_parallel_calls must be greater than zero.");
        }
        if (cycle != kAutotune && parallel != kAutotune && parallel > cycle) {
          invalid_argument(
              "If `cycle_length` is set to a fixed value, `num_parallel_calls` must be either "
              "`tf.data.AUTOTUNE` or a value less than or equal to `cycle_length`. However, "
              "`num_parallel_calls` is " +
              std::to_string(parallel) + " and `cycle_length` is " + std::to_string(cycle));
        }
        if (cycle == kAutotune) cycle = cpu_info().schedulable_cpus;  // port::MaxParallelism()
        return std::make_shared<InterleaveDataset>(
            ctx, input_dataset(ctx, 0), CapturedFunction(ctx, "f", captured_inputs(ctx, 1)), cycle,
            block, "ParallelInterleaveV4");
      });
  register_dataset_op("ScanDataset",
                      {{"input_dataset", "", DType::kVariant},
                       {"initial_state", "", DType::kInvalid, "", "Tstate"},
                       {"other_arguments", "", DType::kInvalid, "", "Targuments"}},
                      [](OpKernelContext& ctx) -> DatasetRef {
                        const int n_state =
                            static_cast<int>(attr_types(*ctx.attrs, "Tstate").size());
                        return std::make_shared<ScanDataset>(
                            ctx, input_dataset(ctx, 0), inputs_from(ctx, 1, 1 + n_state),
                            CapturedFunction(ctx, "f", captured_inputs(ctx, 1 + n_state)));
                      });

  // ReduceDataset: the final state of f folded over the dataset.
  OpDef d;
  d.name = "ReduceDataset";
  d.inputs = {{"input_dataset", "", DType::kVariant},
              {"initial_state", "", DType::kInvalid, "", "Tstate"},
              {"other_arguments", "", DType::kInvalid, "", "Targuments"}};
  d.outputs = {{"components", "", DType::kInvalid, "", "output_types"}};
  d.stateful = true;  // it iterates its input: a graph keeps it in its control outputs, as TF
  d.shape_fn = [](InferenceContext& c) {
    const auto& shapes = std::get<std::vector<PartialShape>>(c.attrs->at("output_shapes"));
    for (size_t i = 0; i < shapes.size() && i < c.output_shapes.size(); ++i)
      c.set_output(static_cast<int>(i), shapes[i]);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const int n_state = static_cast<int>(attr_types(*ctx.attrs, "Tstate").size());
    CapturedFunction f(ctx, "f", captured_inputs(ctx, 1 + n_state));
    Element state = inputs_from(ctx, 1, 1 + n_state);
    DatasetRef ds = input_dataset(ctx, 0);
    auto it = ds->make_iterator(IteratorContext{});
    Element in;
    while (it->get_next(in)) {
      Element args = std::move(state);
      args.insert(args.end(), std::make_move_iterator(in.begin()),
                  std::make_move_iterator(in.end()));
      state = f.run(std::move(args));
      in.clear();
    }
    for (size_t i = 0; i < state.size(); ++i) ctx.set_output(static_cast<int>(i), state[i]);
  };
  OpRegistry::global().add(std::move(d));
}

}  // namespace tfs::data
