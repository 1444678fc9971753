# Install: the CMake package (find_package(nsdyn)) and a pkg-config file for the C library.
include(CMakePackageConfigHelpers)

set(NSDYN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/nsdyn)
install(EXPORT nsdynTargets NAMESPACE nsdyn:: DESTINATION ${NSDYN_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/nsdynConfig.cmake.in
  ${PROJECT_BINARY_DIR}/nsdynConfig.cmake INSTALL_DESTINATION ${NSDYN_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/nsdynConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/nsdynConfig.cmake ${PROJECT_BINARY_DIR}/nsdynConfigVersion.cmake
        DESTINATION ${NSDYN_CMAKE_DIR})

# pkg-config: nsdyn-numerics.pc (the library links its dependencies privately).
# The prefix is found relative to the .pc file, so `cmake --install --prefix X` works.
file(RELATIVE_PATH NSDYN_PC_UP "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
set(NSDYN_PC_PREFIX "\${pcfiledir}/${NSDYN_PC_UP}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/nsdyn-numerics.pc.in
               ${PROJECT_BINARY_DIR}/nsdyn-numerics.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/nsdyn-numerics.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
