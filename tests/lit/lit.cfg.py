# lit configuration for the WaveASM test suite.
import os

import lit.formats

config.name = "WaveASM"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.waveasm_obj_root, "tests", "lit")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

# Tools: ours first, then LLVM's FileCheck/not/llvm-mc.
path = os.pathsep.join([config.waveasm_tools_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path

config.substitutions.append(("%src_root", config.waveasm_src_root))
config.substitutions.append(("%examples", os.path.join(config.waveasm_src_root, "examples")))

# Tests that read ../shared (the upstream spec's examples) run only where it
# exists: a user's clone has only the project.
if os.path.isdir(config.waveasm_shared_dir):
    config.available_features.add("shared")
    config.substitutions.append(("%shared", config.waveasm_shared_dir))
