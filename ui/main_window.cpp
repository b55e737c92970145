#include "ui/main_window.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include "core/experiments/experiment_registry.h"
#include "ui/parameter_panel.h"
#include "ui/plot_view.h"
#include "ui/run_controller.h"

namespace rfscope::ui {
namespace {

constexpr int kDebounceMs = 150;
QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      experimentPicker_(new QComboBox),
      panel_(new ParameterPanel),
      plot_(new PlotView),
      controller_(new RunController(this)),
      debounce_(new QTimer(this)),
      elapsedTicker_(new QTimer(this)),
      progress_(new QProgressBar),
      elapsedLabel_(new QLabel),
      message_(new QLabel),
      cancelButton_(new QPushButton(tr("Cancel"))) {
  setWindowTitle(tr("RFScope — random-feature variance explorer"));
  setCentralWidget(plot_);

  // Experiment picker, grouped by paper, above the generated parameter panel.
  QString group;
  for (const Experiment* e : allExperiments()) {
    if (qs(e->info().group) != group) {
      group = qs(e->info().group);
      experimentPicker_->addItem(group);
      auto* model = experimentPicker_->model();
      model->setData(model->index(experimentPicker_->count() - 1, 0), 0, Qt::UserRole - 1);  // disabled header
    }
    experimentPicker_->addItem("    " + qs(e->info().title), qs(e->info().id));
    experimentPicker_->setItemData(experimentPicker_->count() - 1, qs(e->info().description),
                                   Qt::ToolTipRole);
  }
  auto* side = new QWidget;
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->addWidget(new QLabel(tr("<b>Experiment</b>")));
  sideLayout->addWidget(experimentPicker_);
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setWidget(panel_);
  scroll->setFrameShape(QFrame::NoFrame);
  sideLayout->addWidget(scroll, 1);
  auto* dock = new QDockWidget(tr("Parameters"), this);
  dock->setObjectName("parametersDock");
  side->setMinimumWidth(360);
  dock->setWidget(side);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::LeftDockWidgetArea, dock);

  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(200);
  progress_->setTextVisible(false);
  statusBar()->addWidget(message_, 1);
  statusBar()->addPermanentWidget(elapsedLabel_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancelButton_);
  setRunningUi(false);

  debounce_->setSingleShot(true);
  debounce_->setInterval(kDebounceMs);
  elapsedTicker_->setInterval(100);
  connect(debounce_, &QTimer::timeout, this, &MainWindow::startRun);
  connect(elapsedTicker_, &QTimer::timeout, this, [this]() {
    elapsedLabel_->setText(QString::number(elapsed_.elapsed() / 1000.0, 'f', 1) + " s");
  });
  connect(panel_, &ParameterPanel::parametersChanged, this, &MainWindow::scheduleRun);
  connect(cancelButton_, &QPushButton::clicked, controller_, &RunController::cancel);
  connect(controller_, &RunController::progressChanged, this, &MainWindow::onProgress);
  connect(controller_, &RunController::partialResult, this, &MainWindow::onPartial);
  connect(controller_, &RunController::finished, this, &MainWindow::onFinished);
  connect(controller_, &RunController::cancelled, this, &MainWindow::onCancelled);
  connect(controller_, &RunController::failed, this, &MainWindow::onFailed);
  connect(experimentPicker_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const QString id = experimentPicker_->itemData(index).toString();
    if (!id.isEmpty()) selectExperiment(id.toStdString());
  });

  resize(1280, 800);
  if (!allExperiments().empty()) selectExperiment(allExperiments().front()->info().id);
}

MainWindow::~MainWindow() = default;

void MainWindow::selectExperiment(const std::string& id) {
  const Experiment* experiment = findExperiment(id);
  if (!experiment) return;
  experiment_ = experiment;
  const int index = experimentPicker_->findData(qs(id));
  if (index >= 0 && index != experimentPicker_->currentIndex()) {
    const QSignalBlocker blocker(experimentPicker_);
    experimentPicker_->setCurrentIndex(index);
  }
  const auto specs = experiment->parameters();
  panel_->setSpecs(specs, ParameterSet::defaults(specs));
  plot_->clear();
  scheduleRun();
}

void MainWindow::scheduleRun() { debounce_->start(); }

void MainWindow::startRun() {
  if (!experiment_) return;
  const ParameterSet params = panel_->parameters();
  const auto errors = experiment_->validate(params);
  panel_->showErrors(errors);
  if (!errors.empty()) {
    controller_->cancel();
    message_->setText(tr("Not run: ") + qs(errors.front().message));
    return;
  }
  message_->setText(tr("Running %1…").arg(qs(experiment_->info().title)));
  progress_->setValue(0);
  elapsed_.start();
  setRunningUi(true);
  controller_->start(experiment_, params);
}

void MainWindow::onProgress(double fraction) {
  progress_->setValue(static_cast<int>(fraction * progress_->maximum()));
}

void MainWindow::onPartial(std::shared_ptr<const Table> table) { plot_->setTable(*table); }

void MainWindow::onFinished(std::shared_ptr<const RunResult> result, double seconds) {
  setRunningUi(false);
  progress_->setValue(progress_->maximum());
  lastTable_ = std::shared_ptr<const Table>(result, &result->table);
  plot_->setTable(result->table);
  QString text = tr("Done in %1 s").arg(seconds, 0, 'f', 3);
  for (const auto& warning : result->warnings) text += " — ⚠ " + qs(warning);
  message_->setText(text);
  emit runFinished();
}

void MainWindow::onCancelled() {
  setRunningUi(false);
  message_->setText(tr("Cancelled"));
}

void MainWindow::onFailed(const QString& message) {
  setRunningUi(false);
  message_->setText(tr("Failed: ") + message);
}

void MainWindow::setRunningUi(bool running) {
  cancelButton_->setEnabled(running);
  if (running) elapsedTicker_->start();
  else elapsedTicker_->stop();
  if (elapsed_.isValid())
    elapsedLabel_->setText(QString::number(elapsed_.elapsed() / 1000.0, 'f', 2) + " s");
}

}  // namespace rfscope::ui
