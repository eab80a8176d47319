// The Python that has the tfscope package, for the commands that run Python (`tfscope watch`, the
// demo's bert section, whose model is defined once, in the package).
#pragma once

#include <string>
#include <vector>

namespace tfscope_cli {

// $TFSCOPE_PYTHON when set (it must be executable); else, when this binary is the one the wheel
// carries (<prefix>/lib/pythonX.Y/site-packages/tfscope/_bin/tfscope), that prefix's bin/python3;
// else the first python3 or python on PATH that has the package; else, with `source_venv` (the
// demo, whose build/tfscope `make demo` runs right after installing the package there), the .venv
// of the source tree this binary was built from. Throws a one-line runtime_error when there is
// none.
std::string find_tfscope_python(bool source_venv = false);

// Runs `python args...` with its stdout captured (stderr passes through); returns the exit
// status (-1 when it did not exit normally).
int run_python_capture(const std::string& python, const std::vector<std::string>& args,
                       std::string* out);

}  // namespace tfscope_cli
