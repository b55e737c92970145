#pragma once
// A generic plot of any experiment Table, driven only by the table's plot hints: one line per
// series, a translucent band where the series names low/high columns. Interaction: drag to pan,
// wheel to zoom, click a legend entry to hide/show its series, hover for exact values, optional
// crosshair, log/linear axes. The user's zoom survives streamed updates until the view is reset.

#include <QSet>
#include <QWidget>
#include <optional>

#include "core/experiments/table.h"

class QCustomPlot;
class QCPErrorBars;
class QCPGraph;
class QCPItemStraightLine;
class QCPTextElement;
class QMouseEvent;

namespace rfscope::ui {

// What a session remembers of the view.
struct PlotViewState {
  std::optional<bool> xLog;  // unset: follow the table's hint
  std::optional<bool> yLog;
  std::optional<std::pair<double, double>> xRange;  // unset: fit the data
  std::optional<std::pair<double, double>> yRange;
  QSet<QString> hiddenSeries;  // series labels
};

class PlotView : public QWidget {
  Q_OBJECT
 public:
  explicit PlotView(QWidget* parent = nullptr);

  void setTable(const Table& table);
  void clear();
  QCustomPlot* plot() const { return plot_; }

  void resetView();  // fit all data, forget the user's zoom
  void setLogX(bool on);
  void setLogY(bool on);
  bool logX() const;
  bool logY() const;
  void setCrosshair(bool on);
  void setPresentationMode(bool on);  // thicker lines, larger fonts
  void setSeriesVisible(const QString& label, bool visible);

  PlotViewState viewState() const;
  void setViewState(const PlotViewState& state);

  // Tooltip text for the data point nearest to a widget position (empty if none near).
  QString describePointNear(const QPointF& position) const;

  // For tests.
  int seriesCount() const;
  int seriesPointCount(int series) const;
  QString seriesName(int series) const;
  bool seriesVisible(int series) const;

 signals:
  void viewChanged();

 private:
  struct Series {
    QString label;
    QCPGraph* line = nullptr;
    QCPGraph* low = nullptr;
    QCPGraph* high = nullptr;
    QCPErrorBars* errorBars = nullptr;
    QVector<double> x, y, lowValues, highValues;
  };
  void removeSeries();
  void fitView();
  void applyAxisScales();
  void applyStyle();
  void onMouseMove(QMouseEvent* event);

  QCustomPlot* plot_;
  QCPTextElement* title_;
  QCPItemStraightLine* crosshairX_ = nullptr;
  QCPItemStraightLine* crosshairY_ = nullptr;
  QList<Series> series_;
  QString xLabel_;
  bool hintXLog_ = false;
  bool hintYLog_ = false;
  std::optional<bool> userXLog_;
  std::optional<bool> userYLog_;
  bool userAdjustedView_ = false;
  bool presentation_ = false;
  QSet<QString> hidden_;
};

}  // namespace rfscope::ui
