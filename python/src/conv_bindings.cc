// The convolution and pooling functions of the Python API (tfscope/ops_conv.h). The Python
// layer (tfscope/_nn_conv.py) expands strides, ksize, dilations and padding to TF's attr lists.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/ops_conv.h"

namespace tfpy {

namespace {

using Ints = std::vector<int64_t>;

tfs::ConvAttrs conv_attrs(const Ints& strides, const std::string& padding,
                          const Ints& explicit_paddings, const Ints& dilations) {
  return tfs::ConvAttrs{strides, padding, explicit_paddings, dilations};
}

}  // namespace

void bind_conv(nb::module_& m) {
  m.def("conv2d",
        [](nb::handle x, nb::handle f, const Ints& strides, const std::string& padding,
           const Ints& explicit_paddings, const Ints& dilations, const std::string& name) {
          tfs::EagerErrorName n(eager_error_name(x, f));
          return tfs::conv2d(operand(x), operand(f),
                             conv_attrs(strides, padding, explicit_paddings, dilations), name);
        });
  m.def("conv1d", [](nb::handle x, nb::handle f, const Ints& strides, const std::string& padding,
                     const Ints& dilations) {
    return tfs::conv1d(operand(x), operand(f), conv_attrs(strides, padding, {}, dilations));
  });
  m.def("depthwise_conv2d",
        [](nb::handle x, nb::handle f, const Ints& strides, const std::string& padding,
           const Ints& explicit_paddings, const Ints& dilations) {
          return tfs::depthwise_conv2d(operand(x), operand(f),
                                       conv_attrs(strides, padding, explicit_paddings, dilations));
        });
  m.def("conv2d_transpose",
        [](nb::handle x, nb::handle f, nb::handle output_shape, const Ints& strides,
           const std::string& padding, const Ints& explicit_paddings, const Ints& dilations) {
          tfs::EagerErrorName n{std::string()};  // TF's wrapper goes through its eager fallback
          return tfs::conv2d_transpose(operand(x), operand(f), operand(output_shape),
                                       conv_attrs(strides, padding, explicit_paddings, dilations));
        });
  m.def("max_pool2d",
        [](nb::handle x, const Ints& ksize, const Ints& strides, const std::string& padding,
           const Ints& explicit_paddings, const std::string& name) {
          tfs::EagerErrorName n(eager_error_name(x));
          return tfs::max_pool2d(operand(x), ksize, strides, padding, explicit_paddings, name);
        });
  m.def("avg_pool2d", [](nb::handle x, const Ints& ksize, const Ints& strides,
                         const std::string& padding, const std::string& name) {
    tfs::EagerErrorName n(eager_error_name(x));
    return tfs::avg_pool2d(operand(x), ksize, strides, padding, name);
  });
}

}  // namespace tfpy
