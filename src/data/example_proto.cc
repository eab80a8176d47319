// tf.train.Example bytes <-> features (the protos in proto/, TF's field numbers). Needs only
// the core layer, so that the fuzz target can take it alone.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>

#include "tfscope/errors.h"
#include "tfscope/example.h"
#include "tfscope/proto/example.pb.h"

namespace tfs::data {
namespace {

using Kind = FeatureValue::Kind;

FeatureValue from_proto(const tensorflow::Feature& f) {
  FeatureValue v;
  switch (f.kind_case()) {
    case tensorflow::Feature::kBytesList:
      v.kind = Kind::kBytes;
      v.bytes.assign(f.bytes_list().value().begin(), f.bytes_list().value().end());
      break;
    case tensorflow::Feature::kFloatList:
      v.kind = Kind::kFloat;
      v.floats.assign(f.float_list().value().begin(), f.float_list().value().end());
      break;
    case tensorflow::Feature::kInt64List:
      v.kind = Kind::kInt64;
      v.ints.assign(f.int64_list().value().begin(), f.int64_list().value().end());
      break;
    default:
      break;
  }
  return v;
}

}  // namespace

std::string serialize_example(const Features& features) {
  tensorflow::Example ex;
  auto& map = *ex.mutable_features()->mutable_feature();
  for (const auto& [key, v] : features) {
    tensorflow::Feature& f = map[key];
    switch (v.kind) {
      case Kind::kBytes:
        f.mutable_bytes_list();  // an empty list is still the feature's kind
        for (const auto& s : v.bytes) f.mutable_bytes_list()->add_value(s);
        break;
      case Kind::kFloat:
        f.mutable_float_list()->mutable_value()->Add(v.floats.begin(), v.floats.end());
        break;
      case Kind::kInt64:
        f.mutable_int64_list()->mutable_value()->Add(v.ints.begin(), v.ints.end());
        break;
      default:
        break;
    }
  }
  std::string out;
  {
    // Map entries in key order, as TF's Python (upb) writes them.
    google::protobuf::io::StringOutputStream raw(&out);
    google::protobuf::io::CodedOutputStream coded(&raw);
    coded.SetSerializationDeterministic(true);
    ex.SerializeToCodedStream(&coded);
  }
  return out;
}

Features parse_example_proto(const std::string& bytes) {
  tensorflow::Example ex;
  if (!ex.ParseFromString(bytes)) {
    invalid_argument("Could not parse example input, value: '" + bytes + "'");
  }
  Features out;
  for (const auto& [k, f] : ex.features().feature()) out.emplace_back(k, from_proto(f));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace tfs::data
