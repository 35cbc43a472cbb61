//===- CodeObject.cpp - What an HSA code object says of a kernel ----------===//
#include "CodeObject.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir::tessera;
using namespace mlir::tessera::amdgpu;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "amdgpu: code object: " + message);
}

/// Reads the kernels' metadata map from `doc` into `out` for `name`.
llvm::Expected<CodeObjectResources> findKernel(llvm::msgpack::Document &doc,
                                               llvm::StringRef name) {
  llvm::msgpack::DocNode &root = doc.getRoot();
  if (!root.isMap())
    return fail("the metadata is not a map");
  auto kernels = root.getMap().find("amdhsa.kernels");
  if (kernels == root.getMap().end() || !kernels->second.isArray())
    return fail("the metadata lists no kernels");
  for (llvm::msgpack::DocNode &kernel : kernels->second.getArray()) {
    if (!kernel.isMap())
      continue;
    llvm::msgpack::MapDocNode &fields = kernel.getMap();
    auto nameField = fields.find(".name");
    if (nameField == fields.end() || !nameField->second.isString() ||
        nameField->second.getString() != name)
      continue;
    auto integer = [&](llvm::StringRef key) -> int64_t {
      auto it = fields.find(key);
      if (it == fields.end())
        return 0;
      llvm::msgpack::DocNode &value = it->second;
      if (value.getKind() == llvm::msgpack::Type::UInt)
        return int64_t(value.getUInt());
      if (value.getKind() == llvm::msgpack::Type::Int)
        return value.getInt();
      return 0;
    };
    CodeObjectResources r;
    r.vgprs = integer(".vgpr_count");
    r.agprs = integer(".agpr_count");
    r.sgprs = integer(".sgpr_count");
    r.vgprSpills = integer(".vgpr_spill_count");
    r.sgprSpills = integer(".sgpr_spill_count");
    r.scratchBytes = integer(".private_segment_fixed_size");
    r.ldsBytes = integer(".group_segment_fixed_size");
    r.wavefrontSize = integer(".wavefront_size");
    r.maxFlatWorkgroupSize = integer(".max_flat_workgroup_size");
    return r;
  }
  return fail("no kernel '" + name + "' in the metadata");
}

} // namespace

llvm::Expected<CodeObjectResources>
amdgpu::readKernelResources(llvm::StringRef hsaco, llvm::StringRef name) {
  llvm::Expected<llvm::object::ELF64LEFile> elf =
      llvm::object::ELF64LEFile::create(hsaco);
  if (!elf)
    return fail("not an ELF file: " + llvm::toString(elf.takeError()));
  if (elf->getHeader().e_machine != llvm::ELF::EM_AMDGPU)
    return fail("not an AMDGPU ELF file");
  auto headers = elf->program_headers();
  if (!headers)
    return fail(llvm::toString(headers.takeError()));
  for (const auto &header : *headers) {
    if (header.p_type != llvm::ELF::PT_NOTE)
      continue;
    llvm::Error err = llvm::Error::success();
    for (const auto &note : elf->notes(header, err)) {
      if (note.getName() != "AMDGPU" ||
          note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      llvm::ArrayRef<uint8_t> desc = note.getDesc(header.p_align);
      llvm::msgpack::Document doc;
      if (!doc.readFromBlob(
              llvm::StringRef(reinterpret_cast<const char *>(desc.data()),
                              desc.size()),
              /*Multi=*/false)) {
        llvm::consumeError(std::move(err));
        return fail("unreadable metadata note");
      }
      llvm::consumeError(std::move(err));
      return findKernel(doc, name);
    }
    if (err)
      return fail(llvm::toString(std::move(err)));
  }
  return fail("no AMDGPU metadata note");
}
