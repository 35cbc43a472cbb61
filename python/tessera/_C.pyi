"""Type stub of tessera._C, the nanobind binding over Tessera's C++ runtime.

This is the contract between the binding (python/src/) and the pure-Python
layers (tessera/, tessera/triton/). The binding keeps it true to the code.

Launch values (Kernel.launch, Kernel.warmup) are converted in C++ in one
pass, as Triton's launcher reads them:

    None, bool, int, float, str     None, i1, i32/i64, fp32, a str constexpr
    x.data_ptr() and x.dtype        a pointer to x.dtype's elements: torch
                                    tensors (x.device must be the session's:
                                    "cpu" on the cpu backend, "cuda:<device>"
                                    on GPU backends), or any such object
    the buffer protocol, else       a pointer into host memory (NumPy arrays;
    __array_interface__             cpu backend only)
    __tessera_dtype__ = "fp16"      a dtype constexpr: the Python layer's dtype
                                    objects (tl.float16) carry the Triton type
                                    name (fp16, bf16, fp32, i32, fp8e4nv, ...)
    __tessera_value__               the value it holds (tl.constexpr(3))
    __index__ / __float__           an int / a float (NumPy scalars)

Anything else is a TypeError, a tensor on the wrong device a ValueError, and a
missing or unknown argument a TypeError, each naming the kernel and the
parameter. A compile error (launch, warmup) raises
tessera.triton.compiler.errors.CompilationError(message) where that class
exists and accepts one argument (it subclasses TesseraError), else
TesseraError; launch errors after compiling raise TesseraError. Host-built tensor descriptors (TensorDescriptor) raise TypeError
until the runtime has their argument kind.
"""
from typing import Any, Callable, Iterator, Optional, Sequence, Union

__version__: str
#: The Triton language version Tessera implements ("3.6.0").
triton_version: str


class TesseraError(RuntimeError):
    """A compile or launch error; str() is the compiler's text (file:line:col,
    source line, caret)."""


def plugins(plugin_paths: Sequence[str] = ()) -> list[dict[str, Any]]:
    """What `tessera plugins` lists. One dict per accepted plugin: name,
    version, description, path, origin, api_version, architectures, devices
    (a list of dicts: index, name, arch and Triton's property names, or
    error), unavailable_reason ("" when it has devices), target_arch and
    target (the description of its default architecture) or target_error; or
    error when its backend cannot be created. Then one dict per file that
    failed to load: path and error."""


class Session:
    """A runtime session over one backend and device (Runtime.h). Every
    argument left unset comes from its TESSERA_* variable as in the CLI
    (backend: TESSERA_BACKEND, else auto: the first plugin with a device,
    else cpu). compile_only opens no device (needs arch where the backend has
    none): kernels only compile (Kernel.warmup)."""

    def __init__(self, backend: str = "", device: Optional[int] = None,
                 arch: str = "", plugin_paths: Sequence[str] = (),
                 cache_dir: Optional[str] = None,
                 disable_cache: Optional[bool] = None,
                 log_level: str = "", compile_only: bool = False,
                 module_paths: Sequence[str] = ()) -> None: ...
    backend: str          # the plugin's name ("cpu", "nvptx", ...)
    arch: str             # the architecture compiled for ("sm_90a", "x86-64")
    compile_only: bool
    device_index: int
    #: The torch device type tensors must be on: "cpu" or "cuda".
    torch_device: str
    warp_size: int
    device_name: str      # "" without a device
    cache_dir: Optional[str]   # None when the disk cache is off
    def device_properties(self) -> dict[str, Any]: ...  # Triton's names
    def synchronize(self) -> None:
        """Waits for the launches on the session's own stream (and reports
        what a kernel raised); launches that went on PyTorch's stream are
        waited for with torch.cuda.synchronize()."""


class AsmStages:
    """CompiledKernel.asm: the stages by name, each compiled on first access
    (through the frontend again; the binary from the disk cache)."""
    def keys(self) -> list[str]: ...  # tessera, tessera-gpu, llvm, asm, bin
    def __getitem__(self, stage: str) -> Union[str, bytes]: ...  # bin: bytes
    def __contains__(self, stage: str) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    def get(self, stage: str, default: Any = None) -> Any: ...


class KernelMetadata:
    """CompiledKernel.metadata: a read-only mapping whose entries read as
    attributes too (kernel.metadata.shared)."""
    def __getattr__(self, name: str) -> Any: ...
    def __getitem__(self, name: str) -> Any: ...
    def __contains__(self, name: object) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...
    def keys(self) -> Any: ...
    def items(self) -> Any: ...
    def values(self) -> Any: ...
    def get(self, key: str, default: Any = None) -> Any: ...
    def to_dict(self) -> dict[str, Any]: ...


class CompiledKernel:
    """What a launch or warmup compiled: Triton's CompiledKernel handle. One
    object per specialization: a launch that reuses it returns the same."""
    name: str
    n_regs: int           # -1 where the backend does not say (cpu)
    n_spills: int         # 4-byte words of local memory, as Triton; -1 unknown
    shared: int
    num_warps: int
    num_stages: int
    signature: str        # Triton's AOT signature ("*fp32:16,i32,1024")
    #: name, backend, arch, signature, num_warps, num_stages, num_ctas,
    #: maxnreg, threads_per_warp, shared, format, binary_size, cache_key,
    #: from_disk_cache, compile_seconds, and the backend's own entries.
    metadata: KernelMetadata
    asm: AsmStages
    def _init_handles(self) -> None:
        """Triton's lazy load; a no-op (Tessera loads at launch/warmup)."""


class Kernel:
    """One plain @jit function of a program (docs/embedding.md), without
    autotune or heuristics: binding, specialization, the in-memory dispatch
    table, compile and launch (runtime/JitKernel.h)."""

    def __init__(self, session: Session, program: str, unit: str) -> None: ...
    @staticmethod
    def from_file(session: Session, path: str, name: str) -> "Kernel":
        """The jit function `name` of a kernel file, read as the CLI reads it
        (its decorators are not applied)."""
    name: str
    session: Session
    #: name, is_constexpr, do_not_specialize, do_not_specialize_on_alignment,
    #: has_default, default per parameter
    params: list[dict[str, Any]]
    source_hash: str

    def launch(self, grid: Any, args: tuple, kwargs: Optional[dict[str, Any]] = None,
               num_warps: Optional[int] = None,
               num_stages: Optional[int] = None,
               num_ctas: Optional[int] = None,
               maxnreg: Optional[int] = None,
               stream: Optional[int] = None) -> CompiledKernel:
        """grid: a tuple of 1-3 ints (or one int), or a callable taking META,
        the dict of every parameter by name (the objects passed, defaults
        for the others, constexprs included) and returning one. stream: the
        raw driver stream (a CUstream); unset, PyTorch's current stream of
        the tensors' device when they are PyTorch GPU tensors, else the
        session's own."""

    def warmup(self, args: tuple, kwargs: Optional[dict[str, Any]] = None,
               num_warps: Optional[int] = None,
               num_stages: Optional[int] = None,
               num_ctas: Optional[int] = None,
               maxnreg: Optional[int] = None) -> CompiledKernel:
        """Compiles (and loads, unless the session is compile-only) what
        launch would run, without running it."""

    def compile_all(self, launches: list[tuple[tuple, Optional[dict[str, Any]],
                                           Optional[int], Optional[int],
                                           Optional[int], Optional[int]]]
                    ) -> list[Optional[str]]:
        """Compiles what each launch (args, kwargs, num_warps, num_stages,
        num_ctas, maxnreg) would run, several at once (TESSERA_COMPILE_THREADS,
        default the machine's), without loading; per launch None or why it
        failed."""

    def statistics(self) -> dict[str, int]:
        """dispatch_hits, loads (compiled or read from the disk cache),
        disk_cache_hits."""


class TuningRecords:
    """The runtime's autotuning memory (Autotuner.h, TuningStore.h) for one
    kernel and config list, in process and on disk (shared with the CLI).
    Configs are known by their text: write each as the runtime does,
    "NAME=repr, ..., num_warps=N, num_stages=N, num_ctas=N[, maxnreg=N]",
    so that the records the CLI and Python write match."""

    def __init__(self, session: Session, kernel: Kernel,
                 configs: Sequence[str]) -> None: ...
    configs: list[str]
    #: milliseconds per config of the last measurement (NaN: failed/untimed)
    last_timings: list[float]
    def recall(self, key: str) -> Optional[int]: ...
    def select(self, key: str, allowed: Sequence[int],
               measure: Callable[[int], float]) -> int:
        """The best config for key: recalled, else every allowed index (all
        when empty) timed by measure(index) -> ms. A measure that raises
        loses (KeyboardInterrupt propagates at once); when all do, the first
        exception measure raised is raised again."""


def do_bench(fn: Callable[[], Any], warmup: float = 25, rep: float = 100,
             quantiles: Optional[Sequence[float]] = None,
             return_mode: str = "mean",
             session: Optional[Session] = None) -> Any:
    """triton.testing.do_bench over the runtime's benchmark(): milliseconds,
    the cache flushed before each run, timed by the session's driver (device
    events on its stream on GPUs). session is required. Returns the
    quantiles (one: a float), else min/max/mean/median, or all samples."""
