# Writes OUTPUT (a C++ fragment) with the git revision of SOURCE_DIR, at
# build time, so `--version` names the commit a binary was built from.
# configure_file leaves OUTPUT untouched when the text is unchanged, so only
# support/Version.cpp recompiles, and only when the revision changes.
set(WAVEASM_GIT_REVISION "unknown")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(
    COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
    OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE status ERROR_QUIET)
  if(status EQUAL 0 AND revision)
    set(WAVEASM_GIT_REVISION "${revision}")
    # Uncommitted changes to tracked files: the binary is not that commit.
    execute_process(
      COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" diff --quiet HEAD --
      RESULT_VARIABLE dirty ERROR_QUIET)
    if(NOT dirty EQUAL 0)
      string(APPEND WAVEASM_GIT_REVISION "-dirty")
    endif()
  endif()
endif()
configure_file("${SOURCE_DIR}/support/GitRevision.inc.in" "${OUTPUT}" @ONLY)
