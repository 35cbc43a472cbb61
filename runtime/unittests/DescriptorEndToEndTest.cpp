//===- DescriptorEndToEndTest.cpp - Host-built tensor descriptors ---------===//
//
// Kernels of Inputs/descriptors.py taking descriptors built on the host
// (KernelArg::tensorDescriptor, Triton's TensorDescriptor) or making them:
// their specialization, the checks a launch makes, and results against host
// references on the cpu; compiled for GPU architectures without a device
// (sm_90a turns them into tensor maps encoded at launch).
//
//===----------------------------------------------------------------------===//
#include "EndToEndFixture.h"

#include "tessera/Runtime/KernelSpecializer.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>

using namespace mlir::tessera;
using namespace mlir::tessera::runtime;
using namespace mlir::tessera::runtime::testing;

namespace {

class DescriptorEndToEnd : public EndToEndTest {
protected:
  std::string inputFile() const override { return "descriptors.py"; }

  /// Device memory holding `values` (or a placeholder address when only
  /// compiling); kept alive by the fixture.
  template <typename T> uint64_t upload(const std::vector<T> &values) {
    if (rt->isCompileOnly())
      return (uint64_t(1) << 40) + 4096 * (buffers.size() + fake++);
    llvm::Expected<Buffer> buffer =
        rt->allocate(values.size() * sizeof(T), "i8");
    if (!buffer) {
      ADD_FAILURE() << llvm::toString(buffer.takeError());
      return 0;
    }
    if (llvm::Error err =
            buffer->copyFromHost(values.data(), values.size() * sizeof(T)))
      ADD_FAILURE() << llvm::toString(std::move(err));
    uint64_t address = buffer->getAddress();
    buffers.push_back(std::move(*buffer));
    return address;
  }

  template <typename T>
  std::vector<T> download(uint64_t address, size_t count) {
    std::vector<T> values(count);
    for (Buffer &b : buffers)
      if (b.getAddress() == address) {
        if (llvm::Error err = b.copyToHost(values.data(), count * sizeof(T)))
          ADD_FAILURE() << llvm::toString(std::move(err));
      }
    return values;
  }

  /// Launches (or only compiles) `name`; false after compiling only or on
  /// a failure (reported).
  bool launch(llvm::StringRef name, Grid grid, std::vector<KernelArg> args,
              std::vector<NamedKernelArg> kwargs, int numWarps = 4) {
    llvm::Expected<JitKernel &> kernel =
        rt->getJitKernel(kernelFile(inputFile()), name);
    if (!kernel) {
      ADD_FAILURE() << llvm::toString(kernel.takeError());
      return false;
    }
    LaunchOptions options;
    options.numWarps = numWarps;
    if (rt->isCompileOnly()) {
      llvm::Expected<const KernelVariant *> compiled =
          kernel->compile(args, kwargs, options);
      if (!compiled)
        ADD_FAILURE() << llvm::toString(compiled.takeError());
      return false;
    }
    if (llvm::Error err = kernel->launch(grid, args, kwargs, options)) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return false;
    }
    if (llvm::Error err = rt->getDevice()->synchronize()) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return false;
    }
    return true;
  }

  std::vector<Buffer> buffers;
  unsigned fake = 0;
};

TensorDescriptorArg describe(uint64_t base, std::string type,
                             std::vector<int64_t> shape,
                             std::vector<int64_t> strides,
                             std::vector<int64_t> block, bool nan = false) {
  TensorDescriptorArg d;
  d.base = base;
  d.elementType = std::move(type);
  d.shape = std::move(shape);
  d.strides = std::move(strides);
  d.blockShape = std::move(block);
  d.nanPadding = nan;
  return d;
}

TEST(DescriptorSpecialization, SignatureAndLaunchValues) {
  KernelParamInfo desc{"desc"}, n{"n"};
  KernelArg arg = KernelArg::tensorDescriptor(
      describe(0x1000, "fp16", {100, 72}, {72, 1}, {64, 32}));
  llvm::Expected<ArgumentSpecialization> spec =
      specializeArguments({desc, n}, {arg, KernelArg(7)});
  ASSERT_EXPECTED(spec);
  EXPECT_EQ(spec->signature, "tensordesc<fp16[64, 32]>,i32");
  // The descriptor is five values: base, two sizes, two strides.
  EXPECT_EQ(std::vector<unsigned>(spec->runtimeParams.begin(),
                                  spec->runtimeParams.end()),
            (std::vector<unsigned>{0, 0, 0, 0, 0, 1}));
  ASSERT_EQ(arg.getNumLaunchValues(), 5u);
  EXPECT_EQ(arg.getLaunchValue(0), KernelArg::pointer(0x1000, "fp16"));
  EXPECT_EQ(arg.getLaunchValue(2).getInt(), 72);
  EXPECT_EQ(arg.getLaunchValue(3).getInt(), 72);
  EXPECT_EQ(arg.getLaunchValue(4).getInt(), 1);

  KernelArg nan = KernelArg::tensorDescriptor(
      describe(0x1000, "fp32", {8}, {1}, {8}, /*nan=*/true));
  spec = specializeArguments({desc}, {nan});
  ASSERT_EXPECTED(spec);
  EXPECT_EQ(spec->signature, "tensordesc<fp32[8],nan>");
}

TEST(DescriptorSpecialization, TritonsChecks) {
  KernelParamInfo desc{"desc"};
  auto error = [&](TensorDescriptorArg d) {
    return errorOf(
        specializeArguments({desc}, {KernelArg::tensorDescriptor(d)}));
  };
  EXPECT_NE(error(describe(0x1008, "fp16", {64, 64}, {64, 1}, {64, 64}))
                .find("argument 'desc': the descriptor's base must be "
                      "16-byte aligned"),
            std::string::npos);
  EXPECT_NE(error(describe(0x1000, "fp16", {64, 60}, {60, 1}, {64, 64}))
                .find("strides must be 16-byte aligned"),
            std::string::npos);
  EXPECT_NE(error(describe(0x1000, "fp16", {64, 64}, {64, 2}, {64, 64}))
                .find("last dimension must be contiguous"),
            std::string::npos);
  EXPECT_NE(error(describe(0x1000, "fp16", {64, 64}, {64, 1}, {64, 48}))
                .find("block shape must be powers of 2"),
            std::string::npos);
  EXPECT_NE(error(describe(0x1000, "i32", {64}, {1}, {64}, /*nan=*/true))
                .find("NaN padding needs a floating-point"),
            std::string::npos);
}

TEST_P(DescriptorEndToEnd, TilesWithEdges) {
  // 100 x 72 floats in rows of 76 (304 bytes, a multiple of 16): the last
  // tiles hang over both edges; padding is read, nothing is written there.
  const int64_t rows = 100, cols = 72, pitch = 76, bm = 32, bn = 32;
  std::vector<float> src(rows * pitch), dst(rows * pitch, -7.0f);
  for (int64_t i = 0; i < rows * pitch; ++i)
    src[i] = float(i % 1000) - 300.0f;
  uint64_t srcAddr = upload(src), dstAddr = upload(dst);
  auto in = KernelArg::tensorDescriptor(
      describe(srcAddr, "fp32", {rows, cols}, {pitch, 1}, {bm, bn}));
  auto out = KernelArg::tensorDescriptor(
      describe(dstAddr, "fp32", {rows, cols}, {pitch, 1}, {bm, bn}));
  if (!launch("add_one_tiles", Grid((rows + bm - 1) / bm, (cols + bn - 1) / bn),
              {in, out}, {{"BM", bm}, {"BN", bn}}))
    return;
  std::vector<float> got = download<float>(dstAddr, dst.size());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < pitch; ++j) {
      float want = j < cols ? src[i * pitch + j] + 1.0f : -7.0f;
      ASSERT_EQ(got[i * pitch + j], want) << "row " << i << " column " << j;
    }
}

TEST_P(DescriptorEndToEnd, ZeroAndNanPadding) {
  const int64_t rows = 10, cols = 20, pitch = 20, bm = 16, bn = 32;
  std::vector<float> src(rows * pitch);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = float(i);
  uint64_t srcAddr = upload(src);
  for (bool nan : {false, true}) {
    std::vector<float> out(bm * bn, 5.0f);
    uint64_t outAddr = upload(out);
    auto desc = KernelArg::tensorDescriptor(
        describe(srcAddr, "fp32", {rows, cols}, {pitch, 1}, {bm, bn}, nan));
    if (!launch("read_padding", Grid(1),
                {desc, KernelArg::pointer(outAddr, "fp32"), KernelArg(4),
                 KernelArg(8)},
                {{"BM", bm}, {"BN", bn}}, 1))
      continue;
    std::vector<float> got = download<float>(outAddr, out.size());
    for (int64_t i = 0; i < bm; ++i)
      for (int64_t j = 0; j < bn; ++j) {
        int64_t r = 4 + i, c = 8 + j;
        float v = got[i * bn + j];
        if (r < rows && c < cols)
          ASSERT_EQ(v, src[r * pitch + c]) << i << ", " << j;
        else if (nan)
          ASSERT_TRUE(std::isnan(v)) << i << ", " << j << " holds " << v;
        else
          ASSERT_EQ(v, 0.0f) << i << ", " << j;
      }
  }
}

TEST_P(DescriptorEndToEnd, NextToScalarsAndPointers) {
  const int64_t rows = 48, cols = 96, bm = 16, bn = 32;
  std::vector<uint16_t> src(rows * cols);
  std::vector<float> want(rows, 0.0f);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      int v = int((i * 7 + j) % 5) - 2;
      // fp16 bits of small integers: exact, and exact sums.
      llvm::APFloat f(static_cast<float>(v) + 0.0f);
      bool lost = false;
      f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
      src[i * cols + j] = uint16_t(f.bitcastToAPInt().getZExtValue());
      want[i] += float(v);
    }
  uint64_t srcAddr = upload(src);
  std::vector<float> out(rows, 0.0f);
  uint64_t outAddr = upload(out);
  auto desc = KernelArg::tensorDescriptor(
      describe(srcAddr, "fp16", {rows, cols}, {cols, 1}, {bm, bn}));
  if (!launch("desc_rows_sum", Grid(rows / bm),
              {desc, KernelArg::pointer(outAddr, "fp32"), KernelArg(rows)},
              {{"BM", bm}, {"BN", bn}}))
    return;
  EXPECT_EQ(download<float>(outAddr, rows), want);
}

TEST_P(DescriptorEndToEnd, LaunchRefusesMisalignedStrides) {
  std::vector<float> src(64 * 64);
  uint64_t srcAddr = upload(src);
  auto desc = KernelArg::tensorDescriptor(
      describe(srcAddr, "fp32", {64, 63}, {63, 1}, {16, 16}));
  llvm::Expected<JitKernel &> kernel =
      rt->getJitKernel(kernelFile(inputFile()), "add_one_tiles");
  ASSERT_EXPECTED(kernel);
  std::string why = errorOf(
      rt->isCompileOnly()
          ? kernel
                ->compile({desc, desc}, {{"BM", 16}, {"BN", 16}},
                          LaunchOptions())
                .takeError()
          : kernel->launch(Grid(1), {desc, desc}, {{"BM", 16}, {"BN", 16}}));
  EXPECT_NE(why.find("argument 'src': the descriptor's strides must be "
                     "16-byte aligned"),
            std::string::npos)
      << why;
}

TEST_P(DescriptorEndToEnd, MadeInTheKernel) {
  // Rows of 76 floats (304 bytes): aligned, though 76 is not a multiple of
  // 16 elements, so the kernel cannot know it. Then rows of 75 (300 bytes),
  // which break tl.make_tensor_descriptor's rule: a backend runs them or
  // refuses the launch naming the line that made the descriptor.
  const int64_t rows = 100, cols = 72, bm = 32, bn = 32;
  for (int64_t pitch : {76, 75}) {
    std::vector<float> src(rows * pitch), dst(rows * pitch, -7.0f);
    for (int64_t i = 0; i < rows * pitch; ++i)
      src[i] = float(i % 1000) - 300.0f;
    uint64_t srcAddr = upload(src), dstAddr = upload(dst);
    std::vector<KernelArg> args = {KernelArg::pointer(srcAddr, "fp32"),
                                   KernelArg::pointer(dstAddr, "fp32"),
                                   KernelArg(rows), KernelArg(cols),
                                   KernelArg(pitch)};
    std::vector<NamedKernelArg> kwargs = {{"BM", bm}, {"BN", bn}};
    if (pitch == 76) {
      if (!launch("add_one_made_here",
                  Grid((rows + bm - 1) / bm, (cols + bn - 1) / bn), args,
                  kwargs))
        return;
    } else {
      llvm::Expected<JitKernel &> kernel =
          rt->getJitKernel(kernelFile(inputFile()), "add_one_made_here");
      ASSERT_EXPECTED(kernel);
      llvm::Error err = kernel->launch(
          Grid((rows + bm - 1) / bm, (cols + bn - 1) / bn), args, kwargs);
      if (err) {
        std::string why = llvm::toString(std::move(err));
        EXPECT_NE(why.find("descriptors.py:"), std::string::npos) << why;
        EXPECT_NE(why.find("multiples of 16 bytes"), std::string::npos) << why;
        continue;
      }
      ASSERT_NO_ERROR(rt->getDevice()->synchronize());
    }
    std::vector<float> got = download<float>(dstAddr, dst.size());
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < pitch; ++j) {
        float want = j < cols ? src[i * pitch + j] + 1.0f : -7.0f;
        ASSERT_EQ(got[i * pitch + j], want)
            << "pitch " << pitch << " row " << i << " column " << j;
      }
  }
}

TEST_P(DescriptorEndToEnd, MadeFromLoadedValues) {
  // Three matrices described by a table in device memory (pointers, sizes,
  // pitches), the kernel remaking its descriptors for each, as grouped
  // GEMMs do. Pitches in elements: 76 (not a multiple of 16 elements), 52
  // and 64, all 16-byte rows. Rows end on 16 bytes too: a TMA store writes
  // whole 16-byte pieces of a row (40x50 would get columns 50 and 51 of the
  // pitch written, under Triton as well).
  struct Matrix {
    int64_t rows, cols, pitch;
  };
  const std::vector<Matrix> shapes = {
      {100, 72, 76}, {40, 44, 52}, {64, 64, 64}};
  const int64_t bm = 32, bn = 32;
  std::vector<std::vector<float>> srcs, dsts;
  std::vector<int64_t> table;
  for (auto [g, shape] : llvm::enumerate(shapes)) {
    std::vector<float> src(shape.rows * shape.pitch);
    for (size_t i = 0; i < src.size(); ++i)
      src[i] = float((i * 7 + g * 101) % 1000) - 300.0f;
    srcs.push_back(src);
    dsts.emplace_back(src.size(), -7.0f);
    table.push_back(int64_t(upload(srcs.back())));
    table.push_back(int64_t(upload(dsts.back())));
    table.push_back(shape.rows);
    table.push_back(shape.cols);
    table.push_back(shape.pitch);
  }
  uint64_t tableAddr = upload(table);
  std::vector<KernelArg> args = {KernelArg::pointer(tableAddr, "i64"),
                                 KernelArg(int64_t(shapes.size()))};
  if (!launch("add_one_loaded_here", Grid(4, 3), args,
              {{"BM", bm}, {"BN", bn}}))
    return;
  for (auto [g, shape] : llvm::enumerate(shapes)) {
    std::vector<float> got =
        download<float>(uint64_t(table[g * 5 + 1]), dsts[g].size());
    for (int64_t i = 0; i < shape.rows; ++i)
      for (int64_t j = 0; j < shape.pitch; ++j) {
        float want =
            j < shape.cols ? srcs[g][i * shape.pitch + j] + 1.0f : -7.0f;
        ASSERT_EQ(got[i * shape.pitch + j], want)
            << "matrix " << g << " row " << i << " column " << j;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, DescriptorEndToEnd,
                         ::testing::ValuesIn(getBackendCases(
                             {{"nvptx", "sm_90a"}, {"amdgpu", "gfx942"}})),
                         getBackendCaseName);

} // namespace
