#pragma once
// Asks for the size of a plot export: the size on screen in pixels, or a paper size — a one- or
// two-column journal figure, or any width and height in cm or inches — with the text size in
// points; and the resolution of a PNG.

#include <QDialog>

#include "ui/plot_export.h"

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

  // For tests: choose a size preset by index (0 screen, 1 one column, 2 two columns, 3 custom).
  void chooseSize(int index);

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
  int unitIndex_ = 0;
};

}  // namespace rfscope::ui
