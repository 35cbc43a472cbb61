//===- TensorMaps.cpp - Tensor descriptors onto TMA -----------------------===//
//
// For every kernel, each descriptor_load and descriptor_store whose
// descriptor has a tensor map (a row stride not known to break TMA's
// 16-byte rule; a 2-D block of rows of 32 bytes or more, at most 256 rows)
// is rewritten:
//
//   load:  barrier; token = async_tensor_load map[i], buf, bar;
//          wait_barrier bar, token; result = local_load buf
//   store: [wait_tensor_stores buf;] barrier; local_store value, buf;
//          barrier; async_tensor_store map[i], buf
//          (the wait in loops; wait_tensor_stores of every such buf
//          before each return)
//
// (a value that is a lone layout conversion's result is stored from the
// conversion's source)
//
// The first barrier lets earlier readers of the buffer (or the thread that
// waited for the previous store to read it) finish; the module gets the
// attribute that makes barriers fence shared writes for the asynchronous
// proxy, which TMA reads through. Each op gets its buffer (the swizzled
// layout wgmma reads, which is TMA's too: 128-byte rows cut into column
// blocks) and each load its mbarrier, initialized once at the kernel's
// entry. A descriptor whose base, shape and strides are launch expressions
// becomes a hidden parameter whose recipe the function records (the launch
// checks its alignment); on sm_90a any other gets a make_tensor_map right
// after it is made, which writes the map into this program's slot of a
// hidden scratch parameter (after an assertion of the alignment rules), the
// function recording the scratch bytes per program. Anything else keeps the
// core's ordinary tiled lowering, with a remark saying why.
//
//===----------------------------------------------------------------------===//
#include "TensorMaps.h"
#include "Wgmma.h"

#include "tessera/Analysis/AxisInfo.h"
#include "tessera/Analysis/LaunchExpression.h"
#include "tessera/Backend/KernelRecord.h"
#include "tessera/Backend/LaunchExpression.h"
#include "tessera/Dialect/Tessera/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/Dialect.h"
#include "tessera/Dialect/TesseraGPU/IR/LayoutUtils.h"
#include "tessera/Transforms/PipelineLoads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessera;
using namespace mlir::tessera::nvptx;

//===----------------------------------------------------------------------===//
// Recipes
//===----------------------------------------------------------------------===//

std::string TensorMapRecipe::str() const {
  std::string out = llvm::formatv("type={0}|bytes={1}|swizzle={2}|fill={3}|"
                                  "base={4}",
                                  dataType, elementBytes, swizzle,
                                  nanFill ? "nan" : "zero", base);
  for (const std::string &d : dims)
    out += "|dim=" + d;
  for (const std::string &s : strides)
    out += "|stride=" + s;
  for (unsigned b : box)
    out += "|box=" + std::to_string(b);
  if (!where.empty())
    out += "|at=" + where;
  return out;
}

llvm::Expected<TensorMapRecipe> TensorMapRecipe::parse(llvm::StringRef text) {
  auto malformed = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "malformed tensor-map recipe '" +
                                       text.str() + "': " + why.str());
  };
  TensorMapRecipe recipe;
  auto [head, where] = text.split("|at=");
  recipe.where = where.str();
  llvm::SmallVector<llvm::StringRef> fields;
  head.split(fields, '|');
  bool hasBase = false;
  for (llvm::StringRef field : fields) {
    auto [key, value] = field.split('=');
    auto number = [&](unsigned &out) { return !value.getAsInteger(10, out); };
    unsigned n = 0;
    if (key == "type" && number(recipe.dataType))
      continue;
    if (key == "bytes" && number(recipe.elementBytes))
      continue;
    if (key == "swizzle" && number(recipe.swizzle) && recipe.swizzle <= 3)
      continue;
    if (key == "fill" && (value == "nan" || value == "zero")) {
      recipe.nanFill = value == "nan";
      continue;
    }
    if (key == "base" && !value.empty()) {
      recipe.base = value.str();
      hasBase = true;
      continue;
    }
    if (key == "dim" && !value.empty()) {
      recipe.dims.push_back(value.str());
      continue;
    }
    if (key == "stride" && !value.empty()) {
      recipe.strides.push_back(value.str());
      continue;
    }
    if (key == "box" && number(n) && n >= 1 && n <= 256) {
      recipe.box.push_back(n);
      continue;
    }
    return malformed("bad field '" + field + "'");
  }
  size_t rank = recipe.dims.size();
  if (!hasBase || rank == 0 || rank > 5 || recipe.strides.size() != rank ||
      recipe.box.size() != rank || recipe.elementBytes == 0)
    return malformed("needs a base, bytes and 1-5 dims with as many strides "
                     "and box sizes");
  return recipe;
}

llvm::Expected<TensorMapValues>
nvptx::evaluateTensorMap(const TensorMapRecipe &recipe,
                         llvm::ArrayRef<KernelParam> params,
                         llvm::ArrayRef<void *> args) {
  std::string where = recipe.where.empty() ? "" : recipe.where + ": ";
  auto error = [&](const llvm::Twine &what) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   where + what.str());
  };
  auto eval = [&](const std::string &program) {
    return evaluateLaunchExpression(program, params, args);
  };
  TensorMapValues v;
  llvm::Expected<int64_t> base = eval(recipe.base);
  if (!base)
    return base.takeError();
  v.base = uint64_t(*base);
  v.rank = recipe.dims.size();
  bool aligned = v.base % 16 == 0;
  std::string strideText;
  for (unsigned i = 0; i < v.rank; ++i) {
    unsigned from = v.rank - 1 - i;
    llvm::Expected<int64_t> dim = eval(recipe.dims[from]);
    if (!dim)
      return dim.takeError();
    llvm::Expected<int64_t> stride = eval(recipe.strides[from]);
    if (!stride)
      return stride.takeError();
    if (*dim <= 0 || *stride <= 0)
      return error(llvm::formatv("a tensor descriptor has size {0} and "
                                 "stride {1} in dimension {2}; TMA needs "
                                 "positive ones",
                                 *dim, *stride, from));
    v.dims[i] = uint64_t(*dim);
    if (i > 0) {
      v.strides[i - 1] = uint64_t(*stride) * recipe.elementBytes;
      aligned &= v.strides[i - 1] % 16 == 0;
      strideText = std::to_string(v.strides[i - 1]) +
                   (strideText.empty() ? "" : ",") + strideText;
    }
    v.box[i] = recipe.box[from];
    v.elementStrides[i] = 1;
  }
  if (!aligned)
    return error(llvm::formatv("a tensor descriptor at 0x{0:x} with row "
                               "strides of {1} bytes: tl.make_tensor_"
                               "descriptor needs a 16-byte aligned base and "
                               "row strides that are multiples of 16 bytes",
                               v.base, strideText));
  return v;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

// CUtensorMapDataType values (cuda.h).
enum : unsigned {
  kUInt8 = 0,
  kUInt16 = 1,
  kUInt32 = 2,
  kUInt64 = 4,
  kFloat16 = 6,
  kFloat32 = 7,
  kFloat64 = 8,
  kBFloat16 = 9,
};

/// The tensor-map data type moving `element` (TMA only moves bytes, except
/// that a NaN fill needs a float type).
std::optional<unsigned> getDataType(Type element, bool nanFill) {
  unsigned bits = element.getIntOrFloatBitWidth();
  if (nanFill) {
    if (element.isF16())
      return kFloat16;
    if (element.isBF16())
      return kBFloat16;
    if (element.isF32())
      return kFloat32;
    if (element.isF64())
      return kFloat64;
    return std::nullopt;
  }
  switch (bits) {
  case 8:
    return kUInt8;
  case 16:
    return kUInt16;
  case 32:
    return kUInt32;
  case 64:
    return kUInt64;
  default:
    return std::nullopt;
  }
}

/// True when reading `buffer` after `op` rather than before gives the
/// same values: `op` is pure and regionless, or a barrier or tensor copy
/// that leaves `buffer` alone.
bool canReadAfter(Operation *op, Value buffer) {
  if (auto copy = dyn_cast<gpu::AsyncTensorLoadOp>(op))
    return copy.getDst() != buffer;
  if (isa<gpu::BarrierOp, gpu::WaitBarrierOp>(op))
    return true;
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

/// True when `op` may run more than once in an invocation of `func`: it is
/// in a loop, or `func` has branches (which may form one).
bool mayRepeat(Operation *op, func::FuncOp func) {
  return !func.getBody().hasOneBlock() ||
         op->getParentOfType<LoopLikeOpInterface>();
}

/// The stores a thread may leave running at `wait`, which comes before
/// `buffer` is written again: those the body of the scf.for around `wait`
/// started since the store from `buffer` (each is one bulk group, and the
/// oldest finish first), counting only the body's own stores: a store in a
/// region within (under a condition, say) may not have run, and leaving
/// it uncounted only makes the wait stricter. None outside an scf.for body
/// or where the body does not start the store from `buffer`.
int32_t countLaterStores(gpu::WaitTensorStoresOp wait, Value buffer) {
  Block *body = wait->getBlock();
  if (!isa<scf::ForOp>(body->getParentOp()))
    return 0;
  int32_t later = 0;
  // Back to the top of the body, then on from its end: the iteration
  // before.
  auto visit = [&](Operation *op) {
    auto store = dyn_cast<gpu::AsyncTensorStoreOp>(op);
    if (store && store.getSrc() != buffer)
      ++later;
    return store && store.getSrc() == buffer;
  };
  for (Operation *op = wait->getPrevNode(); op; op = op->getPrevNode())
    if (visit(op))
      return later;
  for (Operation *op = &body->back(); op != wait; op = op->getPrevNode())
    if (visit(op))
      return later;
  return 0;
}

/// A descriptor's tensor map: its recipe and where the kernel finds it (a
/// hidden parameter the launch builds, or what make_tensor_map wrote).
struct MapInfo {
  TensorMapRecipe recipe;
  bool inKernel = false;
  Value map;
};

class TensorMapsPass
    : public PassWrapper<TensorMapsPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TensorMapsPass)

  TensorMapsPass(uint64_t limit, bool inKernelMaps)
      : limit(limit), inKernelMaps(inKernelMaps) {}

  StringRef getArgument() const final { return "tessera-nvptx-tensor-maps"; }
  StringRef getDescription() const final {
    return "Tensor descriptors as host-built tensor maps, their block loads "
           "and stores as TMA copies";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<gpu::LaunchShape> launch = gpu::getLaunchShape(module);
    if (failed(launch))
      return;
    threads = launch->numWarps * launch->threadsPerWarp;
    ModuleAxisInfoAnalysis axis(module);
    bool any = false;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(kKernelAttrName) && !func.isDeclaration())
        any |= rewriteKernel(func, axis);
    if (any)
      module->setAttr(kAsyncProxyReadsAttrName, UnitAttr::get(&getContext()));
  }

private:
  /// Why `make`'s descriptor cannot be a tensor map, or its recipe;
  /// `inKernel` tells whether the kernel must write the map (the recipe
  /// then has no base, sizes or strides).
  FailureOr<TensorMapRecipe> getRecipe(MakeTensorDescOp make,
                                       const ModuleAxisInfoAnalysis &axis,
                                       std::string &why, bool &inKernel) {
    auto descType = cast<TensorDescType>(make.getType());
    RankedTensorType block = descType.getBlockType();
    Type element = block.getElementType();
    if (block.getRank() != 2) {
      why = "only 2-D blocks are copied with TMA";
      return failure();
    }
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() < 8) {
      why = "its elements are not whole bytes";
      return failure();
    }
    unsigned bytes = element.getIntOrFloatBitWidth() / 8;
    int64_t rows = block.getShape()[0], cols = block.getShape()[1];
    int64_t rowBytes = cols * bytes;
    if (rows > 256 || rowBytes < 32 || !llvm::isPowerOf2_64(rowBytes)) {
      why = llvm::formatv("a {0}x{1} block ({2}-byte rows) is not a TMA box "
                          "(rows of 32 bytes or more, a power of two; at most "
                          "256 rows)",
                          rows, cols, rowBytes);
      return failure();
    }
    bool nanFill = make.getPadding() == PaddingOption::nan;
    std::optional<unsigned> dataType = getDataType(element, nanFill);
    if (!dataType) {
      why = "TMA has no NaN fill for this element type";
      return failure();
    }
    TensorMapRecipe recipe;
    recipe.dataType = *dataType;
    recipe.elementBytes = bytes;
    recipe.nanFill = nanFill;
    auto expr = [&](Value v, std::string &out) {
      FailureOr<std::string> e = getLaunchExpression(v);
      if (failed(e))
        return false;
      out = *e;
      return true;
    };
    recipe.dims.resize(2);
    recipe.strides.resize(2);
    inKernel = !expr(make.getBase(), recipe.base) ||
               !expr(make.getShape()[0], recipe.dims[0]) ||
               !expr(make.getShape()[1], recipe.dims[1]) ||
               !expr(make.getStrides()[0], recipe.strides[0]) ||
               !expr(make.getStrides()[1], recipe.strides[1]);
    if (inKernel) {
      // Values the kernel computes (pointers it loads): the kernel writes
      // the map itself (make_tensor_map), where sm_90a's tensormap.replace
      // exists.
      if (!inKernelMaps) {
        why = "its base, shape or strides are not computed from the "
              "kernel's parameters alone, and this architecture cannot "
              "write tensor maps in the kernel (sm_90a can)";
        return failure();
      }
      // tensormap.replace's element types agree with the host's encoding
      // for these; the NaN-filled others are left alone.
      if (nanFill && !element.isF16() && !element.isF32()) {
        why = "a NaN-padded descriptor made from values the kernel "
              "computes has tensor maps for f16 and f32 elements only";
        return failure();
      }
      std::optional<int64_t> last =
          axis.getAxisInfo(make.getStrides()[1]).getConstantValue();
      if (!last || *last != 1) {
        why = "its last stride is not the constant 1";
        return failure();
      }
      recipe.base.clear();
      recipe.dims.clear();
      recipe.strides.clear();
    } else if (recipe.strides[1] != "1") {
      why = "its last stride is not the constant 1";
      return failure();
    }
    // tl.make_tensor_descriptor requires a 16-byte aligned base and row
    // stride; the launch checks the values (evaluateTensorMap). Only a stride
    // known here to break the rule keeps the ordinary accesses.
    if (std::optional<int64_t> stride =
            axis.getAxisInfo(make.getStrides()[0]).getConstantValue();
        stride && (*stride * bytes) % 16 != 0) {
      why = llvm::formatv("its row stride, {0} elements, is not a multiple "
                          "of 16 bytes",
                          *stride);
      return failure();
    }
    if (auto at = make.getLoc()->findInstanceOf<FileLineColLoc>())
      recipe.where = llvm::formatv("{0}:{1}:{2}", at.getFilename().getValue(),
                                   at.getLine(), at.getColumn());
    gpu::SwizzledSharedAttr layout =
        getWgmmaSharedLayout(make.getContext(), {rows, cols}, bytes);
    recipe.swizzle = layout.getMaxPhase() == 8   ? 3
                     : layout.getMaxPhase() == 4 ? 2
                                                 : 1;
    recipe.box = {
        unsigned(rows),
        unsigned(layout.getBlockCols() ? layout.getBlockCols() : cols)};
    return recipe;
  }

  /// A mutable 1-D shared buffer of `count` `element`s, unswizzled (a
  /// barrier word, the staging of a tensor map).
  gpu::MemDescType getWordsType(int64_t count, Type element) {
    MLIRContext *ctx = &getContext();
    return gpu::MemDescType::get(
        ctx, {count}, element,
        gpu::SwizzledSharedAttr::get(ctx, 1, 1, 1, {0}, {}, 0),
        /*mutableMemory=*/true);
  }

  /// The swizzled buffer type of `desc`'s blocks.
  gpu::MemDescType getBufferType(TensorDescType desc) {
    RankedTensorType block = desc.getBlockType();
    unsigned bytes = block.getElementType().getIntOrFloatBitWidth() / 8;
    return gpu::MemDescType::get(
        &getContext(), block.getShape(), block.getElementType(),
        getWgmmaSharedLayout(&getContext(), block.getShape(), bytes),
        /*mutableMemory=*/true);
  }

  bool rewriteKernel(func::FuncOp func, const ModuleAxisInfoAnalysis &axis) {
    MLIRContext *ctx = &getContext();
    scratch = nullptr;
    staging = nullptr;
    inKernelMade.clear();
    firstHidden = func.getNumArguments();
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isa<DescriptorLoadOp, DescriptorStoreOp>(op))
        ops.push_back(op);
    });
    llvm::MapVector<Operation *, MapInfo> maps;
    // The descriptors given a hidden parameter, in parameter order.
    SmallVector<Operation *> hidden;
    SmallVector<gpu::LocalLoadOp> reads;
    uint64_t used = estimateSharedMemoryBytes(func);
    Block &entry = func.getBody().front();
    OpBuilder head(ctx);
    head.setInsertionPointToStart(&entry);
    SmallVector<Value> barriers;
    // The buffers tensor stores read; the kernel ends after they are read.
    SmallVector<Value> storeBuffers;
    SmallVector<std::pair<gpu::WaitTensorStoresOp, Value>> reuseWaits;
    for (Operation *op : ops) {
      Value desc = isa<DescriptorLoadOp>(op)
                       ? cast<DescriptorLoadOp>(op).getDesc()
                       : cast<DescriptorStoreOp>(op).getDesc();
      auto make = desc.getDefiningOp<MakeTensorDescOp>();
      if (!make) {
        op->emitRemark("tensor descriptor accessed with ordinary loads and "
                       "stores, not TMA: the descriptor is not made in this "
                       "kernel");
        continue;
      }
      auto found = maps.find(make);
      if (found == maps.end()) {
        std::string why;
        bool inKernel = false;
        FailureOr<TensorMapRecipe> recipe =
            getRecipe(make, axis, why, inKernel);
        if (failed(recipe)) {
          op->emitRemark("tensor descriptor accessed with ordinary loads "
                         "and stores, not TMA: ")
              << why;
          continue;
        }
        found = maps.insert({make, MapInfo{*recipe, inKernel, Value()}}).first;
      }
      gpu::MemDescType bufferType =
          getBufferType(cast<TensorDescType>(make.getType()));
      uint64_t bytes = llvm::alignTo(bufferType.getNumElements() *
                                         found->second.recipe.elementBytes,
                                     1024);
      uint64_t barrierBytes = isa<DescriptorLoadOp>(op) ? 128 : 0;
      // The first map made in the kernel brings the staging buffer.
      uint64_t stagingBytes =
          found->second.inKernel && !staging ? kTensorMapBytes : 0;
      if (limit && used + bytes + barrierBytes + stagingBytes > limit) {
        op->emitRemark("tensor descriptor accessed with ordinary loads and "
                       "stores, not TMA: its ")
            << bytes << "-byte buffer would not fit in shared memory";
        continue;
      }
      used += bytes + barrierBytes + stagingBytes;
      if (!found->second.map) {
        if (found->second.inKernel) {
          FailureOr<Value> made = makeInKernel(func, make, found->second);
          if (failed(made))
            return signalPassFailure(), false;
          found->second.map = *made;
        } else {
          // Host-built maps go before the scratch parameter, which is last.
          unsigned index = firstHidden + hidden.size();
          if (failed(func.insertArgument(index, gpu::TensorMapType::get(ctx),
                                         DictionaryAttr::get(ctx),
                                         make.getLoc())))
            return signalPassFailure(), false;
          found->second.map = func.getArgument(index);
          hidden.push_back(make);
        }
      }
      Value map = found->second.map;
      Value buffer =
          gpu::LocalAllocOp::create(head, make.getLoc(), bufferType, Value());
      OpBuilder b(op);
      gpu::ConvertLayoutOp bypassed;
      Location loc = op->getLoc();
      // The store of an earlier iteration may still be reading the buffer:
      // its wait sits here, before the buffer is written again, so that
      // the copy runs under whatever came between (a persistent kernel's
      // next tile). Outside loops the buffer is written once.
      if (isa<DescriptorStoreOp>(op)) {
        if (mayRepeat(op, func))
          reuseWaits.push_back(
              {gpu::WaitTensorStoresOp::create(b, loc, ValueRange{buffer}),
               buffer});
        storeBuffers.push_back(buffer);
      }
      gpu::BarrierOp::create(b, loc);
      if (auto load = dyn_cast<DescriptorLoadOp>(op)) {
        gpu::MemDescType barrierType = getWordsType(1, b.getI64Type());
        Value barrier =
            gpu::LocalAllocOp::create(head, loc, barrierType, Value());
        gpu::InitBarrierOp::create(head, loc, barrier, threads);
        barriers.push_back(barrier);
        Value token =
            gpu::AsyncTensorLoadOp::create(b, loc, b.getI64Type(), map,
                                           load.getIndices(), buffer, barrier,
                                           /*pred=*/Value())
                .getToken();
        gpu::WaitBarrierOp::create(b, loc, barrier, token);
        // Read straight into the layout a lone conversion wants (a dot
        // operand's).
        Operation *user = load->hasOneUse() ? *load->user_begin() : nullptr;
        auto cvt = dyn_cast_or_null<gpu::ConvertLayoutOp>(user);
        Operation *replaced = cvt ? cvt.getOperation() : load.getOperation();
        auto result = gpu::LocalLoadOp::create(
            b, loc, replaced->getResult(0).getType(), buffer, Value());
        replaced->getResult(0).replaceAllUsesWith(result.getResult());
        if (cvt)
          cvt.erase();
        reads.push_back(result);
      } else {
        auto store = cast<DescriptorStoreOp>(op);
        // Write the registers of a lone conversion's source (a dot's
        // accumulator) straight into the buffer: the conversion would pass
        // them through shared memory once more.
        Value src = store.getSrc();
        bypassed = src.getDefiningOp<gpu::ConvertLayoutOp>();
        if (bypassed && bypassed->hasOneUse())
          src = bypassed.getSrc();
        else
          bypassed = nullptr;
        gpu::LocalStoreOp::create(b, loc, src, buffer);
        gpu::BarrierOp::create(b, loc);
        gpu::AsyncTensorStoreOp::create(b, loc, map, store.getIndices(),
                                        buffer);
      }
      op->erase();
      if (bypassed)
        bypassed.erase();
    }
    // A wait before a buffer is written again leaves the stores started
    // since its own running (a subtiled epilogue's second half need not
    // wait for the first's copy).
    for (auto [wait, buffer] : reuseWaits)
      wait.setPending(countLaterStores(wait, buffer));
    if (!storeBuffers.empty())
      func.walk([&](func::ReturnOp ret) {
        OpBuilder at(ret);
        gpu::WaitTensorStoresOp::create(at, ret.getLoc(), storeBuffers);
      });
    if (hidden.empty() && inKernelMade.empty())
      return false;
    if (failed(placeInKernelMaps(func)))
      return signalPassFailure(), false;
    // Each read as late as its buffer allows: a read next to its dot lets
    // wgmma take the buffer in place.
    for (gpu::LocalLoadOp read : reads) {
      Operation *at = read->getNextNode();
      while (at &&
             !llvm::any_of(read->getUsers(),
                           [&](Operation *u) { return at->isAncestor(u); }) &&
             canReadAfter(at, read.getSrc()))
        at = at->getNextNode();
      if (at)
        read->moveBefore(at);
    }
    // Every thread must see the barriers initialized before it arrives.
    if (!barriers.empty())
      gpu::BarrierOp::create(head, func.getLoc());
    SmallVector<Attribute> recipes;
    for (Operation *make : hidden)
      recipes.push_back(StringAttr::get(ctx, maps[make].recipe.str()));
    if (!recipes.empty())
      setKernelMetadata(func, kTensorMapsMetadata,
                        ArrayAttr::get(ctx, recipes));
    return true;
  }

  /// Writes `make`'s map in the kernel, right after the descriptor is made,
  /// into a slot of the hidden scratch parameter (placeInKernelMaps gives
  /// the slot its address), after asserting tl.make_tensor_descriptor's
  /// contract, which no launch can check here: positive sizes, a 16-byte
  /// aligned base and a row stride that is a multiple of 16 bytes.
  FailureOr<Value> makeInKernel(func::FuncOp func, MakeTensorDescOp make,
                                const MapInfo &info) {
    MLIRContext *ctx = &getContext();
    Location loc = make.getLoc();
    auto i8Ptr = PointerType::get(IntegerType::get(ctx, 8));
    if (!scratch) {
      unsigned index = func.getNumArguments();
      // The driver passes it (kGlobalScratchMetadata), not the caller.
      auto hiddenAttr = DictionaryAttr::get(
          ctx, {NamedAttribute(StringAttr::get(ctx, kHiddenArgAttrName),
                               UnitAttr::get(ctx))});
      if (failed(func.insertArgument(index, i8Ptr, hiddenAttr, func.getLoc())))
        return failure();
      scratch = func.getArgument(index);
    }
    OpBuilder b(make->getNextNode());
    Type i64 = b.getI64Type();
    auto constant = [&](int64_t v) {
      return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
    };
    Value base = PtrToIntOp::create(b, loc, i64, make.getBase());
    Value rowBytes = arith::MulIOp::create(b, loc, make.getStrides()[0],
                                           constant(info.recipe.elementBytes));
    Value bits = arith::OrIOp::create(b, loc, base, rowBytes);
    Value low = arith::AndIOp::create(b, loc, bits, constant(15));
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low,
                                     constant(0));
    for (Value size : make.getShape()) {
      Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
      Value positive =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, size, zero);
      ok = arith::AndIOp::create(b, loc, ok, positive);
    }
    auto at = loc->findInstanceOf<FileLineColLoc>();
    AssertOp::create(
        b, loc, ok,
        "tl.make_tensor_descriptor needs positive sizes, a 16-byte aligned "
        "base and row strides that are multiples of 16 bytes",
        at ? at.getFilename().getValue() : StringRef("<unknown>"),
        func.getSymName(), at ? int32_t(at.getLine()) : 0);
    SmallVector<int32_t> box;
    for (unsigned size : info.recipe.box)
      box.push_back(int32_t(size));
    // One staging buffer serves every map (warp 0 makes them one by one).
    if (!staging) {
      OpBuilder entry(ctx);
      entry.setInsertionPointToStart(&func.getBody().front());
      gpu::MemDescType stagingType =
          getWordsType(kTensorMapBytes, entry.getI8Type());
      staging =
          gpu::LocalAllocOp::create(entry, func.getLoc(), stagingType, Value());
    }
    // The slot operand is a placeholder until placeInKernelMaps knows how
    // many slots a program has.
    auto op = gpu::MakeTensorMapOp::create(
        b, loc, gpu::TensorMapType::get(ctx), scratch, make.getResult(),
        staging, b.getDenseI32ArrayAttr(box),
        b.getI32IntegerAttr(int32_t(info.recipe.dataType)),
        b.getI32IntegerAttr(int32_t(info.recipe.swizzle)),
        b.getBoolAttr(info.recipe.nanFill));
    inKernelMade.push_back(op);
    return op.getMap();
  }

  /// Gives every map made in the kernel its slot: 128 bytes per map per
  /// program, programs numbered x-fastest; records the bytes per program.
  LogicalResult placeInKernelMaps(func::FuncOp func) {
    if (inKernelMade.empty())
      return success();
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    b.setInsertionPointToStart(&func.getBody().front());
    Location loc = func.getLoc();
    Type i32 = b.getI32Type();
    auto axisValue = [&](ProgramAxis axis, bool count) -> Value {
      auto attr = ProgramAxisAttr::get(ctx, axis);
      if (count)
        return NumProgramsOp::create(b, loc, i32, attr);
      return ProgramIdOp::create(b, loc, i32, attr);
    };
    // x + nx * (y + ny * z), in 64 bits: grids may be large.
    Type i64 = b.getI64Type();
    auto wide = [&](Value v) { return arith::ExtUIOp::create(b, loc, i64, v); };
    Value program = wide(axisValue(ProgramAxis::z, false));
    program = arith::MulIOp::create(b, loc, program,
                                    wide(axisValue(ProgramAxis::y, true)));
    program = arith::AddIOp::create(b, loc, program,
                                    wide(axisValue(ProgramAxis::y, false)));
    program = arith::MulIOp::create(b, loc, program,
                                    wide(axisValue(ProgramAxis::x, true)));
    program = arith::AddIOp::create(b, loc, program,
                                    wide(axisValue(ProgramAxis::x, false)));
    int64_t perProgram = int64_t(inKernelMade.size()) * kTensorMapBytes;
    Value first = arith::MulIOp::create(
        b, loc, program,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(perProgram)));
    for (auto [k, op] : llvm::enumerate(inKernelMade)) {
      Value offset = first;
      if (k > 0)
        offset = arith::AddIOp::create(
            b, loc, first,
            arith::ConstantOp::create(
                b, loc, b.getI64IntegerAttr(int64_t(k) * kTensorMapBytes)));
      Value slot = AddPtrOp::create(b, loc, scratch.getType(), scratch, offset);
      op.getSlotMutable().assign(slot);
    }
    setKernelMetadata(func, kGlobalScratchMetadata,
                      StringAttr::get(ctx, std::to_string(perProgram)));
    return success();
  }

  uint64_t limit;
  bool inKernelMaps;
  int64_t threads = 128;
  /// Per kernel: where its hidden parameters start, its scratch parameter
  /// (null until a map is made in the kernel) and those maps.
  unsigned firstHidden = 0;
  Value scratch, staging;
  SmallVector<gpu::MakeTensorMapOp> inKernelMade;
};

} // namespace

std::unique_ptr<Pass> nvptx::createTensorMapsPass(uint64_t sharedMemoryLimit,
                                                  bool inKernelMaps) {
  return std::make_unique<TensorMapsPass>(sharedMemoryLimit, inKernelMaps);
}
