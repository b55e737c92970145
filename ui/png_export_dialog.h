#pragma once
// Asks for the size and resolution of a PNG export.

#include <QDialog>

#include "ui/plot_export.h"

class QSpinBox;

namespace rfscope::ui {

class PngExportDialog : public QDialog {
  Q_OBJECT
 public:
  PngExportDialog(const PlotExportOptions& initial, QWidget* parent = nullptr);
  PlotExportOptions options() const;

 private:
  QSpinBox* width_;
  QSpinBox* height_;
  QSpinBox* dpi_;
};

}  // namespace rfscope::ui
