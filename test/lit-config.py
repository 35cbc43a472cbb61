# lit configuration for Tessera: one suite over the test/ folders of every
# component, run from the build tree's generated lit.site.cfg.py.
import glob
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "Tessera"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py", ".test", ".ll"]
config.test_source_root = config.tessera_src_root
config.test_exec_root = os.path.join(config.tessera_obj_root, "test")

# Only the components' test folders hold lit tests; kernel files elsewhere
# (conformance/kernels, docs/) are not tests.
config.excludes = [
    "Inputs", "build", "build-sanitize", ".git", ".conformance-gpu", ".devdeps",
    ".whl", ".gl", ".venv", ".realworld", "python", "docs", "scripts", "bench",
    "expectations",
    "cmake", "include", "lib", "tools", "unittests", "kernels", "CMakeLists.txt",
    "lit-config.py", "lit.site.cfg.py.in", "README.md", "__pycache__",
    # Inputs of the fuzz targets (fuzz/test replays them).
    "regressions", "corpus",
]
# Every build tree in the source tree (build/, build-sanitize/, a second
# configuration such as build-cp312/) holds a lit.site.cfg.py that would be
# taken for another copy of the suite.
config.excludes += [
    entry for entry in os.listdir(config.tessera_src_root)
    if entry.startswith("build") and
    os.path.isdir(os.path.join(config.tessera_src_root, entry))
]

llvm_config.use_default_substitutions()
llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tessera_tools_dir, append_path=True)
config.substitutions.append(("%tessera_src", config.tessera_src_root))
config.substitutions.append(("%tessera_obj", config.tessera_obj_root))
# Where LLVM's and MLIR's shared libraries are: what a host running the
# relocatable bundle puts on its library path.
config.substitutions.append(
    ("%llvm_libdir", os.path.normpath(os.path.join(config.llvm_tools_dir, "..", "lib"))))
config.substitutions.append(("%PYTHON", "python3"))
# Plugins of this build, and the host's deliberately broken test plugins.
config.substitutions.append(("%tessera_plugin_dir", os.path.join(
    config.tessera_obj_root, "lib", "tessera", "plugins")))
config.substitutions.append(("%tessera_plugin_fixtures", os.path.join(
    config.tessera_obj_root, "plugins", "test", "fixtures")))

tools = ["tessera-opt", "tessera", "tessera-plugin-check", "FileCheck", "not", "count"]
llvm_config.add_tool_substitutions(
    [t for t in tools if shutil.which(t, path=config.tessera_tools_dir) or t in ("FileCheck", "not", "count")],
    [config.tessera_tools_dir, config.llvm_tools_dir])

# Which plugins this build has (found, never listed here), so that tests of
# a backend run exactly where its plugin was built: feature plugin-NAME.
plugin_dir = os.path.join(config.tessera_obj_root, "lib", "tessera", "plugins")
for path in glob.glob(os.path.join(plugin_dir, "tessera-plugin-*.so")):
    name = os.path.basename(path)[len("tessera-plugin-"):-len(".so")]
    config.available_features.add("plugin-" + name)

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
