// AutoGraph source conversion: what TensorFlow 2.21's `tf.autograph.to_code(f)` prints for a
// Python function, computed in C++ from the function's source text, plus a unified diff.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tfs::autograph {

// Bad input (function not found, syntax error) or a construct AutoGraph rejects. what() is one
// line. For bad input it starts with "[autograph] "; for rejected constructs it is TF's own
// message and tf_type() names TF's exception class (e.g. "UnsupportedLanguageElementError").
class ConversionError : public std::runtime_error {
 public:
  explicit ConversionError(const std::string& message, std::string tf_type = "")
      : std::runtime_error(message), tf_type_(std::move(tf_type)) {}
  const std::string& tf_type() const { return tf_type_; }

 private:
  std::string tf_type_;
};

struct ConversionResult {
  std::string function_name;
  std::string original;   // the function's source, dedented (as inspect.getsource + dedent)
  std::string converted;  // exactly what tf.autograph.to_code prints, ending in one '\n'
  std::string diff;       // unified diff original -> converted (difflib.unified_diff format)
  // For each line of `converted`, the line of the source text it comes from (1-based, 0 when
  // none): TF's source map, which reports errors in converted code at the user's lines.
  std::vector<int> line_origins;
  int if_stmts = 0;  // control-flow statements turned into ag__.if_stmt/while_stmt/for_stmt
  int while_stmts = 0;
  int for_stmts = 0;
  int converted_lines() const;
};

// Converts the top-level function `function_name` defined in `source` (a whole module's text).
// `filename` only labels the diff and error messages.
ConversionResult convert_source(std::string_view source, std::string_view function_name,
                                std::string_view filename = "<source>");

// The same, with the module's global names given (TF's namer avoids the names in the live
// fn.__globals__): used by the Python runtime, which converts a function's own source text.
ConversionResult convert_source(std::string_view source, std::string_view function_name,
                                std::string_view filename,
                                const std::vector<std::string>& global_names);

// Converts the lambda that starts on `line` (1-based) of `source` and has exactly the parameters
// `param_names`, which is how TF identifies a lambda entity. `converted` is what to_code prints:
// `tf__lam = lambda x: ag__.with_function_scope(lambda lscope: ..., 'lscope', ...)`.
ConversionResult convert_lambda_source(std::string_view source, int line,
                                       const std::vector<std::string>& param_names,
                                       std::string_view filename,
                                       const std::vector<std::string>& global_names);

// Reads `path` and converts `function_name` defined in it.
ConversionResult convert_file(const std::string& path, std::string_view function_name);

// Unified diff of two texts, as Python's difflib.unified_diff(a.splitlines(keepends=True), ...)
// joined: "--- from\n+++ to\n@@ -l,n +l,n @@\n..." with `context` lines around changes.
// Empty when the texts are equal.
std::string unified_diff(std::string_view a, std::string_view b, std::string_view from_label,
                         std::string_view to_label, int context = 3);

}  // namespace tfs::autograph
