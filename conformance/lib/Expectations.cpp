//===- Expectations.cpp - Per-backend expected failures -------------------===//
#include "tessera/Conformance/Expectations.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir::tessera::conformance;

static llvm::Error makeError(llvm::StringRef filename, unsigned line,
                             const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 filename + ":" + llvm::Twine(line) +
                                     ": error: " + message);
}

llvm::Expected<Expectations> Expectations::parse(llvm::StringRef text,
                                                 llvm::StringRef filename) {
  Expectations result;
  result.filename = filename.str();
  llvm::StringSet<> seen;
  unsigned lineNumber = 0;
  while (!text.empty()) {
    llvm::StringRef line;
    std::tie(line, text) = text.split('\n');
    ++lineNumber;
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    size_t space = line.find_first_of(" \t");
    llvm::StringRef pattern = line.substr(0, space);
    llvm::StringRef reason =
        space == llvm::StringRef::npos ? "" : line.substr(space).trim();
    if (reason.empty())
      return makeError(filename, lineNumber,
                       "expected failure '" + pattern +
                           "' has no reason; write the case id, then why "
                           "it is expected to fail");
    if (!seen.insert(pattern).second)
      return makeError(filename, lineNumber,
                       "'" + pattern + "' is listed twice");
    llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(pattern);
    if (!glob)
      return makeError(filename, lineNumber,
                       "bad case pattern '" + pattern +
                           "': " + llvm::toString(glob.takeError()));
    ExpectationEntry entry;
    entry.pattern = pattern.str();
    entry.reason = reason.str();
    entry.line = lineNumber;
    result.entries.push_back(std::move(entry));
  }
  return result;
}

llvm::Expected<Expectations> Expectations::load(llvm::StringRef path,
                                                bool mayBeMissing) {
  if (mayBeMissing && !llvm::sys::fs::exists(path))
    return Expectations();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read expectation file '" + path +
                                       "': " + buffer.getError().message());
  return parse((*buffer)->getBuffer(), path);
}

bool ExpectationEntry::matches(llvm::StringRef id) const {
  // Made for each match rather than kept: a GlobPattern refers to the text
  // it was made from, which neither the file's buffer nor a movable entry
  // keeps in place.
  llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(pattern);
  if (!glob) {
    llvm::consumeError(glob.takeError());
    return false;
  }
  return glob->match(id);
}

const ExpectationEntry *Expectations::lookup(llvm::StringRef id) const {
  for (const ExpectationEntry &entry : entries)
    if (entry.matches(id))
      return &entry;
  return nullptr;
}

std::vector<const ExpectationEntry *>
Expectations::getUnmatched(llvm::ArrayRef<std::string> ids) const {
  std::vector<const ExpectationEntry *> unmatched;
  for (const ExpectationEntry &entry : entries)
    if (llvm::none_of(ids,
                      [&](const std::string &id) { return entry.matches(id); }))
      unmatched.push_back(&entry);
  return unmatched;
}
