//===- Kernel.cpp - tessera._C.Kernel over runtime::JitKernel -------------===//
//
// A Kernel is one plain jit function (no autotune, no heuristics: the
// Python layer applies those and passes their constexprs). launch() is the
// fast path of `kernel[grid](*args, **kwargs)`: the values are converted in
// C++ (Arguments.h), bound, looked up in the JitKernel's dispatch table and
// launched, on PyTorch's current stream when the tensors are PyTorch's GPU
// tensors. The CompiledKernel handle it returns is made once per variant.
//
//===----------------------------------------------------------------------===//
#include "Arguments.h"

#include "tessera/Runtime/Compiler.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>

using namespace tessera::python;
using namespace mlir::tessera;

PyKernel::PyKernel(nb::object session, std::unique_ptr<rt::JitKernel> kernel)
    : session(std::move(session)), kernel(std::move(kernel)) {}

PyKernel::~PyKernel() {
  // Handles still held elsewhere keep the JitKernel; the rest go now.
  handles.clear();
  kernel.reset();
}

nb::object PyKernel::getHandle(const rt::KernelVariant &variant) {
  auto it = handles.find(&variant);
  if (it != handles.end())
    return it->second;
  PyCompiledKernel handle;
  handle.session = session;
  handle.kernel = kernel;
  handle.variant = &variant;
  nb::object object = nb::cast(std::move(handle));
  handles[&variant] = object;
  return object;
}

namespace {
/// Raises `message` as a compile error:
/// tessera.triton.compiler.errors.CompilationError where the Python layer
/// defines it (a subclass of TesseraError, what Triton programs catch),
/// else TesseraError.
[[noreturn]] void raiseCompileError(const std::string &message) {
  static nb::object *compilationError = [] {
    auto *cls = new nb::object();
    PyObject *module = PyImport_ImportModule("tessera.triton.compiler.errors");
    if (!module) {
      PyErr_Clear();
      return cls;
    }
    nb::object errors = nb::steal(module);
    *cls = nb::getattr(errors, "CompilationError", nb::none());
    return cls;
  }();
  if (compilationError->is_valid() && !compilationError->is_none()) {
    PyObject *error = PyObject_CallOneArg(compilationError->ptr(),
                                          nb::str(message.c_str()).ptr());
    if (error) {
      PyErr_SetObject(compilationError->ptr(), error);
      Py_DECREF(error);
      throw nb::python_error();
    }
    PyErr_Clear();
  }
  throw TesseraError(message);
}

/// The variant `value` holds, or raises its error as a compile error.
const rt::KernelVariant *
unwrapCompiled(llvm::Expected<const rt::KernelVariant *> value) {
  if (value)
    return *value;
  raiseCompileError(takeMessage(value.takeError()));
}

/// Triton's CompiledKernel.metadata: a mapping whose entries read as
/// attributes too (`kernel.metadata.shared`).
struct KernelMetadata {
  nb::dict values;
};

/// The launch options of the keyword arguments.
rt::LaunchOptions makeOptions(std::optional<int> numWarps,
                              std::optional<int> numStages,
                              std::optional<int> numCTAs,
                              std::optional<int> maxnreg) {
  rt::LaunchOptions options;
  auto positive = [](std::optional<int> value, const char *name) {
    if (value && *value <= 0)
      throw nb::value_error((std::string(name) + " must be positive, not " +
                             std::to_string(*value))
                                .c_str());
    return value;
  };
  options.numWarps = positive(numWarps, "num_warps");
  options.numStages = positive(numStages, "num_stages");
  options.numCTAs = positive(numCTAs, "num_ctas");
  if (maxnreg && *maxnreg < 0)
    throw nb::value_error("maxnreg must not be negative");
  options.maxNumRegs = maxnreg;
  return options;
}

/// The launch's values bound to the parameters, with the defaults; a
/// TypeError (as Python's for a call) for a missing or unknown argument.
void bindValues(const rt::JitKernel &kernel, const LaunchValues &values,
                rt::BoundArgs &bound) {
  if (llvm::Error err = kernel.bind(values.args, values.kwargs, bound))
    throw nb::type_error(takeMessage(std::move(err)).c_str());
  if (llvm::Error err = kernel.complete(bound))
    throw nb::type_error(takeMessage(std::move(err)).c_str());
}

/// Triton's META: every parameter by name, as the launch gave it (the
/// objects themselves), else its default.
nb::dict makeMeta(const rt::JitKernel &kernel, nb::handle args,
                  nb::handle kwargs, const rt::BoundArgs &bound) {
  nb::dict meta;
  llvm::ArrayRef<rt::KernelParamInfo> params = kernel.getParams();
  Py_ssize_t positional = PyTuple_GET_SIZE(args.ptr());
  for (size_t i = 0, e = params.size(); i < e; ++i) {
    nb::str name(params[i].name.data(), params[i].name.size());
    if (Py_ssize_t(i) < positional) {
      meta[name] = nb::borrow(PyTuple_GET_ITEM(args.ptr(), i));
      continue;
    }
    if (!kwargs.is_none())
      if (PyObject *given = PyDict_GetItemWithError(kwargs.ptr(), name.ptr())) {
        meta[name] = nb::borrow(given);
        continue;
      }
    if (PyErr_Occurred())
      throw nb::python_error();
    meta[name] = toPython(bound.values[i]);
  }
  return meta;
}

/// The grid of a launch: a tuple of 1-3 ints, or what a callable returns
/// for META.
rt::GridDims resolveGrid(const rt::JitKernel &kernel, nb::handle grid,
                         nb::handle args, nb::handle kwargs,
                         const rt::BoundArgs &bound) {
  nb::object dims = nb::borrow(grid);
  if (PyCallable_Check(grid.ptr()))
    dims = nb::borrow(grid)(makeMeta(kernel, args, kwargs, bound));
  std::string what = "kernel '" + kernel.getName().str() + "': the grid";
  rt::GridDims result = {1, 1, 1};
  auto dim = [&](nb::handle value, size_t i) {
    long long v;
    if (PyBool_Check(value.ptr()) || !nb::try_cast(value, v))
      throw nb::type_error((what + " must hold ints, not a " +
                            nb::type_name(value.type()).c_str())
                               .c_str());
    if (v < 0)
      throw nb::value_error(
          (what + " has a negative dimension (" + std::to_string(v) + ")")
              .c_str());
    result[i] = static_cast<uint64_t>(v);
  };
  if (PyTuple_Check(dims.ptr()) || PyList_Check(dims.ptr())) {
    nb::sequence seq = nb::borrow<nb::sequence>(dims);
    size_t size = nb::len(seq);
    if (size < 1 || size > 3)
      throw nb::value_error((what + " has " + std::to_string(size) +
                             " dimensions; it takes 1 to 3")
                                .c_str());
    for (size_t i = 0; i < size; ++i)
      dim(seq[i], i);
    return result;
  }
  if (PyIndex_Check(dims.ptr()) && !PyBool_Check(dims.ptr())) {
    dim(dims, 0);
    return result;
  }
  throw nb::type_error((what +
                        " must be a tuple of 1 to 3 ints or a "
                        "callable of META returning one, not a " +
                        nb::type_name(dims.type()).c_str())
                           .c_str());
}

/// What compiles `variant` again: its complete signature and options.
rt::CompileRequest requestOf(const rt::JitKernel &jit,
                             const rt::KernelVariant &variant) {
  rt::CompileRequest request;
  request.kernel = jit.getName().str();
  request.signature = variant.signature;
  request.completeSignature = true;
  request.options = variant.options;
  return request;
}

/// Triton's CompiledKernel.asm: the stages by name, each compiled on
/// first access (from the source, through the frontend; the binary from
/// the disk cache) and kept.
struct AsmStages {
  nb::object session;
  std::shared_ptr<rt::JitKernel> kernel;
  rt::CompileRequest request;
  nb::dict texts;

  static std::vector<std::string> keys() {
    return {"tessera", "tessera-gpu", "llvm", "asm", "bin"};
  }
  nb::object get(const std::string &name) {
    nb::str key(name.c_str());
    if (texts.contains(key))
      return texts[key];
    std::optional<rt::EmitStage> stage = rt::parseEmitStage(name);
    if (!stage)
      throw nb::key_error(("no stage '" + name +
                           "'; the stages are tessera, tessera-gpu, llvm, "
                           "asm and bin")
                              .c_str());
    rt::CompileResult compiled = unwrap(kernel->getRuntime().getCompiler().compile(
        kernel->getSource(), request, *stage));
    nb::object text =
        *stage == rt::EmitStage::Binary
            ? nb::object(nb::bytes(compiled.kernel->binary.data(),
                                   compiled.kernel->binary.size()))
            : nb::object(nb::str(compiled.text.data(), compiled.text.size()));
    texts[key] = text;
    return text;
  }
};

KernelMetadata makeMetadata(const PyCompiledKernel &h) {
  const rt::KernelVariant &v = *h.variant;
  nb::dict metadata;
  metadata["name"] = h.kernel->getName().str();
  metadata["backend"] = nb::cast<PySession &>(h.session).getBackend();
  metadata["arch"] = v.options.arch;
  metadata["signature"] = v.signature;
  metadata["num_warps"] = v.options.numWarps;
  metadata["num_stages"] = v.options.numStages;
  metadata["num_ctas"] = v.options.numCTAs;
  metadata["maxnreg"] = v.options.maxNumRegs;
  metadata["threads_per_warp"] = v.kernel.threadsPerWarp;
  metadata["shared"] = v.kernel.sharedMemoryBytes;
  metadata["format"] = v.kernel.format;
  metadata["binary_size"] = v.binarySize;
  metadata["cache_key"] = v.cacheKey;
  metadata["from_disk_cache"] = v.fromDiskCache;
  metadata["compile_seconds"] = v.seconds;
  nb::dict steps;
  for (const StageTimes::Step &step : v.times.getSteps())
    steps[step.name.c_str()] = step.seconds;
  metadata["compile_steps"] = steps;
  for (const auto &[key, value] : v.kernel.metadata)
    metadata[key.c_str()] = value;
  return KernelMetadata{metadata};
}
} // namespace

static std::unique_ptr<rt::JitKernel>
createFromProgram(PySession &session, const std::string &program,
                  const std::string &unit) {
#ifdef TESSERA_HAVE_PROGRAM_SOURCE
  // The program's entry unit is the kernel; its def name is the jit
  // function's.
  std::shared_ptr<rt::KernelSource> source =
      unwrap(rt::KernelSource::fromProgram(program, unit));
  std::string name = source->getEntryName().str();
  return unwrap(rt::JitKernel::create(session.getRuntime(), source, name));
#else
  (void)session;
  (void)program;
  (void)unit;
  throw TesseraError("this build of Tessera does not read programs yet "
                     "(KernelSource::fromProgram); use Kernel.from_file");
#endif
}

void tessera::python::bindKernel(nb::module_ &m) {
  nb::class_<KernelMetadata>(m, "KernelMetadata",
                             "A compiled kernel's metadata: a read-only "
                             "mapping whose entries are attributes too.")
      .def("__getattr__",
           [](const KernelMetadata &md, const std::string &name) {
             nb::str key(name.c_str());
             if (!md.values.contains(key))
               throw nb::attribute_error(
                   ("the metadata has no '" + name + "'").c_str());
             return nb::object(md.values[key]);
           })
      .def("__getitem__",
           [](const KernelMetadata &md, const std::string &name) {
             nb::str key(name.c_str());
             if (!md.values.contains(key))
               throw nb::key_error(name.c_str());
             return nb::object(md.values[key]);
           })
      .def("__contains__",
           [](const KernelMetadata &md, nb::handle key) {
             return md.values.contains(key);
           })
      .def("__iter__",
           [](const KernelMetadata &md) { return nb::iter(md.values); })
      .def("__len__",
           [](const KernelMetadata &md) { return nb::len(md.values); })
      .def("keys", [](const KernelMetadata &md) { return md.values.keys(); })
      .def("items", [](const KernelMetadata &md) { return md.values.items(); })
      .def("values",
           [](const KernelMetadata &md) { return md.values.values(); })
      .def(
          "get",
          [](const KernelMetadata &md, nb::handle key, nb::object fallback) {
            return md.values.contains(key) ? nb::object(md.values[key])
                                           : fallback;
          },
          nb::arg("key"), nb::arg("default") = nb::none())
      .def("to_dict",
           [](const KernelMetadata &md) {
             return nb::steal<nb::dict>(PyDict_Copy(md.values.ptr()));
           })
      .def("__repr__", [](const KernelMetadata &md) {
        return "KernelMetadata(" + nb::cast<std::string>(nb::repr(md.values)) +
               ")";
      });

  nb::class_<PyCompiledKernel>(
      m, "CompiledKernel",
      "What a launch or warmup compiled: Triton's CompiledKernel handle.")
      .def_prop_ro(
          "name",
          [](const PyCompiledKernel &h) { return h.kernel->getName().str(); })
      .def_prop_ro(
          "n_regs",
          [](const PyCompiledKernel &h) { return h.variant->kernel.registers; })
      .def_prop_ro("n_spills",
                   [](const PyCompiledKernel &h) {
                     // Triton counts 4-byte words of local memory.
                     int bytes = h.variant->kernel.spillBytes;
                     return bytes < 0 ? bytes : bytes / 4;
                   })
      .def_prop_ro("shared",
                   [](const PyCompiledKernel &h) {
                     return h.variant->kernel.sharedMemoryBytes;
                   })
      .def_prop_ro(
          "num_warps",
          [](const PyCompiledKernel &h) { return h.variant->options.numWarps; })
      .def_prop_ro("num_stages",
                   [](const PyCompiledKernel &h) {
                     return h.variant->options.numStages;
                   })
      .def_prop_ro(
          "signature",
          [](const PyCompiledKernel &h) { return h.variant->signature; })
      .def_prop_ro("metadata",
                   [](const PyCompiledKernel &h) { return makeMetadata(h); })
      .def(
          "_init_handles", [](const PyCompiledKernel &) {},
          "Triton's lazy module load: Tessera loads at launch or warmup, so "
          "there is nothing left to do.")
      .def_prop_ro("asm", [](PyCompiledKernel &h) {
        if (!h.stages.is_valid()) {
          AsmStages stages;
          stages.session = h.session;
          stages.kernel = h.kernel;
          stages.request =
              h.request ? *h.request : requestOf(*h.kernel, *h.variant);
          if (h.owned && !h.owned->kernel.binary.empty())
            stages.texts["bin"] = nb::bytes(h.owned->kernel.binary.data(),
                                            h.owned->kernel.binary.size());
          h.stages = nb::cast(std::move(stages));
        }
        return h.stages;
      });

  nb::class_<AsmStages>(m, "AsmStages",
                        "The stages of a compiled kernel by name, each "
                        "compiled on first access: tessera, tessera-gpu, "
                        "llvm, asm (str) and bin (bytes).")
      .def("keys", [](const AsmStages &) { return AsmStages::keys(); })
      .def("__getitem__", &AsmStages::get)
      .def("__contains__",
           [](const AsmStages &, const std::string &name) {
             return rt::parseEmitStage(name).has_value();
           })
      .def("__iter__",
           [](const AsmStages &) {
             return nb::iter(nb::cast(AsmStages::keys()));
           })
      .def("__len__",
           [](const AsmStages &) { return AsmStages::keys().size(); })
      .def(
          "get",
          [](AsmStages &s, const std::string &name,
             nb::object fallback) -> nb::object {
            if (!rt::parseEmitStage(name))
              return fallback;
            return s.get(name);
          },
          nb::arg("name"), nb::arg("default") = nb::none());

  nb::class_<PyKernel>(m, "Kernel",
                       "One plain @jit function of a program "
                       "(docs/embedding.md) or kernel file, without autotune "
                       "or heuristics (runtime/JitKernel.h).")
      .def(
          "__init__",
          [](PyKernel *self, nb::object session, const std::string &program,
             const std::string &unit) {
            PySession &s = nb::cast<PySession &>(session);
            std::unique_ptr<rt::JitKernel> kernel =
                createFromProgram(s, program, unit);
            new (self) PyKernel(std::move(session), std::move(kernel));
          },
          nb::arg("session"), nb::arg("program"), nb::arg("unit"))
      .def_static(
          "from_file",
          [](nb::object session, const std::string &path,
             const std::string &name) {
            PySession &s = nb::cast<PySession &>(session);
            std::shared_ptr<rt::KernelSource> source =
                unwrap(s.getRuntime().getSource(path));
            std::unique_ptr<rt::JitKernel> kernel =
                unwrap(rt::JitKernel::create(s.getRuntime(), source, name));
            return new PyKernel(std::move(session), std::move(kernel));
          },
          nb::arg("session"), nb::arg("path"), nb::arg("name"),
          "The jit function `name` of the kernel file `path`, as the CLI "
          "reads it (its decorators are not applied).")
      .def_prop_ro(
          "name",
          [](const PyKernel &k) { return k.getKernel().getName().str(); })
      .def_prop_ro(
          "session", [](const PyKernel &k) { return &k.getSession(); },
          nb::rv_policy::reference)
      .def_prop_ro("source_hash",
                   [](const PyKernel &k) {
                     return k.getKernel().getSource().getSourceHash();
                   })
      .def_prop_ro(
          "params",
          [](const PyKernel &k) {
            nb::list params;
            for (const rt::KernelParamInfo &p : k.getKernel().getParams()) {
              nb::dict param;
              param["name"] = p.name;
              param["is_constexpr"] = p.isConstexpr;
              param["do_not_specialize"] = p.doNotSpecialize;
              param["do_not_specialize_on_alignment"] =
                  p.doNotSpecializeOnAlignment;
              param["has_default"] = p.defaultValue.has_value();
              param["default"] =
                  p.defaultValue ? toPython(*p.defaultValue) : nb::none();
              params.append(param);
            }
            return params;
          })
      .def(
          "launch",
          [](nb::handle self, nb::handle grid, nb::handle args,
             nb::handle kwargs, std::optional<int> numWarps,
             std::optional<int> numStages, std::optional<int> numCTAs,
             std::optional<int> maxnreg,
             std::optional<uint64_t> stream) -> nb::object {
            PyKernel &k = nb::cast<PyKernel &>(self);
            rt::JitKernel &jit = k.getKernel();
            LaunchValues values;
            convertLaunchValues(k.getSession(), jit, args, kwargs, values);
            rt::LaunchOptions options =
                makeOptions(numWarps, numStages, numCTAs, maxnreg);
            if (stream)
              options.stream = *stream;
            else if (values.torchDevice >= 0)
              options.stream = getTorchCurrentStream(values.torchDevice);
            rt::BoundArgs bound;
            bindValues(jit, values, bound);
            rt::GridDims dims = resolveGrid(jit, grid, args, kwargs, bound);
            const rt::KernelVariant *variant =
                unwrapCompiled(jit.prepare(bound, options));
            check(jit.run(*variant, bound, rt::Grid(dims), options));
            return k.getHandle(*variant);
          },
          nb::arg("grid"), nb::arg("args"), nb::arg("kwargs") = nb::none(),
          nb::arg("num_warps") = nb::none(), nb::arg("num_stages") = nb::none(),
          nb::arg("num_ctas") = nb::none(), nb::arg("maxnreg") = nb::none(),
          nb::arg("stream") = nb::none())
      .def(
          "warmup",
          [](nb::handle self, nb::handle args, nb::handle kwargs,
             std::optional<int> numWarps, std::optional<int> numStages,
             std::optional<int> numCTAs,
             std::optional<int> maxnreg) -> nb::object {
            PyKernel &k = nb::cast<PyKernel &>(self);
            rt::JitKernel &jit = k.getKernel();
            LaunchValues values;
            convertLaunchValues(k.getSession(), jit, args, kwargs, values);
            rt::LaunchOptions options =
                makeOptions(numWarps, numStages, numCTAs, maxnreg);
            rt::BoundArgs bound;
            bindValues(jit, values, bound);
            const rt::KernelVariant *variant = unwrapCompiled(
                jit.getRuntime().isCompileOnly() ? jit.compile(bound, options)
                                                 : jit.prepare(bound, options));
            return k.getHandle(*variant);
          },
          nb::arg("args"), nb::arg("kwargs") = nb::none(),
          nb::arg("num_warps") = nb::none(), nb::arg("num_stages") = nb::none(),
          nb::arg("num_ctas") = nb::none(), nb::arg("maxnreg") = nb::none())
      .def(
          "compile",
          [](nb::handle self, const std::string &signature,
             const std::vector<std::string> &constexprs,
             std::optional<int> numWarps, std::optional<int> numStages,
             std::optional<int> numCTAs, std::optional<int> maxnreg,
             bool debug) -> nb::object {
            PyKernel &k = nb::cast<PyKernel &>(self);
            rt::JitKernel &jit = k.getKernel();
            auto request = std::make_shared<rt::CompileRequest>();
            request->kernel = jit.getName().str();
            request->signature = signature;
            request->constexprs = constexprs;
            request->options.arch = jit.getTargetArch();
            request->numWarps = numWarps;
            request->numStages = numStages;
            request->numCTAs = numCTAs;
            if (maxnreg)
              request->options.maxNumRegs = *maxnreg;
            request->debug = debug;
            auto start = std::chrono::steady_clock::now();
            llvm::Expected<rt::CompileResult> result = [&] {
              // Compiling calls no Python: other threads run meanwhile.
              nb::gil_scoped_release release;
              return jit.getRuntime().getCompiler().compile(
                  jit.getSource(), *request, rt::EmitStage::Binary);
            }();
            if (!result)
              raiseCompileError(takeMessage(result.takeError()));
            auto variant = std::make_shared<rt::KernelVariant>();
            variant->seconds = std::chrono::duration<double>(
                                   std::chrono::steady_clock::now() - start)
                                   .count();
            variant->kernel = std::move(*result->kernel);
            variant->binarySize = variant->kernel.binary.size();
            variant->signature = signature;
            variant->options = result->options;
            variant->cacheKey = result->cacheKey;
            variant->fromDiskCache = result->cacheHit;
            variant->times = std::move(result->times);
            PyCompiledKernel handle;
            handle.session = k.getSessionObject();
            handle.kernel = k.getSharedKernel();
            handle.variant = variant.get();
            handle.owned = std::move(variant);
            handle.request = std::move(request);
            return nb::cast(std::move(handle));
          },
          nb::arg("signature"),
          nb::arg("constexprs") = std::vector<std::string>(),
          nb::arg("num_warps") = nb::none(), nb::arg("num_stages") = nb::none(),
          nb::arg("num_ctas") = nb::none(), nb::arg("maxnreg") = nb::none(),
          nb::arg("debug") = false,
          "Compiles ahead of time for an AOT signature ('*fp32:16,i32,1024', "
          "as `tessera compile --signature`) and constexprs NAME=VALUE, "
          "launching nothing: a CompiledKernel whose binary is in "
          "asm['bin'] and which no launch uses.")
      .def(
          "compile_all",
          [](nb::handle self, nb::list launches) -> nb::list {
            PyKernel &k = nb::cast<PyKernel &>(self);
            rt::JitKernel &jit = k.getKernel();
            std::vector<rt::JitKernel::Launch> batch;
            for (nb::handle item : launches) {
              nb::tuple launch = nb::cast<nb::tuple>(item);
              if (launch.size() != 6)
                throw nb::value_error(
                    "compile_all: each launch is (args, kwargs, num_warps, "
                    "num_stages, num_ctas, maxnreg)");
              auto option = [&](size_t i) {
                return launch[i].is_none()
                           ? std::optional<int>()
                           : std::optional<int>(nb::cast<int>(launch[i]));
              };
              LaunchValues values;
              convertLaunchValues(k.getSession(), jit, launch[0], launch[1],
                                  values);
              rt::JitKernel::Launch entry;
              entry.options =
                  makeOptions(option(2), option(3), option(4), option(5));
              bindValues(jit, values, entry.bound);
              batch.push_back(std::move(entry));
            }
            std::vector<llvm::Expected<const rt::KernelVariant *>> results;
            {
              // Compiling calls no Python: other threads run meanwhile.
              nb::gil_scoped_release release;
              results = jit.compileAll(batch);
            }
            nb::list out;
            for (llvm::Expected<const rt::KernelVariant *> &result : results)
              if (result)
                out.append(nb::none());
              else
                out.append(nb::str(llvm::toString(result.takeError()).c_str()));
            return out;
          },
          nb::arg("launches"),
          "Compiles what each launch (args, kwargs, num_warps, num_stages, "
          "num_ctas, maxnreg) would run, several at once, loading nothing; "
          "returns per launch None or why it failed.")
      .def(
          "statistics",
          [](const PyKernel &k) {
            rt::JitKernel::Statistics s = k.getKernel().getStatistics();
            nb::dict stats;
            stats["dispatch_hits"] = s.dispatchHits;
            stats["loads"] = s.loads;
            stats["disk_cache_hits"] = s.diskCacheHits;
            return stats;
          },
          "Specializations compiled or read from the disk cache (loads, "
          "disk_cache_hits) and launches that found theirs loaded "
          "(dispatch_hits).");
}
