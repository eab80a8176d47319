// TF 2.21's OpDef table (src/ops/tf_op_defs.inc): it covers the registry, tfscope never accepts
// a dtype TF's OpDef rejects, and a dtype TF rejects gets TF's texts (recorded from TF 2.21).
#include "tf_op_defs.h"

#include <gtest/gtest.h>

#include "op_test_util.h"

namespace tfs::testing {
namespace {

TEST(TfOpDefs, EveryRestrictedTypeAttrOfTheRegistryIsInTheTableWithinTFsList) {
  for (const std::string& name : OpRegistry::global().names()) {
    const OpDef& def = OpRegistry::global().get(name);
    for (const TypeAttrDef& t : def.type_attrs) {
      if (t.allowed.empty() || name.starts_with("_")) continue;
      const detail::TfOpDef* tf = detail::tf_op_def(name);
      ASSERT_NE(tf, nullptr) << name << ": not in tf_op_defs.inc (rerun scripts/gen_tf_op_defs.py)";
      const char* allowed = detail::tf_allowed_dtypes(*tf, t.name);
      if (!allowed) continue;  // TF takes any dtype there
      for (DType d : t.allowed) {
        EXPECT_TRUE(detail::dtype_in_list(dtype_tf_string(d), allowed))
            << name << "." << t.name << ": tfscope takes " << dtype_tf_string(d)
            << ", TF's OpDef allows only " << allowed;
      }
    }
  }
}

TEST(TfOpDefs, ListsAreLookedUpByName) {
  EXPECT_TRUE(detail::dtype_in_list("int32", "float, int32"));
  EXPECT_FALSE(detail::dtype_in_list("int3", "float, int32"));
  EXPECT_FALSE(detail::dtype_in_list("float", ""));
  EXPECT_EQ(detail::python_dtype_list("bfloat16, half, float, double, complex64"),
            "bfloat16, float16, float32, float64, complex64");
  EXPECT_EQ(detail::tf_op_def("NoSuchOp"), nullptr);
}

TEST(TfOpDefs, ADtypeTFRejectsGetsTFsEagerText) {
  // TF 2.21: tf.math.sqrt(tf.constant([1, 2])).
  EXPECT_EQ(error_of([] { run1("Sqrt", {i32({1, 2})}); }, ErrorKind::kInvalidArgument),
            "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, "
            "float, double, complex64, complex128\n\t; NodeDef: {{node Sqrt}}; Op<name=Sqrt; "
            "signature=x:T -> y:T; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, "
            "DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128]> [Op:Sqrt] name: ");
  // TF 2.21: tf.reduce_sum(tf.constant(["a"])) (an OpDef with a bool attr and a second type).
  EXPECT_EQ(
      error_of([] { run1("Sum", {Tensor::string_scalar("a"), i32({0})}, {{"keep_dims", false}}); },
               ErrorKind::kInvalidArgument),
      "Value for attr 'T' of string is not in the list of allowed values: float, double, int32, "
      "uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, "
      "uint16, complex128, half, uint32, uint64\n\t; NodeDef: {{node Sum}}; Op<name=Sum; "
      "signature=input:T, reduction_indices:Tidx -> output:T; attr=keep_dims:bool,default=false; "
      "attr=T:type,allowed=[DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, "
      "DT_COMPLEX64, DT_INT64, DT_QINT8, DT_QUINT8, DT_QINT32, DT_BFLOAT16, DT_QINT16, "
      "DT_QUINT16, DT_UINT16, DT_COMPLEX128, DT_HALF, DT_UINT32, DT_UINT64]; "
      "attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]> [Op:Sum] name: ");
}

TEST(TfOpDefs, ADtypeTFRejectsGetsTFsTraceTimeText) {
  // TF 2.21, in a tf.function: tf.math.sqrt(tf.constant([1, 2])).
  std::vector<DType> in{DType::kInt32};
  AttrMap attrs;
  try {
    resolve_output_dtypes(OpRegistry::global().get("Sqrt"), in, attrs, /*eager=*/false);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "Value passed to parameter 'x' has DataType int32 not in list of allowed values: "
              "bfloat16, float16, float32, float64, complex64, complex128");
  }
}

}  // namespace
}  // namespace tfs::testing
