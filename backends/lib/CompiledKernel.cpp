//===- CompiledKernel.cpp - Serialization of compiled kernels -------------===//
#include "tessera/Backend/CompiledKernel.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tessera;

namespace {
/// Bumped whenever the serialized form changes; older entries are rejected
/// (and rebuilt by the cache) rather than misread.
constexpr int64_t kFormatVersion = 1;

llvm::Error malformed(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed compiled kernel: " + what);
}
} // namespace

std::string CompiledKernel::serialize() const {
  llvm::json::Array paramArray;
  for (const KernelParam &p : params)
    paramArray.push_back(llvm::json::Object{{"name", p.name}, {"type", p.type}});
  llvm::json::Object meta;
  for (const auto &[key, value] : metadata)
    meta[key] = value;
  llvm::json::Object header{
      {"version", kFormatVersion},
      {"backend", backend},
      {"arch", arch},
      {"name", name},
      {"format", format},
      {"binary_size", static_cast<int64_t>(binary.size())},
      {"params", std::move(paramArray)},
      {"num_warps", numWarps},
      {"threads_per_warp", threadsPerWarp},
      {"num_ctas", numCTAs},
      {"num_stages", numStages},
      {"shared_memory", static_cast<int64_t>(sharedMemoryBytes)},
      {"registers", registers},
      {"spill_bytes", spillBytes},
      {"metadata", std::move(meta)},
  };
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::json::Value(std::move(header)) << "\n" << binary;
  return out;
}

llvm::Expected<CompiledKernel>
CompiledKernel::deserialize(llvm::StringRef bytes) {
  auto [headerText, rest] = bytes.split('\n');
  if (headerText.size() == bytes.size())
    return malformed("no header line");
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(headerText);
  if (!parsed)
    return malformed("header is not JSON: " +
                     llvm::toString(parsed.takeError()));
  const llvm::json::Object *header = parsed->getAsObject();
  if (!header)
    return malformed("header is not an object");
  if (header->getInteger("version") != kFormatVersion)
    return malformed("unsupported format version");

  CompiledKernel k;
  auto str = [&](llvm::StringRef key, std::string &out) -> llvm::Error {
    std::optional<llvm::StringRef> v = header->getString(key);
    if (!v)
      return malformed("missing '" + key + "'");
    out = v->str();
    return llvm::Error::success();
  };
  auto num = [&](llvm::StringRef key, auto &out) -> llvm::Error {
    std::optional<int64_t> v = header->getInteger(key);
    if (!v)
      return malformed("missing '" + key + "'");
    out = static_cast<std::remove_reference_t<decltype(out)>>(*v);
    return llvm::Error::success();
  };
  for (auto [key, field] :
       {std::pair{"backend", &k.backend}, std::pair{"arch", &k.arch},
        std::pair{"name", &k.name}, std::pair{"format", &k.format}})
    if (llvm::Error err = str(key, *field))
      return std::move(err);
  int64_t size = 0;
  if (llvm::Error err = num("binary_size", size))
    return std::move(err);
  if (size < 0 || static_cast<size_t>(size) != rest.size())
    return malformed("binary is " + llvm::Twine(rest.size()) +
                     " bytes, header says " + llvm::Twine(size));
  k.binary = rest.str();
  if (llvm::Error err = num("num_warps", k.numWarps))
    return std::move(err);
  if (llvm::Error err = num("threads_per_warp", k.threadsPerWarp))
    return std::move(err);
  if (llvm::Error err = num("num_ctas", k.numCTAs))
    return std::move(err);
  if (llvm::Error err = num("num_stages", k.numStages))
    return std::move(err);
  if (llvm::Error err = num("shared_memory", k.sharedMemoryBytes))
    return std::move(err);
  if (llvm::Error err = num("registers", k.registers))
    return std::move(err);
  if (llvm::Error err = num("spill_bytes", k.spillBytes))
    return std::move(err);
  const llvm::json::Array *paramArray = header->getArray("params");
  if (!paramArray)
    return malformed("missing 'params'");
  for (const llvm::json::Value &v : *paramArray) {
    const llvm::json::Object *p = v.getAsObject();
    std::optional<llvm::StringRef> name = p ? p->getString("name") : std::nullopt;
    std::optional<llvm::StringRef> type = p ? p->getString("type") : std::nullopt;
    if (!name || !type)
      return malformed("a parameter lacks its name or type");
    k.params.push_back({name->str(), type->str()});
  }
  if (const llvm::json::Object *meta = header->getObject("metadata"))
    for (const auto &[key, value] : *meta)
      if (std::optional<llvm::StringRef> s = value.getAsString())
        k.metadata[key.str()] = s->str();
  return k;
}
