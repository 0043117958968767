//===- TestPaths.cpp - Where the unit tests find their input files --------===//

#include "TestPaths.h"

namespace waveasm::test {

const char *examplesDir() { return WAVEASM_TEST_EXAMPLES_DIR; }
const char *sharedExamplesDir() { return WAVEASM_TEST_SHARED_EXAMPLES_DIR; }
const char *fakeLlmServerScript() { return WAVEASM_TEST_FAKE_LLM_SERVER; }

} // namespace waveasm::test
