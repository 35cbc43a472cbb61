//===- ExpectationsTest.cpp - Parsing the expected-failure files ----------===//
#include "tessera/Conformance/Expectations.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <optional>

using namespace mlir::tessera::conformance;

namespace {
TEST(ExpectationsTest, ParsesEntriesCommentsAndGlobs) {
  llvm::Expected<Expectations> e = Expectations::parse(
      "# expected failures of a backend\n"
      "\n"
      "01_vector_add/add_kernel/n=1   tail mask not lowered yet\n"
      "  06_fused_attention/_attn_bwd/*\tdK off by one ulp  \n",
      "x.txt");
  ASSERT_TRUE(static_cast<bool>(e)) << llvm::toString(e.takeError());
  ASSERT_EQ(e->getEntries().size(), 2u);
  EXPECT_EQ(e->getEntries()[0].reason, "tail mask not lowered yet");
  EXPECT_EQ(e->getEntries()[0].line, 3u);
  EXPECT_EQ(e->getEntries()[1].reason, "dK off by one ulp");
  EXPECT_EQ(e->getEntries()[1].line, 4u);

  const ExpectationEntry *hit =
      e->lookup("06_fused_attention/_attn_bwd/Z=1,H=2,N=64,D=32");
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->pattern, "06_fused_attention/_attn_bwd/*");
  EXPECT_NE(e->lookup("01_vector_add/add_kernel/n=1"), nullptr);
  EXPECT_EQ(e->lookup("01_vector_add/add_kernel/n=1000"), nullptr);

  std::vector<std::string> ids = {"01_vector_add/add_kernel/n=1"};
  std::vector<const ExpectationEntry *> stale = e->getUnmatched(ids);
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0]->line, 4u);
}

TEST(ExpectationsTest, GlobsOutliveTheTextTheyWereReadFrom) {
  // As load() does: the text is gone before any lookup, and entries move.
  std::optional<Expectations> e;
  {
    std::string text = "01_vector_add/add_kernel/* a reason\n"
                       "02_fused_softmax/softmax_kernel/fp16,* another\n";
    llvm::Expected<Expectations> parsed = Expectations::parse(text, "f.txt");
    ASSERT_TRUE(static_cast<bool>(parsed))
        << llvm::toString(parsed.takeError());
    e = std::move(*parsed);
    std::fill(text.begin(), text.end(), 'x');
  }
  const ExpectationEntry *hit = e->lookup("01_vector_add/add_kernel/n=1");
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->line, 1u);
  EXPECT_NE(e->lookup("02_fused_softmax/softmax_kernel/fp16,13x129,grid=13"),
            nullptr);
  EXPECT_EQ(e->lookup("02_fused_softmax/softmax_kernel/fp32,1x1,grid=1"),
            nullptr);
}

TEST(ExpectationsTest, EntryWithoutReasonIsRejectedWithFileAndLine) {
  llvm::Expected<Expectations> e = Expectations::parse(
      "# header\n01_vector_add/add_kernel/n=1 because\n02_x/y/z   \n",
      "conformance/expectations/cpu.txt");
  ASSERT_FALSE(static_cast<bool>(e));
  std::string message = llvm::toString(e.takeError());
  EXPECT_NE(message.find("conformance/expectations/cpu.txt:3: error:"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("'02_x/y/z' has no reason"), std::string::npos)
      << message;
}

TEST(ExpectationsTest, DuplicatesAndBadGlobsAreRejected) {
  llvm::Expected<Expectations> dup =
      Expectations::parse("a/b/c one\na/b/c two\n", "f.txt");
  ASSERT_FALSE(static_cast<bool>(dup));
  EXPECT_NE(llvm::toString(dup.takeError()).find("f.txt:2: error:"),
            std::string::npos);

  llvm::Expected<Expectations> bad =
      Expectations::parse("a/b/[c reason\n", "f.txt");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("f.txt:1: error: bad case"),
            std::string::npos);
}

TEST(ExpectationsTest, MissingFile) {
  llvm::Expected<Expectations> none =
      Expectations::load("/nonexistent/cpu.txt", /*mayBeMissing=*/true);
  ASSERT_TRUE(static_cast<bool>(none));
  EXPECT_TRUE(none->getEntries().empty());
  llvm::Expected<Expectations> required =
      Expectations::load("/nonexistent/cpu.txt", /*mayBeMissing=*/false);
  ASSERT_FALSE(static_cast<bool>(required));
  EXPECT_NE(llvm::toString(required.takeError()).find("cannot read"),
            std::string::npos);
}

TEST(ExpectationsTest, EmptyFileHasNoEntries) {
  llvm::Expected<Expectations> e = Expectations::parse("", "cpu.txt");
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_TRUE(e->getEntries().empty());
}
} // namespace
