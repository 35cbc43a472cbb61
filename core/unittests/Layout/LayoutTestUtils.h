//===- LayoutTestUtils.h - Helpers for the layout unit tests ----*- C++ -*-===//

#ifndef TESSERA_UNITTESTS_LAYOUT_LAYOUTTESTUTILS_H
#define TESSERA_UNITTESTS_LAYOUT_LAYOUTTESTUTILS_H

#include "tessera/Layout/LinearLayout.h"

#include <ostream>

namespace mlir::tessera {

/// Lets GoogleTest print layouts in failure messages.
inline void PrintTo(const LinearLayout &layout, std::ostream *os) {
  *os << layout.toString();
}

/// Shorthand for the expected output of LinearLayout::apply.
using Coords = llvm::SmallVector<LinearLayout::NamedIntOwned, 4>;

} // namespace mlir::tessera

#endif // TESSERA_UNITTESTS_LAYOUT_LAYOUTTESTUTILS_H
