//===- Diagnostics.cpp - Diagnostics for kernel source files --------------===//
#include "tessera/Frontend/Diagnostics.h"

using namespace tessera::frontend;

InFlightDiagnostic &InFlightDiagnostic::note(llvm::SMLoc loc,
                                             const llvm::Twine &message) {
  Diagnostic n;
  n.severity = Severity::Note;
  n.loc = loc;
  n.message = message.str();
  diag.notes.push_back(std::move(n));
  return *this;
}

InFlightDiagnostic &InFlightDiagnostic::hint(const llvm::Twine &message) {
  return note(llvm::SMLoc(), message);
}

InFlightDiagnostic &InFlightDiagnostic::range(llvm::SMRange r) {
  if (r.isValid())
    diag.ranges.push_back(r);
  return *this;
}

void InFlightDiagnostic::report() {
  if (!engine)
    return;
  DiagnosticEngine *e = engine;
  engine = nullptr;
  e->report(std::move(diag));
}

static Diagnostic makeDiag(Severity severity, llvm::SMLoc loc,
                           const llvm::Twine &message) {
  Diagnostic d;
  d.severity = severity;
  d.loc = loc;
  d.message = message.str();
  return d;
}

InFlightDiagnostic DiagnosticEngine::error(llvm::SMLoc loc,
                                           const llvm::Twine &message) {
  return InFlightDiagnostic(this, makeDiag(Severity::Error, loc, message));
}

InFlightDiagnostic DiagnosticEngine::warning(llvm::SMLoc loc,
                                             const llvm::Twine &message) {
  return InFlightDiagnostic(this, makeDiag(Severity::Warning, loc, message));
}

InFlightDiagnostic DiagnosticEngine::remark(llvm::SMLoc loc,
                                            const llvm::Twine &message) {
  return InFlightDiagnostic(this, makeDiag(Severity::Remark, loc, message));
}

void DiagnosticEngine::report(Diagnostic diag) {
  if (capture) {
    capture->push_back(std::move(diag));
    return;
  }
  if (diag.severity == Severity::Error)
    ++numErrors;
  else if (diag.severity == Severity::Warning)
    ++numWarnings;
  if (os)
    print(diag, *os);
  if (collector)
    collector->push_back(std::move(diag));
}

static llvm::SourceMgr::DiagKind toDiagKind(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return llvm::SourceMgr::DK_Error;
  case Severity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case Severity::Note:
    return llvm::SourceMgr::DK_Note;
  case Severity::Remark:
    return llvm::SourceMgr::DK_Remark;
  }
  return llvm::SourceMgr::DK_Error;
}

SourceLoc DiagnosticEngine::getSourceLoc(llvm::SMLoc loc) const {
  SourceLoc result;
  result.ptr = loc;
  if (!loc.isValid() || !sourceMgr.FindBufferContainingLoc(loc))
    return result;
  auto [line, col] = sourceMgr.getLineAndColumn(loc);
  result.line = line;
  result.column = col;
  return result;
}

void DiagnosticEngine::print(const Diagnostic &diag,
                             llvm::raw_ostream &out) const {
  auto printOne = [&](const Diagnostic &d, llvm::SMLoc fallback) {
    if (d.loc.isValid() && sourceMgr.FindBufferContainingLoc(d.loc)) {
      sourceMgr.PrintMessage(out, d.loc, toDiagKind(d.severity), d.message,
                             d.ranges, {}, /*ShowColors=*/false);
      return;
    }
    // A hint: name the primary location but do not repeat the source line.
    static const char *const labels[] = {"error", "warning", "note", "remark"};
    const char *label = labels[static_cast<unsigned>(d.severity)];
    if (fallback.isValid() && sourceMgr.FindBufferContainingLoc(fallback)) {
      unsigned id = sourceMgr.FindBufferContainingLoc(fallback);
      auto [line, col] = sourceMgr.getLineAndColumn(fallback, id);
      out << sourceMgr.getMemoryBuffer(id)->getBufferIdentifier() << ":" << line
          << ":" << col << ": " << label << ": " << d.message << "\n";
      return;
    }
    llvm::SMDiagnostic smd("", toDiagKind(d.severity), d.message);
    smd.print(nullptr, out, /*ShowColors=*/false);
  };
  printOne(diag, llvm::SMLoc());
  for (const Diagnostic &n : diag.notes)
    printOne(n, diag.loc);
}

std::string DiagnosticEngine::render(const Diagnostic &diag) const {
  std::string text;
  llvm::raw_string_ostream out(text);
  print(diag, out);
  return text;
}

DiagnosticCapture::DiagnosticCapture(DiagnosticEngine &engine)
    : engine(engine), previous(engine.capture) {
  engine.capture = &captured;
}

DiagnosticCapture::~DiagnosticCapture() {
  if (active)
    engine.capture = previous;
}

bool DiagnosticCapture::hadError() const {
  for (const Diagnostic &d : captured)
    if (d.severity == Severity::Error)
      return true;
  return false;
}

void DiagnosticCapture::commit() {
  if (!active)
    return;
  active = false;
  engine.capture = previous;
  std::vector<Diagnostic> diags = std::move(captured);
  captured.clear();
  for (Diagnostic &d : diags)
    engine.report(std::move(d));
}
