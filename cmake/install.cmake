# Install and export rules. tfscope::tfscope is every layer (static libraries) with the include
# directory; the generated headers the public headers include (tfscope/proto/*.pb.h,
# tfscope/lite/tflite_schema_generated.h) are installed beside them.
include(CMakePackageConfigHelpers)

set(TFSCOPE_INSTALL_LIBS tfscope_core tfscope_ops tfscope_graph tfscope_function
    tfscope_autograph tfscope_proto tfscope_savedmodel_io tfscope_savedmodel
    tfscope_lite_format tfscope_lite_runtime tfscope_lite)
set(TFSCOPE_INSTALLED)
foreach(lib IN LISTS TFSCOPE_INSTALL_LIBS)
  if(TARGET ${lib})
    list(APPEND TFSCOPE_INSTALLED ${lib})
  endif()
endforeach()

# The executable already owns the name "tfscope"; the umbrella target exports under it.
add_library(tfscope_all INTERFACE)
target_link_libraries(tfscope_all INTERFACE ${TFSCOPE_INSTALLED})
set_target_properties(tfscope_all PROPERTIES EXPORT_NAME tfscope)
target_compile_features(tfscope_all INTERFACE cxx_std_20)
add_library(tfscope::tfscope ALIAS tfscope_all)

set(TFSCOPE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tfscope)
install(TARGETS ${TFSCOPE_INSTALLED} tfscope_all EXPORT tfscopeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/tfscope DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET tfscope_proto)
  install(DIRECTORY ${PROJECT_BINARY_DIR}/src/savedmodel/proto/tfscope/proto
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tfscope FILES_MATCHING PATTERN "*.pb.h")
endif()
if(TARGET tfscope_lite_format)
  install(FILES ${PROJECT_BINARY_DIR}/src/lite/generated/tfscope/lite/tflite_schema_generated.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tfscope/lite)
endif()
if(TARGET tfscope)
  install(TARGETS tfscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT tfscopeTargets NAMESPACE tfscope:: DESTINATION ${TFSCOPE_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/tfscopeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/tfscopeConfig.cmake
                              INSTALL_DESTINATION ${TFSCOPE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tfscopeConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tfscopeConfig.cmake
              ${PROJECT_BINARY_DIR}/tfscopeConfigVersion.cmake
        DESTINATION ${TFSCOPE_CMAKE_DIR})
