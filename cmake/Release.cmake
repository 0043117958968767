# The release build (-DWAVEASM_RELEASE=ON, preset `release`): what the
# Debian package and the platform VS Code package ship. -O2 with assertions
# off, no build paths in the binaries (a build's directory must not change
# what it ships), and optionally LTO. The test
# build (the default, preset `test`) keeps CMake's -O3 with assertions on:
# the tests prove that malformed input gets a diagnostic, not an abort.
option(WAVEASM_RELEASE "Release build: -O2, assertions off, no build paths" OFF)
# GCC's LTO objects are GIMPLE that lld cannot read: LTO links with the
# compiler's default linker (bfd) through the GCC plugin instead.
option(WAVEASM_LTO "Link-time optimization of the project's own code" OFF)

if(WAVEASM_RELEASE)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "" FORCE)
  set(WAVEASM_ENABLE_ASSERTIONS OFF CACHE BOOL "Keep assert() enabled" FORCE)
  foreach(lang CXX C)
    set(CMAKE_${lang}_FLAGS_RELEASE "-O2 -DNDEBUG")
  endforeach()
  # __FILE__ (llvm_unreachable, report_fatal_error) and debug paths refer to
  # the tree as `.`; the binary tree's generated files as `build`.
  add_compile_options(-ffile-prefix-map=${PROJECT_SOURCE_DIR}/=
                      -ffile-prefix-map=${PROJECT_BINARY_DIR}/=build/)
endif()

if(WAVEASM_LTO)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "WAVEASM_LTO: only GCC's -flto=auto is set up")
  endif()
  add_compile_options(-flto=auto -fno-fat-lto-objects)
  add_link_options(-flto=auto)
  # gcc-ar/gcc-ranlib: static libraries of GIMPLE objects need the plugin's
  # symbol table.
  set(CMAKE_AR ${CMAKE_CXX_COMPILER_AR} CACHE FILEPATH "" FORCE)
  set(CMAKE_RANLIB ${CMAKE_CXX_COMPILER_RANLIB} CACHE FILEPATH "" FORCE)
endif()
