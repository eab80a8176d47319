// Python objects that define their own TraceType (__tf_tracing_type__), for convert.cc.
#pragma once

#include "convert.h"

namespace tfpy {

// Whether `h`'s class defines __tf_tracing_type__ (plain lists, tuples, dicts and classes never).
bool has_tracing_protocol(nb::handle h);
// `h` as a Value that traces as the TraceType its __tf_tracing_type__ returns (TF's texts when
// that is not a tf.types.experimental.TraceType).
tfs::Value traced_value(nb::handle h);
// `h` held as it is (from_value gives this object back), tracing as its own type when it has one.
tfs::Value held_value(nb::handle h);
// The Python object a held Value holds.
bool held_object(const tfs::Value& v, nb::object* out);
// The Python TraceType of a custom trace type made here, else None.
nb::object trace_type_object(const tfs::TraceType& t);

}  // namespace tfpy
