# The nanobind module's sources and the layers it links: one list for the module (python/) and
# for the fuzzer that embeds it (fuzz/fuzz_python_values).
set(TFSCOPE_BINDING_SOURCES
  src/module.cc
  src/convert.cc
  src/tensor_bindings.cc
  src/function_bindings.cc
  src/autograph_bindings.cc
  src/savedmodel_bindings.cc
  src/lite_bindings.cc
  src/lint_bindings.cc
  src/data_bindings.cc
  src/stats_bindings.cc
  src/conv_bindings.cc
  src/index_bindings.cc
  src/hlo_bindings.cc
  src/op_bindings.cc
  src/tape_bindings.cc
  src/graphdef_bindings.cc
  src/graph_text.cc
  src/trace_type_bindings.cc
  src/profile_bindings.cc
  src/watch_bindings.cc
)
list(TRANSFORM TFSCOPE_BINDING_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
set(TFSCOPE_BINDING_LIBS tfscope_function tfscope_autograph tfscope_savedmodel tfscope_lite
    tfscope_lint tfscope_data tfscope_hlo tfscope_autodiff)
# The lite interpreter's set_tensor / get_tensor use NumPy's C API (python/src/lite_bindings.cc).
execute_process(
  COMMAND "${Python_EXECUTABLE}" -c "import numpy; print(numpy.get_include())"
  OUTPUT_STRIP_TRAILING_WHITESPACE OUTPUT_VARIABLE TFSCOPE_NUMPY_INCLUDE RESULT_VARIABLE np_rc)
if(np_rc)
  message(FATAL_ERROR "tfscope's Python module builds against NumPy's headers: "
                      "install numpy for ${Python_EXECUTABLE}")
endif()
