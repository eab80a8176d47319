// tfscope.profile's per-op events (tfscope/op_profile.h).
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/op_profile.h"

namespace tfpy {

void bind_profile(nb::module_& m) {
  nb::class_<tfs::OpProfile>(m, "OpProfile")
      .def(nb::init<>())
      .def("start", &tfs::OpProfile::start)
      .def("stop", &tfs::OpProfile::stop)
      .def_prop_ro("recording", &tfs::OpProfile::recording)
      .def(
          "events",
          [](const tfs::OpProfile& p) {
            // (node, op, function, depth, thread, start_ns, dur_ns) per executed op
            nb::list out;
            for (const tfs::OpEvent& e : p.events())
              out.append(nb::make_tuple(e.node, e.op, e.function, e.depth, e.thread, e.start_ns,
                                        e.dur_ns));
            return out;
          },
          "The executed ops as (node, op, function, depth, thread, start_ns, dur_ns) tuples.");
}

}  // namespace tfpy
