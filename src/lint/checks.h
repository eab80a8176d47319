// The rule families. Each walks the module model and adds findings through a Report.
#pragma once

#include <string>
#include <vector>

#include "model.h"
#include "tfscope/lint.h"

namespace tfs::lint::detail {

class Report {
 public:
  Report(const Module& m, const Options& o, std::vector<Finding>& out)
      : module(m), options(o), out_(out) {}
  const Module& module;
  const Options& options;

  // A finding at `at` (its line and column), about the tf.function `about` (may be null).
  void add(const Node* at, const char* code, std::string message, const FnInfo* about = nullptr);

 private:
  std::vector<Finding>& out_;
};

// "tf.function `step`" or "`helper` (traced by tf.function `step`)"
std::string traced_name(const FnInfo& f);

void check_retracing(Report& r);     // TFS1xx
void check_side_effects(Report& r);  // TFS2xx
void check_state(Report& r);         // TFS3xx
void check_autograph(Report& r);     // TFS4xx
void check_export(Report& r);        // TFS5xx

}  // namespace tfs::lint::detail
