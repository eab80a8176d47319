// The iterator ops a graph iterates a dataset with, as TF's `iter(ds)` / `next(it)` build them in
// a tf.function: AnonymousIteratorV3 makes an iterator resource, MakeIterator points it at a
// dataset, IteratorGetNext takes the next element (OutOfRange "End of sequence" at the end).
// Eager iteration runs tfs::data::Iterator directly; IteratorGetNext's signature also names
// the eager error's wrapper function.
#include <mutex>

#include "dataset_impl.h"
#include "tfscope/ops.h"

namespace tfs::data {
namespace {

// TF's IteratorResource: empty until MakeIterator gives it a dataset.
class IteratorResource : public ResourceBase {
 public:
  std::string debug_name() const override { return "Iterator resource"; }
  void reset(DatasetRef ds) {
    std::lock_guard<std::mutex> lock(mu_);
    it_ = ds->make_iterator(IteratorContext{});
    ds_ = std::move(ds);
  }
  bool next(Element& out) {
    std::lock_guard<std::mutex> lock(mu_);
    return next_locked(out);
  }
  // Eager next(it): the kernel's errors as TF's eager IteratorGetNext reports them.
  bool eager_next(Element& out) {
    std::lock_guard<std::mutex> lock(mu_);
    try {
      return next_locked(out);
    } catch (const Error& e) {
      detail::rethrow_as_iterator_get_next(ds_ ? ds_->output_dtypes() : std::vector<DType>{}, e);
    }
  }

 private:
  bool next_locked(Element& out) {
    if (!it_) {
      throw Error(ErrorKind::kFailedPrecondition,
                  "GetNext() failed because the iterator has not been initialized. Ensure that "
                  "you have run the initializer operation for this iterator before getting the "
                  "next element.");
    }
    out.clear();
    return it_->get_next(out);
  }

  std::mutex mu_;
  DatasetRef ds_;
  std::unique_ptr<IteratorBase> it_;
};

// An element or none, as a variant (TF's OptionalVariant).
class OptionalValue : public ResourceBase {
 public:
  explicit OptionalValue(std::optional<Element> value) : value_(std::move(value)) {}
  std::string debug_name() const override { return "Optional"; }
  const std::optional<Element>& value() const { return value_; }

 private:
  std::optional<Element> value_;
};

const OptionalValue& optional_of(const OpKernelContext& ctx, int input) {
  auto o = std::dynamic_pointer_cast<const OptionalValue>(ctx.input(input).variant_value());
  if (!o) invalid_argument("Input tensor must be a scalar DT_VARIANT tensor of type Optional.");
  return *o;
}

void set_output_specs(InferenceContext& c) {
  const auto& shapes = std::get<std::vector<PartialShape>>(c.attrs->at("output_shapes"));
  for (size_t i = 0; i < shapes.size() && i < c.output_shapes.size(); ++i)
    c.set_output(static_cast<int>(i), shapes[i]);
}

std::shared_ptr<IteratorResource> iterator_of(const OpKernelContext& ctx, int input) {
  auto it = std::dynamic_pointer_cast<IteratorResource>(ctx.input(input).resource_handle());
  if (!it) invalid_argument("[data] expected an iterator resource");
  return it;
}

}  // namespace

void detail::register_iterator_ops() {
  OpDef anon;
  anon.name = "AnonymousIteratorV3";
  anon.outputs = {{"handle", "", DType::kResource}};
  anon.stateful = true;
  anon.shape_fn = [](InferenceContext& c) { c.set_output(0, Shape{}); };
  anon.kernel = [](OpKernelContext& ctx) {
    ctx.set_output(0, Tensor::resource(std::make_shared<IteratorResource>()));
  };
  OpRegistry::global().add(std::move(anon));

  OpDef make;
  make.name = "MakeIterator";
  make.inputs = {{"dataset", "", DType::kVariant}, {"iterator", "", DType::kResource}};
  make.stateful = true;
  make.kernel = [](OpKernelContext& ctx) { iterator_of(ctx, 1)->reset(input_dataset(ctx, 0)); };
  OpRegistry::global().add(std::move(make));

  OpDef d;
  d.name = "IteratorGetNext";
  d.inputs = {{"iterator", "", DType::kResource}};
  d.outputs = {{"components", "", DType::kInvalid, "", "output_types"}};
  d.stateful = true;
  d.shape_fn = set_output_specs;
  d.kernel = [](OpKernelContext& ctx) {
    Element e;
    if (!iterator_of(ctx, 0)->next(e)) throw Error(ErrorKind::kOutOfRange, "End of sequence");
    for (size_t i = 0; i < e.size(); ++i) ctx.set_output(static_cast<int>(i), std::move(e[i]));
  };
  OpRegistry::global().add(std::move(d));

  // get_next_as_optional (AutoGraph's `for` over an iterator): the next element or none.
  OpDef opt;
  opt.name = "IteratorGetNextAsOptional";
  opt.inputs = {{"iterator", "", DType::kResource}};
  opt.outputs = {{"optional", "", DType::kVariant}};
  opt.stateful = true;
  opt.shape_fn = [](InferenceContext& c) { c.set_output(0, Shape{}); };
  opt.kernel = [](OpKernelContext& ctx) {
    Element e;
    std::optional<Element> value;
    if (iterator_of(ctx, 0)->next(e)) value = std::move(e);
    ctx.set_output(0, Tensor::variant(std::make_shared<OptionalValue>(std::move(value))));
  };
  OpRegistry::global().add(std::move(opt));

  // cond_v2's gradient wraps a branch's intermediates in optionals (a value in the branch that
  // ran, none in the other).
  OpDef from;
  from.name = "OptionalFromValue";
  from.inputs = {{"components", "", DType::kInvalid, "", "Toutput_types"}};
  from.outputs = {{"optional", "", DType::kVariant}};
  from.shape_fn = [](InferenceContext& c) { c.set_output(0, Shape{}); };
  from.kernel = [](OpKernelContext& ctx) {
    Element e;
    for (int i = 0; i < ctx.num_inputs(); ++i) e.push_back(ctx.input(i));
    ctx.set_output(0, Tensor::variant(std::make_shared<OptionalValue>(std::move(e))));
  };
  OpRegistry::global().add(std::move(from));

  OpDef none;
  none.name = "OptionalNone";
  none.outputs = {{"optional", "", DType::kVariant}};
  none.shape_fn = [](InferenceContext& c) { c.set_output(0, Shape{}); };
  none.kernel = [](OpKernelContext& ctx) {
    ctx.set_output(0, Tensor::variant(std::make_shared<OptionalValue>(std::nullopt)));
  };
  OpRegistry::global().add(std::move(none));

  OpDef has;
  has.name = "OptionalHasValue";
  has.inputs = {{"optional", "", DType::kVariant}};
  has.outputs = {{"has_value", "", DType::kBool}};
  has.shape_fn = [](InferenceContext& c) { c.set_output(0, Shape{}); };
  has.kernel = [](OpKernelContext& ctx) {
    ctx.set_output(0, Tensor::from_bools({optional_of(ctx, 0).value().has_value()}, Shape{}));
  };
  OpRegistry::global().add(std::move(has));

  OpDef get;
  get.name = "OptionalGetValue";
  get.inputs = {{"optional", "", DType::kVariant}};
  get.outputs = {{"components", "", DType::kInvalid, "", "output_types"}};
  get.shape_fn = set_output_specs;
  get.kernel = [](OpKernelContext& ctx) {
    const auto& value = optional_of(ctx, 0).value();
    if (!value) invalid_argument("The optional does not have a value.");
    for (size_t i = 0; i < value->size(); ++i) ctx.set_output(static_cast<int>(i), (*value)[i]);
  };
  OpRegistry::global().add(std::move(get));
}

Tensor Dataset::make_graph_iterator() const {
  detail::register_data_ops();
  Tensor handle = execute1("AnonymousIteratorV3", {}, detail::spec_attrs(specs_));
  execute("MakeIterator", {variant_, handle});
  return handle;
}

std::vector<Tensor> Dataset::iterator_get_next(const Tensor& iterator,
                                               const std::vector<TensorSpec>& specs) {
  return execute("IteratorGetNext", {iterator}, detail::spec_attrs(specs));
}

Tensor Dataset::iterator_get_next_as_optional(const Tensor& iterator,
                                              const std::vector<TensorSpec>& specs) {
  return execute1("IteratorGetNextAsOptional", {iterator}, detail::spec_attrs(specs));
}

Tensor Dataset::optional_has_value(const Tensor& optional) {
  return execute1("OptionalHasValue", {optional});
}

std::vector<Tensor> Dataset::optional_get_value(const Tensor& optional,
                                                const std::vector<TensorSpec>& specs) {
  return execute("OptionalGetValue", {optional}, detail::spec_attrs(specs));
}

std::optional<Element> Dataset::eager_iterator_next(const Tensor& iterator) {
  auto it = std::dynamic_pointer_cast<IteratorResource>(iterator.resource_handle());
  if (!iterator.is_eager() || !it) invalid_argument("[data] expected an eager iterator resource");
  Element e;
  if (!it->eager_next(e)) return std::nullopt;
  return e;
}

}  // namespace tfs::data
