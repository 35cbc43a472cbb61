//===- Arguments.cpp - Python launch values as KernelArgs -----------------===//
#include "Arguments.h"

#include "tessera/Runtime/ScalarTypes.h"

#include "llvm/ADT/StringMap.h"

#include <nanobind/stl/string.h>

#include <climits>
#include <optional>
#include <string>

using namespace tessera::python;

namespace {
/// Interned attribute names, made once: a launch looks them up per value.
struct Names {
  nb::object dataPtr = nb::str("data_ptr");
  nb::object dtype = nb::str("dtype");
  nb::object device = nb::str("device");
  nb::object type = nb::str("type");
  nb::object index = nb::str("index");
  nb::object arrayInterface = nb::str("__array_interface__");
  nb::object tesseraDtype = nb::str("__tessera_dtype__");
  nb::object tesseraValue = nb::str("__tessera_value__");
  nb::object blockShape = nb::str("block_shape");
  nb::object base = nb::str("base");
  nb::object data = nb::str("data");
  nb::object typestr = nb::str("typestr");
  nb::object isCpu = nb::str("is_cpu");
  nb::object isCuda = nb::str("is_cuda");
  nb::object getDevice = nb::str("get_device");
};

Names &names() {
  // Leaked on purpose: destroying Python objects after the interpreter
  // finalized would crash at exit.
  static Names *interned = new Names();
  return *interned;
}

/// The attribute `name` of `obj`, or an invalid object when it has none;
/// other errors (a property that raised) propagate.
nb::object lookupAttr(nb::handle obj, nb::handle name) {
  PyObject *result = nullptr;
#if PY_VERSION_HEX >= 0x030D0000
  int found = PyObject_GetOptionalAttr(obj.ptr(), name.ptr(), &result);
#else
  int found = _PyObject_LookupAttr(obj.ptr(), name.ptr(), &result);
#endif
  if (found < 0)
    throw nb::python_error();
  return nb::steal(result);
}

/// The Triton element type of a PyTorch dtype's name ("float16" of
/// torch.float16), or null.
const char *fromTorchDtypeName(llvm::StringRef name) {
  static const llvm::StringMap<const char *> table = {
      {"float32", "fp32"},
      {"float", "fp32"},
      {"float16", "fp16"},
      {"half", "fp16"},
      {"bfloat16", "bf16"},
      {"float64", "fp64"},
      {"double", "fp64"},
      {"int8", "i8"},
      {"int16", "i16"},
      {"short", "i16"},
      {"int32", "i32"},
      {"int", "i32"},
      {"int64", "i64"},
      {"long", "i64"},
      {"uint8", "u8"},
      {"uint16", "u16"},
      {"uint32", "u32"},
      {"uint64", "u64"},
      {"bool", "i1"},
      {"float8_e4m3fn", "fp8e4nv"},
      {"float8_e5m2", "fp8e5"},
      {"float8_e4m3fnuz", "fp8e4b8"},
      {"float8_e5m2fnuz", "fp8e5b16"}};
  auto it = table.find(name);
  return it == table.end() ? nullptr : it->second;
}

/// The Triton element type of a buffer's struct format ("f", "<e"), or
/// null.
const char *fromBufferFormat(const char *format) {
  llvm::StringRef f = format ? format : "B";
  if (!f.empty() && llvm::StringRef("@=<").contains(f.front()))
    f = f.drop_front();
  if (f.size() != 1)
    return nullptr;
  switch (f.front()) {
  case 'e':
    return "fp16";
  case 'f':
    return "fp32";
  case 'd':
    return "fp64";
  case 'b':
    return "i8";
  case 'h':
    return "i16";
  case 'i':
    return "i32";
  case 'l':
    return sizeof(long) == 8 ? "i64" : "i32";
  case 'q':
    return "i64";
  case 'B':
    return "u8";
  case 'H':
    return "u16";
  case 'I':
    return "u32";
  case 'L':
    return sizeof(long) == 8 ? "u64" : "u32";
  case 'Q':
    return "u64";
  case '?':
    return "i1";
  }
  return nullptr;
}

/// The Triton element type of a NumPy typestr ("<f4"), or null.
const char *fromTypestr(llvm::StringRef typestr) {
  if (typestr.size() < 3 || typestr[0] == '>')
    return nullptr;
  static const llvm::StringMap<const char *> table = {
      {"f2", "fp16"}, {"f4", "fp32"}, {"f8", "fp64"}, {"i1", "i8"},
      {"i2", "i16"},  {"i4", "i32"},  {"i8", "i64"},  {"u1", "u8"},
      {"u2", "u16"},  {"u4", "u32"},  {"u8", "u64"},  {"b1", "i1"}};
  auto it = table.find(typestr.drop_front());
  return it == table.end() ? nullptr : it->second;
}

/// What converting one value needs to know.
class Converter {
public:
  Converter(const PySession &session, const rt::JitKernel &kernel,
            LaunchValues &out)
      : session(session), kernel(kernel), out(out) {}

  /// The KernelArg of `value` bound to parameter `param` (a name, or a
  /// position past the parameters).
  rt::KernelArg convert(nb::handle value, llvm::StringRef param, int depth = 0);

private:
  [[noreturn]] void typeError(llvm::StringRef param, const std::string &what) {
    throw nb::type_error(("kernel '" + kernel.getName().str() +
                          "': argument '" + param.str() + "': " + what)
                             .c_str());
  }
  [[noreturn]] void valueError(llvm::StringRef param, const std::string &what) {
    throw nb::value_error(("kernel '" + kernel.getName().str() +
                           "': argument '" + param.str() + "': " + what)
                              .c_str());
  }
  /// The Triton element type of `dtype` (a torch dtype, or an object with
  /// __tessera_dtype__), cached by object.
  const std::string &elementType(nb::handle dtype, llvm::StringRef param);
  rt::KernelArg fromDataPtr(nb::handle value, nb::handle dataPtr,
                            llvm::StringRef param);
  rt::KernelArg fromArrayInterface(nb::handle value, nb::handle interface,
                                   llvm::StringRef param);
  /// A pointer into host memory through the buffer protocol (NumPy arrays,
  /// the fast way), or nullopt when the buffer's format has no Triton type
  /// (then __array_interface__ decides).
  std::optional<rt::KernelArg> fromBuffer(nb::handle value,
                                          llvm::StringRef param);
  /// A host-built tensor descriptor (triton.tools.tensor_descriptor's
  /// TensorDescriptor, or any object with its fields: base, shape, strides,
  /// block_shape, padding), whose base is converted like any tensor.
  rt::KernelArg fromDescriptor(nb::handle value, llvm::StringRef param,
                               int depth);
  /// The integers of the sequence `value.field`.
  std::vector<int64_t> intList(nb::handle value, const char *field,
                               llvm::StringRef param);
  static std::string typeName(nb::handle value) {
    return nb::type_name(value.type()).c_str();
  }

  const PySession &session;
  const rt::JitKernel &kernel;
  LaunchValues &out;
};

/// Element types by dtype object. The dtypes are few and live as long as
/// their modules; each key is held, so that an address is never reused.
struct DtypeCache {
  llvm::DenseMap<PyObject *, std::string> types;
  std::vector<nb::object> keep;
};

DtypeCache &dtypeCache() {
  static DtypeCache *cache = new DtypeCache();
  return *cache;
}
} // namespace

const std::string &Converter::elementType(nb::handle dtype,
                                          llvm::StringRef param) {
  DtypeCache &cache = dtypeCache();
  auto it = cache.types.find(dtype.ptr());
  if (it != cache.types.end())
    return it->second;
  std::string name;
  if (nb::hasattr(dtype, names().tesseraDtype)) {
    name = nb::cast<std::string>(nb::getattr(dtype, names().tesseraDtype));
  } else {
    // torch.float16 prints as "torch.float16".
    std::string text = nb::cast<std::string>(nb::str(dtype));
    llvm::StringRef spelled(text);
    spelled.consume_front("torch.");
    if (const char *triton = fromTorchDtypeName(spelled))
      name = triton;
    else
      typeError(param, "cannot pass a tensor of dtype " + text +
                           " (no Triton type corresponds)");
  }
  if (!rt::lookupScalarType(name))
    typeError(param, "unknown element type '" + name + "'");
  cache.keep.push_back(nb::borrow(dtype));
  return cache.types.try_emplace(dtype.ptr(), std::move(name)).first->second;
}

rt::KernelArg Converter::fromDataPtr(nb::handle value, nb::handle dataPtr,
                                     llvm::StringRef param) {
  nb::object dtype = nb::getattr(value, names().dtype, nb::none());
  if (dtype.is_none())
    typeError(param, "a " + typeName(value) +
                         " has data_ptr() but no dtype, so its element type "
                         "is unknown");
  const std::string &element = elementType(dtype, param);
  // Where the tensor lives. PyTorch tensors answer through is_cpu, is_cuda
  // and get_device() (cheaper than building a torch.device per launch);
  // other objects with a `device` of PyTorch's form through it; the rest
  // are taken at their word.
  bool placed = true;
  int gpuIndex = -1;
  if (nb::object isCpu = lookupAttr(value, names().isCpu); isCpu.is_valid()) {
    bool onCpu = PyObject_IsTrue(isCpu.ptr()) == 1;
    if (session.isHostMemory()) {
      placed = onCpu;
    } else if (onCpu || PyObject_IsTrue(
                            nb::getattr(value, names().isCuda, nb::bool_(false))
                                .ptr()) != 1) {
      placed = false;
    } else {
      gpuIndex = nb::cast<int>(value.attr(names().getDevice)());
      placed = unsigned(gpuIndex) == session.getDeviceIndex();
    }
  } else if (nb::object device = lookupAttr(value, names().device);
             device.is_valid() && nb::hasattr(device, names().type)) {
    std::string type = nb::cast<std::string>(device.attr(names().type));
    nb::object index = device.attr(names().index);
    int deviceIndex = index.is_none() ? 0 : nb::cast<int>(index);
    placed = type == session.getTorchDeviceType() &&
             (session.isHostMemory() ||
              unsigned(deviceIndex) == session.getDeviceIndex());
    if (!session.isHostMemory())
      gpuIndex = deviceIndex;
  }
  if (!placed) {
    nb::object device = lookupAttr(value, names().device);
    std::string where = session.isHostMemory()
                            ? std::string("cpu")
                            : session.getTorchDeviceType() + ":" +
                                  std::to_string(session.getDeviceIndex());
    valueError(param,
               "a tensor on " +
                   (device.is_valid() ? nb::cast<std::string>(nb::str(device))
                                      : std::string("another device")) +
                   ", but backend '" + session.getBackend() + "' runs on " +
                   where + "; move it there first");
  }
  if (gpuIndex >= 0 && out.torchDevice < 0)
    out.torchDevice = gpuIndex;
  nb::object address = dataPtr();
  uint64_t ptr;
  if (!nb::try_cast(address, ptr))
    typeError(param, "data_ptr() of a " + typeName(value) + " returned a " +
                         typeName(address) + ", not an address");
  return rt::KernelArg::pointer(ptr, element);
}

rt::KernelArg Converter::fromArrayInterface(nb::handle value,
                                            nb::handle interface,
                                            llvm::StringRef param) {
  if (!session.isHostMemory())
    valueError(param, "a " + typeName(value) +
                          " lives in host memory, but backend '" +
                          session.getBackend() +
                          "' runs kernels on a device; pass a device tensor");
  if (!PyDict_Check(interface.ptr()))
    typeError(param,
              "__array_interface__ of a " + typeName(value) + " is not a dict");
  auto field = [&](nb::handle key) -> nb::handle {
    PyObject *item = PyDict_GetItemWithError(interface.ptr(), key.ptr());
    if (!item && PyErr_Occurred())
      throw nb::python_error();
    return item;
  };
  nb::handle typestr = field(names().typestr);
  if (!typestr.is_valid() || !PyUnicode_Check(typestr.ptr()))
    typeError(param, "__array_interface__ has no typestr");
  std::string text = nb::cast<std::string>(typestr);
  const char *element = fromTypestr(text);
  if (!element)
    typeError(param, "cannot pass an array of typestr '" + text +
                         "' (no Triton type corresponds)");
  nb::handle data = field(names().data);
  uint64_t ptr = 0;
  if (!data.is_valid() || !PyTuple_Check(data.ptr()) ||
      PyTuple_GET_SIZE(data.ptr()) < 1 ||
      !nb::try_cast(nb::handle(PyTuple_GET_ITEM(data.ptr(), 0)), ptr))
    typeError(param, "__array_interface__ has no data address (an array "
                     "exporting a buffer instead is not supported)");
  return rt::KernelArg::pointer(ptr, element);
}

std::optional<rt::KernelArg> Converter::fromBuffer(nb::handle value,
                                                   llvm::StringRef param) {
  if (!session.isHostMemory())
    valueError(param, "a " + typeName(value) +
                          " lives in host memory, but backend '" +
                          session.getBackend() +
                          "' runs kernels on a device; pass a device tensor");
  Py_buffer view;
  if (PyObject_GetBuffer(value.ptr(), &view, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return std::nullopt;
  }
  const char *element = fromBufferFormat(view.format);
  uint64_t address = reinterpret_cast<uintptr_t>(view.buf);
  // The memory is the caller's object's, which outlives the launch.
  PyBuffer_Release(&view);
  if (!element)
    return std::nullopt;
  return rt::KernelArg::pointer(address, element);
}

std::vector<int64_t> Converter::intList(nb::handle value, const char *field,
                                        llvm::StringRef param) {
  nb::object seq = nb::getattr(value, field, nb::none());
  std::vector<int64_t> out;
  if (seq.is_none())
    typeError(param, "the descriptor has no '" + std::string(field) + "'");
  for (nb::handle item : seq) {
    int64_t v = 0;
    if (PyBool_Check(item.ptr()) || !nb::try_cast(item, v))
      typeError(param, "the descriptor's " + std::string(field) + " holds a " +
                           typeName(item) + ", not an integer");
    out.push_back(v);
  }
  return out;
}

rt::KernelArg Converter::fromDescriptor(nb::handle value, llvm::StringRef param,
                                        int depth) {
  if (depth > 4)
    typeError(param, "a descriptor's base nests too deeply");
  rt::KernelArg base =
      convert(nb::getattr(value, names().base), param, depth + 1);
  if (!base.isPointer())
    typeError(param, "the descriptor's base is a " +
                         typeName(nb::getattr(value, names().base)) +
                         ", not a tensor or array");
  rt::TensorDescriptorArg desc;
  desc.base = base.getAddress();
  desc.elementType = base.getText().str();
  desc.shape = intList(value, "shape", param);
  desc.strides = intList(value, "strides", param);
  desc.blockShape = intList(value, "block_shape", param);
  size_t rank = desc.shape.size();
  if (rank == 0 || desc.strides.size() != rank ||
      desc.blockShape.size() != rank)
    valueError(param, "the descriptor's shape, strides and block_shape must "
                      "have one equal, non-zero rank");
  nb::object padding = nb::getattr(value, "padding", nb::none());
  if (!padding.is_none()) {
    std::string text;
    if (!nb::try_cast(padding, text) || (text != "zero" && text != "nan"))
      valueError(param, "the descriptor's padding must be 'zero' or 'nan'");
    desc.nanPadding = text == "nan";
  }
  return rt::KernelArg::tensorDescriptor(std::move(desc));
}

rt::KernelArg Converter::convert(nb::handle value, llvm::StringRef param,
                                 int depth) {
  PyObject *obj = value.ptr();
  if (obj == Py_None)
    return rt::KernelArg::none();
  if (PyBool_Check(obj))
    return rt::KernelArg::boolean(obj == Py_True);
  if (PyLong_CheckExact(obj) || PyLong_Check(obj)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow > 0) {
      // [2^63, 2^64): a u64 argument, as Triton passes it.
      unsigned long long u = PyLong_AsUnsignedLongLong(obj);
      if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        valueError(param, nb::cast<std::string>(nb::repr(value)) +
                              " does not fit in 64 bits");
      }
      return rt::KernelArg::unsignedInteger(static_cast<uint64_t>(u));
    }
    if (overflow < 0)
      valueError(param, nb::cast<std::string>(nb::repr(value)) +
                            " does not fit a 64-bit signed integer");
    return rt::KernelArg::integer(static_cast<int64_t>(v));
  }
  if (PyFloat_Check(obj))
    return rt::KernelArg::floating(PyFloat_AS_DOUBLE(obj));
  if (PyUnicode_Check(obj)) {
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(obj, &size);
    if (!text)
      throw nb::python_error();
    return rt::KernelArg::string(llvm::StringRef(text, size));
  }
  if (PyTuple_Check(obj)) {
    // A constant tuple for a tl.constexpr parameter (`out_shape=(8, 8)`);
    // the specializer refuses it anywhere else.
    if (depth > 16)
      typeError(param, "the tuple nests too deeply");
    std::vector<rt::KernelArg> elements;
    Py_ssize_t size = PyTuple_GET_SIZE(obj);
    elements.reserve(size);
    for (Py_ssize_t i = 0; i < size; ++i)
      elements.push_back(convert(PyTuple_GET_ITEM(obj, i), param, depth + 1));
    return rt::KernelArg::tuple(std::move(elements));
  }

  // Objects: tensors, arrays, dtypes, wrappers.
  Names &n = names();
  if (nb::object dataPtr = lookupAttr(value, n.dataPtr); dataPtr.is_valid())
    return fromDataPtr(value, dataPtr, param);
  if (PyObject_CheckBuffer(obj))
    if (std::optional<rt::KernelArg> arg = fromBuffer(value, param))
      return *arg;
  if (nb::object interface = lookupAttr(value, n.arrayInterface);
      interface.is_valid())
    return fromArrayInterface(value, interface, param);
  if (nb::object dtype = lookupAttr(value, n.tesseraDtype); dtype.is_valid()) {
    std::string name;
    if (!nb::try_cast(dtype, name) || !rt::lookupScalarType(name))
      typeError(param, "__tessera_dtype__ of a " + typeName(value) +
                           " is not a Triton type name");
    return rt::KernelArg::dtype(name);
  }
  if (nb::object inner = lookupAttr(value, n.tesseraValue); inner.is_valid()) {
    if (depth > 4)
      typeError(param, "__tessera_value__ nests too deeply");
    return convert(inner, param, depth + 1);
  }
  if (nb::hasattr(value, n.blockShape) && nb::hasattr(value, n.base))
    return fromDescriptor(value, param, depth);
  if (PyIndex_Check(obj)) {
    nb::object index = nb::steal(PyNumber_Index(obj));
    if (!index.is_valid())
      throw nb::python_error();
    return convert(index, param, depth + 1);
  }
  if (Py_TYPE(obj)->tp_as_number && Py_TYPE(obj)->tp_as_number->nb_float) {
    double v = PyFloat_AsDouble(obj);
    if (v == -1.0 && PyErr_Occurred())
      throw nb::python_error();
    return rt::KernelArg::floating(v);
  }
  typeError(param,
            "cannot pass a " + typeName(value) +
                " to a kernel (pass tensors, NumPy arrays on the cpu "
                "backend, objects with data_ptr() and dtype, int, float, "
                "bool, None, or str, dtypes and tuples for constexprs)");
}

void tessera::python::convertLaunchValues(const PySession &session,
                                          const rt::JitKernel &kernel,
                                          nb::handle args, nb::handle kwargs,
                                          LaunchValues &out) {
  Converter converter(session, kernel, out);
  llvm::ArrayRef<rt::KernelParamInfo> params = kernel.getParams();
  if (!PyTuple_Check(args.ptr()))
    throw nb::type_error("args must be a tuple");
  Py_ssize_t count = PyTuple_GET_SIZE(args.ptr());
  out.args.clear();
  out.args.reserve(count);
  for (Py_ssize_t i = 0; i < count; ++i) {
    nb::handle value = PyTuple_GET_ITEM(args.ptr(), i);
    std::string position;
    llvm::StringRef param;
    if (size_t(i) < params.size()) {
      param = params[i].name;
    } else {
      position = "#" + std::to_string(i);
      param = position;
    }
    out.args.push_back(converter.convert(value, param));
  }
  out.kwargs.clear();
  if (kwargs.is_none())
    return;
  if (!PyDict_Check(kwargs.ptr()))
    throw nb::type_error("kwargs must be a dict");
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(kwargs.ptr(), &pos, &key, &value)) {
    if (!PyUnicode_Check(key))
      throw nb::type_error("keyword argument names must be strings");
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(key, &size);
    if (!text)
      throw nb::python_error();
    llvm::StringRef name(text, size);
    out.kwargs.emplace_back(name.str(), converter.convert(value, name));
  }
}

nb::object tessera::python::toPython(const rt::KernelArg &value) {
  switch (value.getKind()) {
  case rt::KernelArg::Kind::None:
    return nb::none();
  case rt::KernelArg::Kind::Bool:
    return nb::bool_(value.getBool());
  case rt::KernelArg::Kind::Int:
    return nb::int_(value.getInt());
  case rt::KernelArg::Kind::Float:
    return nb::float_(value.getFloat());
  case rt::KernelArg::Kind::String:
  case rt::KernelArg::Kind::DType:
    return nb::str(value.getText().data(), value.getText().size());
  case rt::KernelArg::Kind::Pointer:
    return nb::int_(value.getAddress());
  case rt::KernelArg::Kind::UInt:
    return nb::steal(PyLong_FromUnsignedLongLong(value.getUInt()));
  case rt::KernelArg::Kind::TensorDesc:
    // No Python object is rebuilt from a descriptor's fields; callers that
    // need it hold the TensorDescriptor they passed.
    return nb::none();
  case rt::KernelArg::Kind::Tuple: {
    llvm::ArrayRef<rt::KernelArg> elements = value.getElements();
    nb::object tuple = nb::steal(PyTuple_New(Py_ssize_t(elements.size())));
    if (!tuple.is_valid())
      throw nb::python_error();
    for (size_t i = 0; i < elements.size(); ++i)
      PyTuple_SET_ITEM(tuple.ptr(), Py_ssize_t(i),
                       toPython(elements[i]).release().ptr());
    return tuple;
  }
  }
  return nb::none();
}

uint64_t tessera::python::getTorchCurrentStream(int device) {
  // Looked up once; torch is imported already when a tensor was passed.
  static nb::object *getStream = [] {
    auto *fn = new nb::object();
    nb::object torchC = nb::steal(PyImport_ImportModule("torch._C"));
    if (!torchC.is_valid()) {
      PyErr_Clear();
      return fn;
    }
    *fn = nb::getattr(torchC, "_cuda_getCurrentRawStream", nb::none());
    return fn;
  }();
  if (!getStream->is_valid() || getStream->is_none())
    return 0;
  return nb::cast<uint64_t>((*getStream)(device));
}
