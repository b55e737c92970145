#pragma once
// A generic plot of any experiment Table, driven only by the table's plot hints: one line per
// series, a translucent band where the series names low/high columns.

#include <QWidget>

#include "core/experiments/table.h"

class QCustomPlot;
class QCPGraph;
class QCPTextElement;

namespace rfscope::ui {

class PlotView : public QWidget {
  Q_OBJECT
 public:
  explicit PlotView(QWidget* parent = nullptr);

  void setTable(const Table& table);
  void clear();
  QCustomPlot* plot() const { return plot_; }

  // Number of series (lines) shown, and the point count of series i (for tests).
  int seriesCount() const;
  int seriesPointCount(int series) const;
  QString seriesName(int series) const;

 private:
  QCustomPlot* plot_;
  QCPTextElement* title_;
  QList<QCPGraph*> lines_;
};

}  // namespace rfscope::ui
