# lit configuration for ptx2amd's FileCheck tests (tests/lit/<stage>/*.ptx|*.ll).
import os
import lit.formats

config.name = "ptx2amd"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ptx", ".ll", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptx2amd_obj_root, "tests", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.ptx2amd_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("%ptx2amd", os.path.join(config.ptx2amd_tools_dir, "ptx2amd")))
config.substitutions.append(("%FileCheck", os.path.join(config.llvm_tools_dir, "FileCheck")))
