#pragma once
// Axis choices the plot makes on its own: a log scale for a geometrically spaced grid, and tick
// labels in one format per axis (never "1000" beside "10⁶").

#include <vector>

class QCPAxis;

namespace rfscope::ui {

// True for at least three positive, strictly monotone values with a constant ratio (a log-spaced
// grid such as σ = 0.001 … 1 in 100 log steps); false for linear grids and anything irregular.
bool looksLogSpaced(const std::vector<double>& values);

// Chooses the ticker and number format for the axis's current range and scale: powers of ten
// (10⁻³, 10⁰, 10³) on log axes spanning two decades or more, plain numbers on narrower log axes,
// and on linear axes plain numbers unless the range needs exponents — then all ticks use them.
void applyTickFormat(QCPAxis* axis);

}  // namespace rfscope::ui
