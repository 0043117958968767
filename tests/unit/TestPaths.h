//===- TestPaths.h - Where the unit tests find their input files ----------===//
//
// The directories are compiled into TestPaths.cpp alone: a define with an
// absolute path on every test file would make each worktree's build miss
// the compiler cache for all of them.
//
//===----------------------------------------------------------------------===//

#ifndef WAVEASM_TESTS_UNIT_TESTPATHS_H
#define WAVEASM_TESTS_UNIT_TESTPATHS_H

namespace waveasm::test {

/// The repository's examples/ directory.
const char *examplesDir();
/// ../shared/waveasm/examples next to the repository (may not exist).
const char *sharedExamplesDir();
/// tests/fake_llm/fake_llm_server.py.
const char *fakeLlmServerScript();

} // namespace waveasm::test

#endif // WAVEASM_TESTS_UNIT_TESTPATHS_H
