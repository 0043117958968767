# `cmake --install` and the Debian package (CPack): the four tools, their
# man pages (help2man from each tool's --help and --version), the Neovim
# plugin where Neovim finds packages under the prefix, the Emacs file in
# site-lisp, and the documentation.
include(GNUInstallDirs)

set(WAVEASM_INSTALLED_TOOLS waveasm-lsp waveasm-opt waveasm-conductor waveasm-sim)
install(TARGETS ${WAVEASM_INSTALLED_TOOLS}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)

# Neovim's default 'packpath' holds <prefix>/share/nvim/site, so a plugin in
# its pack/*/start/ loads without any runtimepath setup.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/editors/neovim/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/nvim/site/pack/waveasm/start/waveasm
  COMPONENT tools)
install(FILES ${PROJECT_SOURCE_DIR}/editors/emacs/waveasm.el
  DESTINATION ${CMAKE_INSTALL_DATADIR}/emacs/site-lisp COMPONENT tools)
install(FILES ${PROJECT_SOURCE_DIR}/README.md
  ${PROJECT_SOURCE_DIR}/ARCHITECTURE.md
  # Debian names the documentation directory after the package.
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/waveasm-conductor COMPONENT tools)

# Man pages: built with the tools when help2man is present (the package
# needs them; a developer build without help2man just has none).
find_program(HELP2MAN_PROGRAM help2man)
find_program(GZIP_PROGRAM gzip)
if(HELP2MAN_PROGRAM AND GZIP_PROGRAM)
  set(man_names
    "waveasm-lsp|WaveASM language server and headless check"
    "waveasm-opt|WaveASM optimizer driver (mlir-opt for WaveASM)"
    "waveasm-conductor|schedule the innermost loop of a WaveASM kernel"
    "waveasm-sim|run WaveASM programs and compare them by execution")
  set(man_pages)
  foreach(entry ${man_names})
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 tool)
    list(GET parts 1 description)
    set(page ${PROJECT_BINARY_DIR}/man/${tool}.1.gz)
    add_custom_command(OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      COMMAND ${HELP2MAN_PROGRAM} --no-info --no-discard-stderr
        --name=${description} --output=${PROJECT_BINARY_DIR}/man/${tool}.1
        $<TARGET_FILE:${tool}>
      # -n: no name or time stamp, so the page is reproducible.
      COMMAND ${GZIP_PROGRAM} -9nf ${PROJECT_BINARY_DIR}/man/${tool}.1
      DEPENDS ${tool}
      COMMENT "Man page of ${tool}"
      VERBATIM)
    list(APPEND man_pages ${page})
  endforeach()
  add_custom_target(waveasm-man-pages ALL DEPENDS ${man_pages})
  install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
    COMPONENT tools)
else()
  message(STATUS "help2man or gzip not found: no man pages")
endif()

# The Debian package: waveasm-conductor_<version>_amd64.deb. The tools link
# LLVM/MLIR statically; dpkg-shlibdeps derives the shared libraries they do
# need (libcurl, libuv, the C and C++ runtimes) into Depends.
set(CPACK_PACKAGE_NAME waveasm-conductor)
set(CPACK_PACKAGE_VENDOR "Conductor")
set(CPACK_PACKAGE_CONTACT "Conductor developers <conductor@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "WaveASM language server, optimizer, scheduler and simulator")
set(CPACK_PACKAGE_DESCRIPTION
  "Tools for the instruction-level MLIR IR of the Wave DSL's AMDGCN backend: \
waveasm-lsp (language server and headless check for CI), waveasm-opt, \
waveasm-conductor and waveasm-sim, with the Neovim plugin and the Emacs mode.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY ${CPACK_PACKAGE_NAME})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "neovim, elpa-eglot")
# Only the tools component: tests and benchmarks are not installed anyway.
set(CPACK_COMPONENTS_ALL tools)
set(CPACK_DEB_COMPONENT_INSTALL OFF)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
include(CPack)
