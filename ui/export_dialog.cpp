#include "ui/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace rfscope::ui {
namespace {

constexpr double kPointsPerCm = 72 / 2.54;
constexpr double kPointsPerInch = 72;
// A figure's default height: a little under two thirds of its width.
constexpr double kHeightPerWidth = 0.65;

enum SizeChoice { Screen, OneColumn, TwoColumns, Custom };

// The resolutions a PNG gets unless the user chooses one: the screen's, and print's at paper sizes.
constexpr int kScreenDpi = 96;
constexpr int kPaperDpi = 300;

}  // namespace

ExportDialog::ExportDialog(const OutputFormat& format, const PlotExportOptions& initial,
                           QWidget* parent)
    : QDialog(parent),
      size_(new QComboBox),
      pixels_(new QWidget),
      paper_(new QWidget),
      width_(new QSpinBox),
      height_(new QSpinBox),
      paperWidth_(new QDoubleSpinBox),
      paperHeight_(new QDoubleSpinBox),
      unit_(new QComboBox),
      textPoints_(new QDoubleSpinBox),
      dpi_(new QSpinBox),
      title_(new QCheckBox(tr("Show the title"))),
      legend_(new QComboBox),
      legendColumns_(new QSpinBox) {
  setWindowTitle(tr("%1 export").arg(QString::fromStdString(format.id).toUpper()));
  size_->addItems({tr("Screen size (pixels)"), tr("One-column figure (8.5 cm wide)"),
                   tr("Two-column figure (17.8 cm wide)"), tr("Custom paper size")});
  width_->setRange(16, 20000);
  height_->setRange(16, 20000);
  width_->setSuffix(tr(" px"));
  height_->setSuffix(tr(" px"));
  width_->setValue(initial.width);
  height_->setValue(initial.height);
  auto* pixelForm = new QFormLayout(pixels_);
  pixelForm->setContentsMargins(0, 0, 0, 0);
  pixelForm->addRow(tr("Width (at 96 dpi)"), width_);
  pixelForm->addRow(tr("Height (at 96 dpi)"), height_);

  unit_->addItems({tr("cm"), tr("in")});
  for (QDoubleSpinBox* box : {paperWidth_, paperHeight_}) {
    box->setDecimals(2);
    box->setRange(1.27, 101.6);  // 0.5 to 40 inches, in cm
    box->setSingleStep(0.1);
  }
  textPoints_->setRange(4, 48);
  textPoints_->setDecimals(1);
  textPoints_->setSuffix(tr(" pt"));
  textPoints_->setValue(initial.textPoints);
  auto* paperForm = new QFormLayout(paper_);
  paperForm->setContentsMargins(0, 0, 0, 0);
  paperForm->addRow(tr("Unit"), unit_);
  paperForm->addRow(tr("Width"), paperWidth_);
  paperForm->addRow(tr("Height"), paperHeight_);
  paperForm->addRow(tr("Text size"), textPoints_);

  dpi_->setRange(24, 2400);
  dpi_->setSuffix(tr(" dpi"));
  dpi_->setValue(initial.figureWidthPoints > 0 && initial.dpi == kScreenDpi ? kPaperDpi
                                                                            : initial.dpi);
  dpiChosen_ = initial.dpi != (initial.figureWidthPoints > 0 ? kPaperDpi : kScreenDpi) &&
               initial.dpi != kScreenDpi;
  title_->setToolTip(
      tr("A figure in a paper has its caption instead: at paper sizes the title is "
         "left out unless this is checked."));
  title_->setChecked(exportShowsTitle(initial));
  titleChosen_ = initial.title.has_value();
  legend_->addItems({tr("Automatic"), tr("Inside the axes"), tr("Right of the axes"),
                     tr("Below the axes"), tr("None")});
  legend_->setToolTip(
      tr("Automatic: inside the axes where it covers no data, else outside them; at paper sizes "
         "outside only while the axes keep half of the figure, else above the data."));
  legend_->setCurrentIndex(static_cast<int>(initial.legend));
  legendColumns_->setRange(0, kMaxLegendColumns);
  legendColumns_->setSpecialValueText(tr("automatic"));
  legendColumns_->setValue(initial.legendColumns);
  legendColumns_->setEnabled(initial.legend != LegendPlacement::None);
  auto* legendRow = new QWidget;
  auto* legendLayout = new QHBoxLayout(legendRow);
  legendLayout->setContentsMargins(0, 0, 0, 0);
  legendLayout->addWidget(legend_, 1);
  legendLayout->addWidget(new QLabel(tr("Columns")));
  legendLayout->addWidget(legendColumns_);

  auto* form = new QFormLayout(this);
  form->addRow(tr("Size"), size_);
  form->addRow(pixels_);
  form->addRow(paper_);
  if (format.raster) form->addRow(tr("Resolution"), dpi_);
  form->addRow(tr("Title"), title_);
  form->addRow(tr("Legend"), legendRow);
  auto* note =
      new QLabel(format.raster ? tr("At a paper size the image has that size at the resolution.")
                               : tr("At a paper size the page has exactly that size."));
  note->setWordWrap(true);
  note->setStyleSheet("color: #555;");
  form->addRow(note);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);

  connect(dpi_, &QSpinBox::valueChanged, this, [this]() { dpiChosen_ |= !settingDefaults_; });
  connect(title_, &QCheckBox::toggled, this, [this]() { titleChosen_ |= !settingDefaults_; });
  connect(legend_, &QComboBox::currentIndexChanged, this, [this](int index) {
    legendColumns_->setEnabled(index != static_cast<int>(LegendPlacement::None));
  });
  connect(size_, &QComboBox::currentIndexChanged, this, &ExportDialog::sizeChosen);
  connect(unit_, &QComboBox::currentIndexChanged, this, &ExportDialog::unitChosen);
  // Editing a paper dimension makes the size custom.
  for (QDoubleSpinBox* box : {paperWidth_, paperHeight_})
    connect(box, &QDoubleSpinBox::valueChanged, this, [this, box]() {
      if (size_->currentIndex() == Custom || !box->hasFocus()) return;
      const QSignalBlocker blocker(size_);
      size_->setCurrentIndex(Custom);
    });

  int choice = Screen;
  if (initial.figureWidthPoints > 0) {
    choice = std::abs(initial.figureWidthPoints - kOneColumnFigurePoints) < 0.5   ? OneColumn
             : std::abs(initial.figureWidthPoints - kTwoColumnFigurePoints) < 0.5 ? TwoColumns
                                                                                  : Custom;
    paperWidth_->setValue(initial.figureWidthPoints / kPointsPerCm);
    paperHeight_->setValue(initial.figureHeightPoints / kPointsPerCm);
  } else {
    paperWidth_->setValue(8.5);
    paperHeight_->setValue(8.5 * kHeightPerWidth);
  }
  size_->setCurrentIndex(choice);
  sizeChosen(choice);
}

double ExportDialog::pointsPerUnit() const {
  return unit_->currentIndex() == 0 ? kPointsPerCm : kPointsPerInch;
}

void ExportDialog::unitChosen() {
  // The same physical size in the new unit.
  const double from = unitIndex_ == 0 ? kPointsPerCm : kPointsPerInch;
  const double to = pointsPerUnit();
  unitIndex_ = unit_->currentIndex();
  for (QDoubleSpinBox* box : {paperWidth_, paperHeight_}) {
    const double points = box->value() * from;
    box->setRange(36 / to, 2880 / to);
    box->setValue(points / to);
  }
}

void ExportDialog::sizeChosen(int index) {
  pixels_->setVisible(index == Screen);
  paper_->setVisible(index != Screen);
  const double width = index == OneColumn    ? kOneColumnFigurePoints
                       : index == TwoColumns ? kTwoColumnFigurePoints
                                             : 0;
  if (width > 0) {
    paperWidth_->setValue(width / pointsPerUnit());
    paperHeight_->setValue(width * kHeightPerWidth / pointsPerUnit());
  }
  // What the user has not chosen follows the size: print resolution and no title on paper.
  settingDefaults_ = true;
  if (!dpiChosen_) dpi_->setValue(index == Screen ? kScreenDpi : kPaperDpi);
  if (!titleChosen_) title_->setChecked(index == Screen);
  settingDefaults_ = false;
  adjustSize();
}

void ExportDialog::chooseSize(int index) {
  size_->setCurrentIndex(index);
}

void ExportDialog::chooseLegend(LegendPlacement placement, int columns) {
  legend_->setCurrentIndex(static_cast<int>(placement));
  legendColumns_->setValue(columns);
}

void ExportDialog::chooseTitle(bool shown) {
  title_->setChecked(shown);
}

PlotExportOptions ExportDialog::options() const {
  PlotExportOptions options;
  options.width = width_->value();
  options.height = height_->value();
  options.dpi = dpi_->value();
  options.textPoints = textPoints_->value();
  if (size_->currentIndex() != Screen) {
    options.figureWidthPoints = paperWidth_->value() * pointsPerUnit();
    options.figureHeightPoints = paperHeight_->value() * pointsPerUnit();
  }
  if (titleChosen_) options.title = title_->isChecked();  // else the size's default
  options.legend = static_cast<LegendPlacement>(legend_->currentIndex());
  options.legendColumns = legendColumns_->value();
  return options;
}

}  // namespace rfscope::ui
