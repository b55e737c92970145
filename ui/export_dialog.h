#pragma once
// Asks for the size of a plot export: the size on screen in pixels, or a paper size — a one- or
// two-column journal figure, or any width and height in cm or inches — with the text size in
// points; the resolution of a PNG (300 dpi at paper sizes, 96 on screen, unless chosen); whether
// the title is shown (not at paper sizes, unless chosen); and where the legend goes, in how many
// columns.

#include <QDialog>

#include "ui/plot_export.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QWidget;

namespace rfscope::ui {

class ExportDialog : public QDialog {
  Q_OBJECT
 public:
  ExportDialog(const OutputFormat& format, const PlotExportOptions& initial,
               QWidget* parent = nullptr);
  PlotExportOptions options() const;

  // For tests: choose a size preset by index (0 screen, 1 one column, 2 two columns, 3 custom),
  // the legend's placement, the title.
  void chooseSize(int index);
  void chooseLegend(LegendPlacement placement, int columns);
  void chooseTitle(bool shown);

 private:
  void sizeChosen(int index);
  void unitChosen();
  double pointsPerUnit() const;

  QComboBox* size_;
  QWidget* pixels_;
  QWidget* paper_;
  QSpinBox* width_;
  QSpinBox* height_;
  QDoubleSpinBox* paperWidth_;
  QDoubleSpinBox* paperHeight_;
  QComboBox* unit_;
  QDoubleSpinBox* textPoints_;
  QSpinBox* dpi_;
  QCheckBox* title_;
  QComboBox* legend_;
  QSpinBox* legendColumns_;
  int unitIndex_ = 0;
  // The resolution and the title follow the size (paper or screen) until the user sets them.
  bool dpiChosen_ = false;
  bool titleChosen_ = false;
  bool settingDefaults_ = false;
};

}  // namespace rfscope::ui
