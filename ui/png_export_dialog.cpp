#include "ui/png_export_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace rfscope::ui {

PngExportDialog::PngExportDialog(const PlotExportOptions& initial, QWidget* parent)
    : QDialog(parent), width_(new QSpinBox), height_(new QSpinBox), dpi_(new QSpinBox) {
  setWindowTitle(tr("PNG size"));
  width_->setRange(16, 20000);
  height_->setRange(16, 20000);
  dpi_->setRange(24, 2400);
  width_->setValue(initial.width);
  height_->setValue(initial.height);
  dpi_->setValue(initial.dpi);
  width_->setSuffix(tr(" px"));
  height_->setSuffix(tr(" px"));
  dpi_->setSuffix(tr(" dpi"));
  auto* form = new QFormLayout(this);
  form->addRow(tr("Width (at 96 dpi)"), width_);
  form->addRow(tr("Height (at 96 dpi)"), height_);
  form->addRow(tr("Resolution"), dpi_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

PlotExportOptions PngExportDialog::options() const {
  return {width_->value(), height_->value(), dpi_->value()};
}

}  // namespace rfscope::ui
