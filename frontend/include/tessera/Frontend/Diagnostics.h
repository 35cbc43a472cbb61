//===- Diagnostics.h - Diagnostics for kernel source files ------*- C++ -*-===//
//
// The DiagnosticEngine prints `file:line:col: error: message`, the source line
// and a caret through llvm::SourceMgr. It counts errors, can collect what it
// reports (for tests), and can capture diagnostics temporarily so that the
// module scanner may parse host code speculatively and drop the errors of
// statements it does not need.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_FRONTEND_DIAGNOSTICS_H
#define TESSERA_FRONTEND_DIAGNOSTICS_H

#include "tessera/Frontend/SourceLoc.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tessera::frontend {

enum class Severity { Error, Warning, Note, Remark };

/// One reported diagnostic. Notes hang off their primary diagnostic.
struct Diagnostic {
  Severity severity = Severity::Error;
  llvm::SMLoc loc;
  /// Extra ranges underlined with '~' on the primary line.
  llvm::SmallVector<llvm::SMRange, 1> ranges;
  std::string message;
  /// Attached notes; a note without a location is printed as a hint at the
  /// primary location, without repeating the source line.
  std::vector<Diagnostic> notes;
};

class DiagnosticEngine;

/// A diagnostic under construction; it is reported when destroyed, so that
/// notes and ranges can be chained: `diags.error(loc, "...").note(l2, "...")`.
class InFlightDiagnostic {
public:
  InFlightDiagnostic(DiagnosticEngine *engine, Diagnostic diag)
      : engine(engine), diag(std::move(diag)) {}
  InFlightDiagnostic(InFlightDiagnostic &&other)
      : engine(other.engine), diag(std::move(other.diag)) {
    other.engine = nullptr;
  }
  InFlightDiagnostic(const InFlightDiagnostic &) = delete;
  InFlightDiagnostic &operator=(const InFlightDiagnostic &) = delete;
  ~InFlightDiagnostic() { report(); }

  /// Attaches a note at `loc` (printed with its own source line).
  InFlightDiagnostic &note(llvm::SMLoc loc, const llvm::Twine &message);
  /// Attaches a hint: a note printed at the primary location, no source line.
  InFlightDiagnostic &hint(const llvm::Twine &message);
  /// Underlines `range` on the primary line.
  InFlightDiagnostic &range(llvm::SMRange range);
  /// Reports now (idempotent).
  void report();

private:
  DiagnosticEngine *engine;
  Diagnostic diag;
};

/// Reports diagnostics against buffers of one llvm::SourceMgr. Never aborts.
class DiagnosticEngine {
public:
  explicit DiagnosticEngine(llvm::SourceMgr &sourceMgr,
                            llvm::raw_ostream *os = &llvm::errs())
      : sourceMgr(sourceMgr), os(os) {}

  InFlightDiagnostic error(llvm::SMLoc loc, const llvm::Twine &message);
  InFlightDiagnostic warning(llvm::SMLoc loc, const llvm::Twine &message);
  InFlightDiagnostic remark(llvm::SMLoc loc, const llvm::Twine &message);

  /// Reports a finished diagnostic: counts it, prints it unless printing is
  /// off, and collects it when a collector is set. While a capture is active
  /// the diagnostic goes to the capture only.
  void report(Diagnostic diag);

  unsigned getNumErrors() const { return numErrors; }
  unsigned getNumWarnings() const { return numWarnings; }
  bool hadError() const { return numErrors != 0; }

  /// Stores every reported diagnostic in `sink` (in addition to printing it
  /// when printing is on). Pass nullptr to stop collecting.
  void setCollector(std::vector<Diagnostic> *sink) { collector = sink; }
  /// Turns printing off (nullptr) or redirects it.
  void setOutput(llvm::raw_ostream *stream) { os = stream; }

  /// Renders `diag` exactly as it is printed: location, message, source line,
  /// caret, then the notes.
  std::string render(const Diagnostic &diag) const;

  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }

  /// Resolves a pointer into a buffer to its 1-based line and column.
  SourceLoc getSourceLoc(llvm::SMLoc loc) const;

private:
  friend class DiagnosticCapture;
  void print(const Diagnostic &diag, llvm::raw_ostream &out) const;

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream *os;
  std::vector<Diagnostic> *collector = nullptr;
  std::vector<Diagnostic> *capture = nullptr;
  unsigned numErrors = 0;
  unsigned numWarnings = 0;
};

/// RAII: while alive, diagnostics reported to the engine are held here and
/// neither printed nor counted. `commit()` replays them into the engine;
/// destruction without commit drops them. Captures nest.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(DiagnosticEngine &engine);
  ~DiagnosticCapture();
  DiagnosticCapture(const DiagnosticCapture &) = delete;
  DiagnosticCapture &operator=(const DiagnosticCapture &) = delete;

  const std::vector<Diagnostic> &getDiagnostics() const { return captured; }
  std::vector<Diagnostic> takeDiagnostics() { return std::move(captured); }
  bool hadError() const;
  /// Stops capturing and reports everything captured so far to the engine.
  void commit();

private:
  DiagnosticEngine &engine;
  std::vector<Diagnostic> *previous;
  std::vector<Diagnostic> captured;
  bool active = true;
};

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_DIAGNOSTICS_H
