"""Type stub of tessera._C, the nanobind binding over Tessera's C++ runtime.

This is the contract between the binding (python/src/) and the pure-Python
layers (tessera/, tessera/triton/). The binding keeps it true to the code.
"""
from typing import Any, Callable, Mapping, Optional, Sequence

__version__: str
#: The Triton language version Tessera implements ("3.6.0").
triton_version: str


class TesseraError(RuntimeError):
    """A compile or launch error; str() is the compiler's text (file:line:col,
    source line, caret)."""


def plugins(plugin_paths: Sequence[str] = ()) -> list[dict[str, Any]]:
    """What `tessera plugins` prints: for each plugin its name, version, path,
    architectures, devices (or why it has none) and capabilities."""


def language_names() -> list[str]:
    """Every qualified name the frontend knows in device code
    (triton.language.*, dtypes, triton.language.extra.libdevice.*)."""


class Session:
    """A runtime session over one backend and device (Runtime.h)."""

    def __init__(self, backend: str = "", device: Optional[int] = None,
                 arch: str = "", plugin_paths: Sequence[str] = (),
                 cache_dir: Optional[str] = None,
                 disable_cache: Optional[bool] = None) -> None: ...
    backend: str          # the plugin's name ("cpu", "nvptx", ...)
    arch: str             # the architecture compiled for ("sm_90a", "x86-64")
    warp_size: int
    device_name: str
    def device_properties(self) -> dict[str, Any]: ...  # Triton's names
    def synchronize(self) -> None: ...


class CompiledKernel:
    """What a launch or warmup compiled: Triton's CompiledKernel handle."""
    name: str
    n_regs: int
    n_spills: int
    shared: int
    num_warps: int
    num_stages: int
    metadata: dict[str, Any]
    asm: Mapping[str, str]    # "tessera", "tessera-gpu", "llvm", "asm", "bin"


class Kernel:
    """One plain @jit function of a program (docs/embedding.md), without
    autotune or heuristics: binding, specialization, the in-memory dispatch
    table, compile and launch (runtime/JitKernel.h)."""

    def __init__(self, session: Session, program: str, unit: str) -> None: ...
    name: str
    #: name, is_constexpr, do_not_specialize, has_default per parameter
    params: list[dict[str, Any]]
    source_hash: str

    def launch(self, grid: Any, args: tuple, kwargs: dict[str, Any],
               num_warps: Optional[int] = None,
               num_stages: Optional[int] = None,
               num_ctas: Optional[int] = None,
               maxnreg: Optional[int] = None) -> CompiledKernel:
        """grid: a tuple of 1-3 ints or a callable taking the dict of bound
        arguments (META). Arguments: objects with data_ptr() and dtype
        (torch tensors), NumPy arrays, TensorDescriptor-like objects, int,
        float, bool, None, str and dtypes for constexprs."""

    def warmup(self, args: tuple, kwargs: dict[str, Any],
               num_warps: Optional[int] = None,
               num_stages: Optional[int] = None,
               num_ctas: Optional[int] = None,
               maxnreg: Optional[int] = None) -> CompiledKernel: ...


class TuningRecords:
    """The runtime's autotuning memory (Autotuner.h, TuningStore.h) for one
    kernel and config list: in process and on disk."""

    def __init__(self, session: Session, kernel: Kernel,
                 configs: Sequence[str]) -> None: ...
    def recall(self, key: str) -> Optional[int]: ...
    def select(self, key: str, allowed: Sequence[int],
               measure: Callable[[int], float]) -> int: ...


def do_bench(fn: Callable[[], Any], warmup: float = 25, rep: float = 100,
             quantiles: Optional[Sequence[float]] = None,
             return_mode: str = "mean",
             session: Optional[Session] = None) -> Any: ...
