// tfs::data for the Python API (tfscope.data, tfscope.io): the dataset front end over flat
// component lists, eager iterators, Python generators as element sources, and TFRecord
// writing. The package's data/ keeps the element structure (tuples, dicts) and TF's classes.
#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/concrete_function.h"
#include "tfscope/data.h"
#include "tfscope/example.h"
#include "tfscope/graph_builder.h"
#include "tfscope/ops.h"
#include "tfscope/summary.h"
#include "tfscope/tfrecord.h"

namespace tfpy {

namespace {

namespace td = tfs::data;

// A Python generator's elements: `make()` gives a Python iterator whose items are lists of
// tensors (the flattened element, converted by the package) or None at the end.
class PythonSource : public td::IteratorBase {
 public:
  explicit PythonSource(nb::object it) : it_(std::move(it)) {}
  ~PythonSource() override {
    nb::gil_scoped_acquire gil;
    it_.reset();
  }
  bool get_next(td::Element& out) override {
    nb::gil_scoped_acquire gil;
    nb::object item = it_();
    if (item.is_none()) return false;
    for (nb::handle t : item) out.push_back(nb::cast<tfs::Tensor>(t));
    return true;
  }

 private:
  nb::object it_;
};

nb::list specs_py(const std::vector<tfs::TensorSpec>& specs) {
  nb::list out;
  for (const auto& s : specs) out.append(nb::make_tuple(py_shape(s.shape), py_dtype(s.dtype)));
  return out;
}

tfs::Value count_arg(nb::handle h) {
  return to_value(h);
}

// (key, kind, values) per feature; kind 0 none, 1 bytes, 2 float, 3 int64.
td::Features features_arg(nb::handle list) {
  td::Features out;
  for (nb::handle item : list) {
    td::FeatureValue v;
    const int kind = nb::cast<int>(item[1]);
    v.kind = static_cast<td::FeatureValue::Kind>(kind);
    for (nb::handle x : item[2]) {
      if (kind == 1) {
        nb::bytes b = nb::borrow<nb::bytes>(x);
        v.bytes.emplace_back(b.c_str(), b.size());
      }
      if (kind == 2) v.floats.push_back(nb::cast<float>(x));
      if (kind == 3) v.ints.push_back(nb::cast<int64_t>(x));
    }
    out.emplace_back(nb::cast<std::string>(item[0]), std::move(v));
  }
  return out;
}

nb::list features_py(const td::Features& fs) {
  nb::list out;
  for (const auto& [key, v] : fs) {
    nb::list values;
    for (const auto& b : v.bytes) values.append(nb::bytes(b.data(), b.size()));
    for (float f : v.floats) values.append(nb::float_(f));
    for (int64_t i : v.ints) values.append(nb::int_(i));
    out.append(nb::make_tuple(key, static_cast<int>(v.kind), values));
  }
  return out;
}

// A trace as a dataset op takes it: fed captures as its call op feeds them (a "const" capture is
// folded into the graph), output specs from the trace's outputs. While a graph is being built,
// the trace joins that graph's library (the dataset op names it), as a call node's callee does.
td::DatasetFunction dataset_function(const std::shared_ptr<tfs::ConcreteFunction>& fn) {
  const tfs::ConcreteFunction& cf = *fn;
  if (auto* b = dynamic_cast<tfs::FuncGraphBuilder*>(tfs::current_builder())) {
    b->graph()->add_function(std::shared_ptr<const tfs::GraphFunction>(fn, &cf.graph_function()));
  }
  td::DatasetFunction f;
  f.name = cf.name();
  for (const auto& c : cf.captures())
    if (c.kind != "const") f.captured.push_back(c.external);
  for (const tfs::Tensor& t : cf.outputs()) f.output_specs.emplace_back(t.shape(), t.dtype());
  return f;
}

std::vector<tfs::TensorSpec> specs_arg(nb::handle spec_list) {
  std::vector<tfs::TensorSpec> specs;
  for (nb::handle s : spec_list) specs.emplace_back(shape_arg(s[0]), dtype_arg(s[1]));
  return specs;
}

}  // namespace

void bind_data(nb::module_& m) {
  // tf.summary's writer ops, staged and run through _core.execute like any generated wrapper.
  tfs::data::register_summary_ops();

  // tf.data's random_seed.get_seed: the (seed, seed2) inputs of ShuffleDatasetV3.
  def_any(m, "data_seeds", [](std::optional<int64_t> seed) { return tfs::get_random_seed(seed); });

  nb::class_<td::Iterator>(m, "DatasetIteratorCore")
      .def("next",
           [](td::Iterator& it) -> std::optional<std::vector<tfs::Tensor>> { return it.next(); });

  nb::class_<td::Dataset>(m, "DatasetCore")
      .def_static("from_tensor_slices", &td::Dataset::from_tensor_slices)
      .def_static("from_tensors", &td::Dataset::from_tensors)
      .def_static("range",
                  [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype) {
                    return td::Dataset::range(count_arg(start), count_arg(stop), count_arg(step),
                                              dtype_arg(dtype));
                  })
      .def_static("zip", &td::Dataset::zip)
      .def_static("from_variant", [](const tfs::Tensor& t) { return td::Dataset(t); })
      .def_static(
          "from_variant_specs",
          [](const tfs::Tensor& t, nb::list specs) { return td::Dataset(t, specs_arg(specs)); })
      .def(
          "map",
          [](const td::Dataset& d, const std::shared_ptr<tfs::ConcreteFunction>& cf,
             nb::handle parallel, const std::string& deterministic) {
            std::optional<tfs::Value> n;
            if (!parallel.is_none()) n = count_arg(parallel);
            return d.map(dataset_function(cf), n, deterministic);
          },
          nb::arg("f"), nb::arg("num_parallel_calls").none(), nb::arg("deterministic"))
      .def("filter",
           [](const td::Dataset& d, const std::shared_ptr<tfs::ConcreteFunction>& cf) {
             return d.filter(dataset_function(cf));
           })
      .def("flat_map",
           [](const td::Dataset& d, const std::shared_ptr<tfs::ConcreteFunction>& cf,
              nb::list specs) { return d.flat_map(dataset_function(cf), specs_arg(specs)); })
      .def("interleave",
           [](const td::Dataset& d, const std::shared_ptr<tfs::ConcreteFunction>& cf,
              nb::list specs, nb::handle cycle, nb::handle block) {
             return d.interleave(dataset_function(cf), specs_arg(specs), count_arg(cycle),
                                 count_arg(block));
           })
      .def("parallel_interleave",
           [](const td::Dataset& d, const std::shared_ptr<tfs::ConcreteFunction>& cf,
              nb::list specs, nb::handle cycle, nb::handle block, nb::handle parallel,
              const std::string& deterministic) {
             return d.parallel_interleave(dataset_function(cf), specs_arg(specs), count_arg(cycle),
                                          count_arg(block), count_arg(parallel), deterministic);
           })
      .def("scan",
           [](const td::Dataset& d, const std::vector<tfs::Tensor>& state,
              const std::shared_ptr<tfs::ConcreteFunction>& cf, bool use_default_device) {
             return d.scan(state, dataset_function(cf), use_default_device);
           })
      .def("take_while",
           [](const td::Dataset& d, const std::shared_ptr<tfs::ConcreteFunction>& cf) {
             return d.take_while(dataset_function(cf));
           })
      .def("graph_iterator", &td::Dataset::make_graph_iterator)
      .def_static("iterator_get_next",
                  [](const tfs::Tensor& it, nb::list specs) {
                    return td::Dataset::iterator_get_next(it, specs_arg(specs));
                  })
      .def("reduce",
           [](const td::Dataset& d, const std::vector<tfs::Tensor>& state,
              const std::shared_ptr<tfs::ConcreteFunction>& cf) {
             return d.reduce(state, dataset_function(cf));
           })
      .def("window",
           [](const td::Dataset& d, nb::handle size, nb::handle shift, nb::handle stride,
              bool drop) {
             return d.window(count_arg(size), count_arg(shift), count_arg(stride), drop);
           })
      .def_static("from_python",
                  [](nb::object make, nb::list spec_list) {
                    std::vector<tfs::TensorSpec> specs;
                    for (nb::handle s : spec_list) {
                      specs.emplace_back(shape_arg(s[0]), dtype_arg(s[1]));
                    }
                    // The callable may be released by whichever thread drops the dataset last.
                    std::shared_ptr<nb::object> fn(new nb::object(std::move(make)),
                                                   [](nb::object* o) {
                                                     nb::gil_scoped_acquire gil;
                                                     delete o;
                                                   });
                    return td::Dataset::from_source(
                        [fn]() -> std::unique_ptr<td::IteratorBase> {
                          nb::gil_scoped_acquire gil;
                          return std::make_unique<PythonSource>((*fn)());
                        },
                        specs);
                  })
      .def_static(
          "tfrecord",
          [](const tfs::Tensor& files, const std::string& compression, nb::handle buffer) {
            return td::Dataset::tfrecord(files, compression, to_value(buffer));
          },
          nb::arg("files"), nb::arg("compression"), nb::arg("buffer").none())
      .def_static(
          "text_line",
          [](const tfs::Tensor& files, const std::string& compression, nb::handle buffer) {
            return td::Dataset::text_line(files, compression, to_value(buffer));
          },
          nb::arg("files"), nb::arg("compression"), nb::arg("buffer").none())
      .def("batch", [](const td::Dataset& d, nb::handle n,
                       bool drop) { return d.batch(count_arg(n), drop); })
      .def("padded_batch",
           [](const td::Dataset& d, nb::handle n, const std::vector<tfs::Tensor>& shapes,
              const std::vector<tfs::Tensor>& values,
              bool drop) { return d.padded_batch(count_arg(n), shapes, values, drop); })
      .def("unbatch", &td::Dataset::unbatch)
      .def("shuffle",
           [](const td::Dataset& d, nb::handle n, int64_t seed, int64_t seed2, bool reshuffle) {
             return d.shuffle(count_arg(n), seed, seed2, reshuffle);
           })
      .def("repeat", [](const td::Dataset& d, nb::handle n) { return d.repeat(count_arg(n)); })
      .def("take", [](const td::Dataset& d, nb::handle n) { return d.take(count_arg(n)); })
      .def("skip", [](const td::Dataset& d, nb::handle n) { return d.skip(count_arg(n)); })
      .def("prefetch", [](const td::Dataset& d, nb::handle n) { return d.prefetch(count_arg(n)); })
      .def("cache", &td::Dataset::cache)
      .def("enumerate",
           [](const td::Dataset& d, nb::handle n) { return d.enumerate(count_arg(n)); })
      .def("with_options", [](const td::Dataset& d) { return d.with_options(""); })
      .def("cardinality", &td::Dataset::cardinality)
      .def("specs", [](const td::Dataset& d) { return specs_py(d.element_specs()); })
      .def_prop_ro("variant_tensor", &td::Dataset::variant_tensor)
      .def("iterator", [](const td::Dataset& d) { return d.make_iterator(); })
      .def_static("eager_iterator_next", &td::Dataset::eager_iterator_next)
      .def_static("iterator_get_next_as_optional",
                  [](const tfs::Tensor& it, nb::list specs) {
                    return td::Dataset::iterator_get_next_as_optional(it, specs_arg(specs));
                  })
      .def_static("optional_has_value", &td::Dataset::optional_has_value)
      .def_static("optional_get_value", [](const tfs::Tensor& opt, nb::list specs) {
        return td::Dataset::optional_get_value(opt, specs_arg(specs));
      });

  m.def("example_serialize", [](nb::list features) {
    std::string s = td::serialize_example(features_arg(features));
    return nb::bytes(s.data(), s.size());
  });
  m.def("example_parse", [](nb::bytes b) {
    return features_py(td::parse_example_proto(std::string(b.c_str(), b.size())));
  });
  // sparse: [(key, dtype)], dense: [(key, dtype, dims, default tensor or None)] -> ([(indices,
  // values, dense_shape)], [dense tensors]).
  m.def("parse_example", [](const tfs::Tensor& serialized, nb::list sparse, nb::list dense) {
    std::vector<td::SparseFeature> sf;
    for (nb::handle s : sparse) sf.push_back({nb::cast<std::string>(s[0]), dtype_arg(s[1])});
    std::vector<td::DenseFeature> df;
    for (nb::handle d : dense) {
      auto shape = shape_arg(d[2]).to_shape();
      if (!shape) throw nb::value_error("FixedLenFeature shapes must be fully defined");
      df.push_back({nb::cast<std::string>(d[0]), dtype_arg(d[1]), *shape,
                    d[3].is_none() ? tfs::Tensor() : nb::cast<tfs::Tensor>(d[3])});
    }
    td::ParsedExamples r = td::parse_examples(serialized, sf, df);
    nb::list sp;
    for (const auto& v : r.sparse) sp.append(nb::make_tuple(v.indices, v.values, v.dense_shape));
    nb::list dn;
    for (const auto& t : r.dense) dn.append(t);
    return nb::make_tuple(sp, dn);
  });

  nb::class_<td::TFRecordWriter>(m, "TFRecordWriterCore")
      .def("__init__",
           [](td::TFRecordWriter* self, const std::string& path, const std::string& compression) {
             new (self) td::TFRecordWriter(path, td::compression_from_name(compression));
           })
      .def("write", [](td::TFRecordWriter& w,
                       nb::bytes b) { w.write(std::string_view(b.c_str(), b.size())); })
      .def("flush", &td::TFRecordWriter::flush)
      .def("close", &td::TFRecordWriter::close);
}

}  // namespace tfpy
