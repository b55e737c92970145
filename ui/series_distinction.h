#pragma once
// Telling apart series that would hide one another. Two series coincide when, over most of their
// common rows, they lie within a small fraction of the axis span of each other (on the axis's own
// scale, so log axes compare ratios): the later one is then drawn with its own dash pattern and
// markers. Bands that overlap are hatched rather than tinted, so that two translucent fills never
// blend into a colour that looks like a third series.

#include <QVector>
#include <vector>

namespace rfscope::ui {

struct Coincidence {
  // 0 if the series coincides with no earlier series, otherwise 1 + the rank of the highest-ranked
  // earlier series it coincides with: later series are drawn on top, with their own dashes.
  int rank = 0;
  // How many rank levels of later lines lie on this one (0: none): it is drawn that much wider,
  // so that its colour shows on both sides of those above it. Markers alone leave it visible and
  // do not count.
  int depth = 0;
};

// values[i][row]: series i in axis-scale units (log10 of the value on a log axis; NaN where it has
// no value); drawnAsLine[i]: whether series i is drawn with a line (not markers alone). One result
// per series.
std::vector<Coincidence> findCoincidences(const std::vector<QVector<double>>& values,
                                          const std::vector<bool>& drawnAsLine,
                                          double toleranceFraction = 0.01);

// True if two bands (low/high per row, same rows) overlap at some row where both have values.
bool bandsOverlap(const QVector<double>& lowA, const QVector<double>& highA,
                  const QVector<double>& lowB, const QVector<double>& highB);

}  // namespace rfscope::ui
