#include "ui/main_window.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFrame>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <thread>

#include "core/experiments/experiment_registry.h"
#include "core/experiments/preset.h"
#include "core/io/atomic_file.h"
#include "core/io/table_csv.h"
#include "ui/about_dialog.h"
#include "ui/backend_menu.h"
#include "ui/claim_banner.h"
#include "ui/compare_menu.h"
#include "ui/data_table_dock.h"
#include "ui/export_dialog.h"
#include "ui/parameter_panel.h"
#include "ui/plot_view.h"
#include "ui/run_controller.h"
#include "ui/shortcuts_dialog.h"
#include "ui/std_string.h"
#include "ui/teaching_panel.h"
#include "ui/undo_actions.h"
#include "ui/user_presets.h"

namespace rfscope::ui {
namespace {

constexpr int kDebounceMs = 150;
// A result slower than this after a change gets its plot marked stale (quicker ones would only
// make the mark flicker while a slider moves).
constexpr int kStaleMarkMs = 400;
// The warnings area shows this many lines whole and scrolls beyond (a run can warn of dozens of
// things; the plot keeps its room).
constexpr int kWarningLines = 4;
// In presentation mode the teaching panel takes this share of the window's width.
constexpr double kPresentationTeachingShare = 0.3;
}  // namespace

MainWindow::MainWindow(SavedLayout layout, QWidget* parent)
    : QMainWindow(parent),
      experimentPicker_(new QComboBox),
      panel_(new ParameterPanel),
      plot_(new PlotView),
      teaching_(new TeachingPanel),
      savedLayout_(layout),
      controller_(new RunController(this)),
      debounce_(new QTimer(this)),
      elapsedTicker_(new QTimer(this)),
      staleTimer_(new QTimer(this)),
      progress_(new QProgressBar),
      warningsBar_(new QFrame),
      warningsScroll_(new QScrollArea),
      warnings_(new QLabel),
      claimBanner_(new ClaimBanner),
      side_(new QWidget),
      elapsedLabel_(new QLabel),
      backendLabel_(new QLabel),
      message_(new QLabel),
      cancelButton_(new QPushButton(tr("Cancel"))) {
  setWindowTitle(tr("RFScope — random-feature variance explorer"));
  // The plot, and under it the run's warnings, whole (the status bar would cut them off).
  auto* centre = new QWidget;
  auto* centreLayout = new QVBoxLayout(centre);
  centreLayout->setContentsMargins(0, 0, 0, 0);
  centreLayout->setSpacing(0);
  centreLayout->addWidget(plot_, 1);
  warningsBar_->setObjectName("warningsBar");
  warningsBar_->setStyleSheet(
      "#warningsBar { background: #fff4df; border-top: 1px solid #e3a33b; }");
  auto* warningsLayout = new QHBoxLayout(warningsBar_);
  warningsLayout->setContentsMargins(8, 4, 4, 4);
  warnings_->setWordWrap(true);
  warnings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  warnings_->setTextFormat(Qt::RichText);
  auto* closeWarnings = new QPushButton(QStringLiteral("×"));
  closeWarnings->setFlat(true);
  closeWarnings->setToolTip(tr("Hide these warnings until the next run"));
  closeWarnings->setFixedWidth(closeWarnings->sizeHint().height());
  warnings_->setObjectName("warnings");
  warnings_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  warningsScroll_->setObjectName("warningsScroll");
  warningsScroll_->setWidget(warnings_);
  warningsScroll_->setWidgetResizable(true);
  warningsScroll_->setFrameShape(QFrame::NoFrame);
  warningsScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  warningsScroll_->setStyleSheet("QScrollArea, #warnings { background: transparent; }");
  warningsScroll_->viewport()->setAutoFillBackground(false);
  warningsLayout->addWidget(warningsScroll_, 1);
  warningsLayout->addWidget(closeWarnings, 0, Qt::AlignTop);
  connect(closeWarnings, &QPushButton::clicked, this, [this]() {
    warningsWanted_ = false;
    updateWarningsBar();
  });
  warningsBar_->hide();
  centreLayout->addWidget(claimBanner_);
  centreLayout->addWidget(warningsBar_);
  setCentralWidget(centre);

  // Experiment picker, grouped by paper, above the generated parameter panel.
  QString group;
  for (const Experiment* e : allExperiments()) {
    if (qs(e->info().group) != group) {
      group = qs(e->info().group);
      experimentPicker_->addItem(group);
      auto* model = experimentPicker_->model();
      model->setData(model->index(experimentPicker_->count() - 1, 0), 0,
                     Qt::UserRole - 1);  // header
    }
    experimentPicker_->addItem("    " + qs(e->info().title), qs(e->info().id));
    experimentPicker_->setItemData(experimentPicker_->count() - 1, qs(e->info().description),
                                   Qt::ToolTipRole);
  }
  auto* sideLayout = new QVBoxLayout(side_);
  sideLayout->addWidget(new QLabel(tr("<b>Experiment</b>")));
  sideLayout->addWidget(experimentPicker_);
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setWidget(panel_);
  scroll->setFrameShape(QFrame::NoFrame);
  sideLayout->addWidget(scroll, 1);
  side_->setMinimumWidth(360);
  parametersDock_ = new QDockWidget(tr("Parameters"), this);
  parametersDock_->setObjectName("parametersDock");
  parametersDock_->setWidget(side_);
  addDockWidget(Qt::LeftDockWidgetArea, parametersDock_);

  teachingDock_ = new QDockWidget(tr("Teaching"), this);
  teachingDock_->setObjectName("teachingDock");
  teachingDock_->setWidget(teaching_);
  addDockWidget(Qt::RightDockWidgetArea, teachingDock_);
  teachingDock_->hide();
  connect(teachingDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible && presentation_) fitTeachingDock();
  });
  dataTable_ = new DataTableDock(this);
  addDockWidget(Qt::BottomDockWidgetArea, dataTable_);
  dataTable_->hide();
  undo_ = new UndoActions(this);
  connect(undo_, &UndoActions::restoreRequested, this, &MainWindow::restoreSnapshot);

  progress_->setRange(0, 1000);
  progress_->setMinimumWidth(240);
  progress_->setMaximumWidth(280);
  progress_->setTextVisible(true);
  progress_->setFormat(QString());
  // Long messages must not push the permanent widgets away; the warnings have their own area.
  message_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  statusBar()->addWidget(message_, 1);
  statusBar()->addPermanentWidget(backendLabel_);
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
    onProgress(lastFraction_);  // the time left moves between progress reports too
  });
  staleTimer_->setSingleShot(true);
  staleTimer_->setInterval(kStaleMarkMs);
  connect(staleTimer_, &QTimer::timeout, this, [this]() {
    if (plot_->seriesCount() > 0 && !plotShowsPartial_)
      plot_->setFreshness(PlotFreshness::Stale, tr("recomputing for the new settings…"));
  });
  connect(panel_, &ParameterPanel::parametersChanged, this, &MainWindow::scheduleRun);
  connect(panel_, &ParameterPanel::parametersChanged, this,
          [this]() { undo_->record(snapshot()); });
  connect(cancelButton_, &QPushButton::clicked, controller_, &RunController::cancel);
  connect(controller_, &RunController::progressChanged, this, &MainWindow::onProgress);
  connect(controller_, &RunController::partialResult, this, &MainWindow::onPartial);
  connect(controller_, &RunController::finished, this, &MainWindow::onFinished);
  connect(controller_, &RunController::cancelled, this, [this]() { onStopped(tr("cancelled")); });
  connect(controller_, &RunController::failed, this,
          [this](const QString& text) { onStopped(tr("failed: ") + text); });
  connect(experimentPicker_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const QString id = experimentPicker_->itemData(index).toString();
    if (!id.isEmpty()) selectExperiment(id.toStdString());
  });

  buildMenus();
  resize(1280, 800);
  if (savedLayout_ == SavedLayout::Restore) {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
  }
  if (!allExperiments().empty()) selectExperiment(allExperiments().front()->info().id);
}

MainWindow::~MainWindow() = default;

void MainWindow::closeEvent(QCloseEvent* event) {
  // The layout to keep is the one presentation mode stepped away from (its docks and bars).
  if (presentation_) setPresentationMode(false);
  if (savedLayout_ == SavedLayout::Restore) {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
  }
  QMainWindow::closeEvent(event);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  updateWarningsBar();
  if (presentation_) fitTeachingDock();
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open Session…"), QKeySequence::Open, this, [this]() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open session"), {}, tr("RFScope sessions (*.json)"));
    if (!path.isEmpty()) openSessionFrom(path);
  });
  file->addAction(tr("&Save Session…"), QKeySequence::Save, this, [this]() {
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save session"), exportBaseName() + "-session.json",
                                     tr("RFScope sessions (*.json)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(".json")) path += ".json";
    saveSessionTo(path);
  });
  file->addSeparator();
  file->addAction(tr("&Export Plot…"), QKeySequence(tr("Ctrl+E")), this,
                  &MainWindow::exportPlotInteractively);
  file->addAction(tr("Export &CSV…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                  &MainWindow::exportCsvInteractively);
  file->addAction(tr("Copy &Image"), QKeySequence(tr("Ctrl+Shift+C")), this, [this]() {
    QApplication::clipboard()->setPixmap(plot_->plot()->toPixmap(plot_->width(), plot_->height()));
    message_->setText(tr("Plot copied to the clipboard"));
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(undo_->undoAction());
  edit->addAction(undo_->redoAction());

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(plot_->resetViewAction());
  view->addAction(plot_->axisRangesAction());
  logXAction_ = view->addAction(tr("Logarithmic &x Axis"), QKeySequence(tr("Ctrl+L")), this,
                                [this](bool on) { plot_->setLogX(on); });
  logYAction_ = view->addAction(tr("Logarithmic &y Axis"), QKeySequence(tr("Ctrl+Shift+L")), this,
                                [this](bool on) { plot_->setLogY(on); });
  QAction* crosshair = view->addAction(tr("&Crosshair"), QKeySequence(tr("Ctrl+H")), this,
                                       [this](bool on) { plot_->setCrosshair(on); });
  QAction* bands = view->addAction(tr("Show &Bands"), QKeySequence(tr("Ctrl+B")), this,
                                   [this](bool on) { plot_->setBandsShown(on); });
  bands->setToolTip(
      tr("Filled bands (spreads, confidence bands): where several overlap, the "
         "lines alone may say more"));
  for (QAction* a : {logXAction_, logYAction_, crosshair, bands})
    a->setCheckable(true);
  bands->setChecked(true);
  view->addSeparator();
  // Both docks can be closed from their title bars; the View menu brings them back.
  QAction* parametersToggle = parametersDock_->toggleViewAction();
  parametersToggle->setText(tr("P&arameters Panel"));
  parametersToggle->setShortcut(QKeySequence(tr("F2")));
  view->addAction(parametersToggle);
  QAction* teachingToggle = teachingDock_->toggleViewAction();
  teachingToggle->setText(tr("&Teaching Panel"));
  teachingToggle->setShortcut(QKeySequence(tr("F1")));
  view->addAction(teachingToggle);
  QAction* dataTableToggle = dataTable_->toggleViewAction();
  dataTableToggle->setText(tr("&Data Table"));
  dataTableToggle->setShortcut(QKeySequence(tr("Ctrl+T")));
  view->addAction(dataTableToggle);
  presentationAction_ = view->addAction(tr("&Presentation Mode"), QKeySequence(tr("F11")), this,
                                        [this](bool on) { setPresentationMode(on); });
  presentationAction_->setCheckable(true);

  compare_ = new CompareMenu(this);
  menuBar()->addMenu(compare_);
  compare_->setCurrentRunSource([this]() -> std::optional<PinnedRun> {
    if (!lastTable_ || !experiment_) return std::nullopt;
    return PinnedRun{experiment_->info().id, lastTableParameters_, lastTable_, {}};
  });
  connect(compare_, &CompareMenu::pinsChanged, this, &MainWindow::showPinned);
  connect(compare_, &CompareMenu::message, this, [this](const QString& text) {
    message_->setText(pinsNote_.isEmpty() ? text : text + " — " + pinsNote_);
  });
  connect(compare_, &CompareMenu::failed, this,
          [this](const QString& title, const QString& text) { showError(title, text, false); });

  QMenu* params = menuBar()->addMenu(tr("&Parameters"));
  auto step = [this](const char* key, int steps) {
    return [this, key, steps]() {
      if (!panel_->stepParameter(key, steps))
        message_->setText(tr("This experiment has no parameter '%1'").arg(key));
    };
  };
  params->addAction(tr("Double d"), QKeySequence(tr("Ctrl+Up")), this, step("d", 1));
  params->addAction(tr("Halve d"), QKeySequence(tr("Ctrl+Down")), this, step("d", -1));
  params->addAction(tr("Next Seed (new draw)"), QKeySequence(tr("Ctrl+]")), this, step("seed", 1));
  params->addAction(tr("Previous Seed"), QKeySequence(tr("Ctrl+[")), this, step("seed", -1));
  params->addAction(tr("Increase σ max"), QKeySequence(tr("Ctrl+Right")), this,
                    step("sigma-max", 2));
  params->addAction(tr("Decrease σ max"), QKeySequence(tr("Ctrl+Left")), this,
                    step("sigma-max", -2));

  presetMenu_ = menuBar()->addMenu(tr("P&resets"));
  buildPresetMenu();

  backendMenu_ = new BackendMenu(this);
  menuBar()->addMenu(backendMenu_);
  controller_->setBackendChoice(backendMenu_->choice());
  backendLabel_->setText(backendMenu_->describe("cpu"));
  connect(backendMenu_, &BackendMenu::choiceChanged, controller_, &RunController::setBackendChoice);
  connect(controller_, &RunController::backendUsed, this,
          [this](const QString& id, const QString& note) {
            backendLabel_->setText(backendMenu_->describe(id));
            backendLabel_->setToolTip(note);  // why Automatic stayed on the CPU
            lastBackend_ = id;
          });

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard Shortcuts…"), QKeySequence(tr("Ctrl+/")), this,
                  &MainWindow::showShortcuts);
  help->addAction(tr("&About RFScope…"), this, &MainWindow::showAbout);
}

void MainWindow::showShortcuts() {
  auto* dialog = new ShortcutsDialog(windowShortcuts(*this), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

void MainWindow::showAbout() {
  auto* dialog = new AboutDialog(*backendMenu_, lastBackend_, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

void MainWindow::buildPresetMenu() {
  presetMenu_->clear();
  for (bool teachingDemos : {false, true}) {
    presetMenu_->addSection(teachingDemos ? tr("Teaching demos") : tr("Paper figures"));
    for (const Preset& preset : allPresets()) {
      if (preset.teaching != teachingDemos) continue;
      QAction* action = presetMenu_->addAction(qs(preset.title), this, [this, id = preset.id]() {
        QString error;
        if (!applyPreset(id, &error)) showError(tr("Preset"), error, false);
      });
      action->setToolTip(qs(preset.description));
      action->setStatusTip(qs(preset.description));
    }
  }
  const QStringList names = userPresetNames();
  if (!names.isEmpty()) presetMenu_->addSection(tr("My presets"));
  for (const QString& name : names) {
    presetMenu_->addAction(name, this, [this, name]() {
      try {
        applySession(loadUserPreset(name));
        userPreset_ = name;
        updateWindowTitle();
      } catch (const std::exception& e) {
        showError(tr("Preset"), QString::fromUtf8(e.what()), false);
      }
    });
  }
  presetMenu_->addSeparator();
  presetMenu_->addAction(tr("Save Current as Preset…"), this,
                         &MainWindow::saveUserPresetInteractively);
}

void MainWindow::selectExperiment(const std::string& id) {
  const Experiment* experiment = findExperiment(id);
  if (!experiment) return;
  presetId_.clear();
  const auto specs = experiment->parameters();
  Session session;
  session.experimentId = id;
  session.parameters = ParameterSet::defaults(specs);
  applySession(session);
}

bool MainWindow::applyPreset(const std::string& presetId, QString* error) {
  const Preset* preset = findPreset(presetId);
  const Experiment* experiment = preset ? findExperiment(preset->experimentId) : nullptr;
  if (!experiment) {
    if (error) *error = tr("Unknown preset '%1'").arg(qs(presetId));
    return false;
  }
  std::vector<ParameterError> errors;
  Session session;
  session.experimentId = preset->experimentId;
  session.parameters = presetParameters(*preset, *experiment, errors);
  // The axes that show the preset's claim (e.g. heavy tails on a log y axis).
  session.view.xLog = preset->xLog;
  session.view.yLog = preset->yLog;
  if (!errors.empty()) {
    if (error) *error = qs(errors.front().message);
    return false;
  }
  applySession(session, preset->id);
  message_->setText(qs(preset->title) + " — " + qs(preset->description));
  return true;
}

void MainWindow::updateWindowTitle() {
  const Preset* preset = presetId_.empty() ? nullptr : findPreset(presetId_);
  const QString shown = preset                   ? qs(preset->title)
                        : !userPreset_.isEmpty() ? userPreset_
                        : experiment_            ? qs(experiment_->info().title)
                                                 : QString();
  setWindowTitle(shown.isEmpty() ? tr("RFScope — random-feature variance explorer")
                                 : shown + " — RFScope");
}

void MainWindow::applySession(const Session& session, const std::string& presetId) {
  const Experiment* experiment = findExperiment(session.experimentId);
  if (!experiment) return;
  const bool sameExperiment = experiment == experiment_;
  experiment_ = experiment;
  presetId_.clear();  // applyPreset sets it again
  userPreset_.clear();
  presetId_ = presetId;
  updateWindowTitle();
  const int index = experimentPicker_->findData(qs(session.experimentId));
  if (index >= 0 && index != experimentPicker_->currentIndex()) {
    const QSignalBlocker blocker(experimentPicker_);
    experimentPicker_->setCurrentIndex(index);
  }
  panel_->setSpecs(experiment->parameters(), session.parameters);
  if (!sameExperiment) {
    plot_->clear();
    lastTable_.reset();
    shownTable_.reset();
    dataTable_->setTable(nullptr);
    plotShowsPartial_ = false;
    showWarnings({});
  }
  plot_->setViewState(session.view);
  logXAction_->setChecked(plot_->logX());
  logYAction_->setChecked(plot_->logY());
  teaching_->showFor(*experiment, session.parameters);
  undo_->record(snapshot(), HistoryStep::Load);
  if (session.result)
    showSavedResult(session);
  else
    scheduleRun();
}

Session MainWindow::currentSession() const {
  Session session;
  if (experiment_) session.experimentId = experiment_->info().id;
  session.parameters = panel_->parameters();
  session.view = plot_->viewState();
  return session;
}

void MainWindow::scheduleRun() {
  debounce_->start();
  if (!staleTimer_->isActive()) staleTimer_->start();
}

void MainWindow::startRun() {
  if (!experiment_) return;
  const ParameterSet params = panel_->parameters();
  teaching_->showFor(*experiment_, params, presetId_);
  // Validation reads and checks a data file (mnist, csv) the first time one is chosen: that
  // happens off the GUI thread. Only the newest validation may start a run.
  const Experiment* experiment = experiment_;
  const std::uint64_t ticket = ++validationTicket_;
  auto* watcher = new QFutureWatcher<std::vector<ParameterError>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this,
          [this, watcher, experiment, params, ticket] {
            watcher->deleteLater();
            if (ticket == validationTicket_ && experiment == experiment_)
              runValidated(params, watcher->result());
          });
  watcher->setFuture(
      QtConcurrent::run([experiment, params] { return experiment->validate(params); }));
}

void MainWindow::runValidated(const ParameterSet& params,
                              const std::vector<ParameterError>& errors) {
  panel_->showErrors(errors);
  if (!errors.empty() || panel_->hasInputErrors()) {
    controller_->cancel();
    staleTimer_->stop();
    const QString why =
        errors.empty() ? tr("a value is still being typed") : describeError(errors.front());
    message_->setText(tr("Not run: ") + why);
    // The plot keeps the last valid run, marked as such.
    if (plot_->seriesCount() > 0)
      plot_->setFreshness(PlotFreshness::Stale, tr("the settings are invalid: ") + why);
    return;
  }
  message_->setText(tr("Running %1…").arg(qs(experiment_->info().title)));
  progress_->setValue(0);
  lastFraction_ = 0;
  remaining_.restart();
  progress_->setFormat(QStringLiteral("0%"));
  plotShowsPartial_ = false;
  elapsed_.start();
  setRunningUi(true);
  lastRunParameters_ = params;
  lastRunExperimentId_ = experiment_->info().id;
  controller_->start(experiment_, params);
}

void MainWindow::onProgress(double fraction) {
  if (!controller_->isRunning()) return;
  lastFraction_ = fraction;
  remaining_.update(fraction, elapsed_.elapsed() / 1000.0);
  progress_->setValue(static_cast<int>(fraction * progress_->maximum()));
  const QString text = QString::fromStdString(remaining_.describe());
  progress_->setFormat(text);
  if (plotShowsPartial_ && plot_->freshness() == PlotFreshness::Partial)
    plot_->setFreshness(PlotFreshness::Partial, tr("still running: %1").arg(text));
}

void MainWindow::onPartial(std::shared_ptr<const Table> table) {
  staleTimer_->stop();
  showTable(table, lastRunParameters_, tr("partial"));
  plotShowsPartial_ = true;
  plot_->setFreshness(PlotFreshness::Partial,
                      tr("still running: %1").arg(QString::fromStdString(remaining_.describe())));
}

void MainWindow::onFinished(std::shared_ptr<const RunResult> result, double seconds) {
  setRunningUi(false);
  staleTimer_->stop();
  progress_->setValue(progress_->maximum());
  progress_->setFormat(QStringLiteral("100%"));
  lastTable_ = std::shared_ptr<const Table>(result, &result->table);
  lastTableParameters_ = lastRunParameters_;
  lastRunWarnings_ = result->warnings;
  lastRunSeconds_ = seconds;
  plotShowsPartial_ = false;
  showTable(lastTable_, lastTableParameters_);
  plot_->setFreshness(PlotFreshness::Current);
  const int warnings = showRunWarnings(result->warnings, result->table);
  showClaimVerdict(result->table);
  QString text = tr("Done in %1 s").arg(seconds, 0, 'f', 3);
  if (warnings > 0) text += " — " + tr("⚠ %n warning(s), shown under the plot", "", warnings);
  if (!pinsNote_.isEmpty()) text += " — " + pinsNote_;
  message_->setText(text);
  emit runFinished();
}

int MainWindow::showRunWarnings(const std::vector<std::string>& runWarnings, const Table& table) {
  QStringList warnings;
  for (const auto& warning : runWarnings)
    warnings << qs(warning);
  // Warnings attached to series only, when the run gave none of its own.
  if (warnings.isEmpty())
    for (const auto& hint : table.hints.series)
      if (!hint.warning.empty()) warnings << qs(hint.label) + ": " + qs(hint.warning);
  showWarnings(warnings);
  return static_cast<int>(warnings.size());
}

void MainWindow::showTable(std::shared_ptr<const Table> table, const ParameterSet& parameters,
                           const QString& note) {
  plot_->setTable(*table);
  shownTable_ = table;
  shownParameters_ = parameters;
  dataTable_->setTable(std::move(table), note);
  showPinned();
}

void MainWindow::showPinned() {
  pinsNote_.clear();
  if (!shownTable_ || !experiment_) return;
  plot_->setPinnedCurves(compare_->pins().drawable(experiment_->info().id, shownParameters_,
                                                   *shownTable_, &pinsNote_));
}

// A session's saved result, shown as it was computed: nothing runs until a setting changes.
void MainWindow::showSavedResult(const Session& session) {
  debounce_->stop();
  staleTimer_->stop();
  ++validationTicket_;    // a validation under way must not start a run
  controller_->cancel();  // nor may a run of the previous settings replace it
  lastTable_ = std::make_shared<const Table>(session.result->table);
  lastTableParameters_ = lastRunParameters_ = session.parameters;
  lastRunExperimentId_ = session.experimentId;
  lastRunWarnings_ = session.result->warnings;
  lastRunSeconds_ = session.result->seconds.value_or(0);
  plotShowsPartial_ = false;
  showTable(lastTable_, session.parameters, tr("saved result"));
  plot_->setFreshness(PlotFreshness::Saved,
                      tr("opened from the session: change a setting to rerun"));
  showRunWarnings(lastRunWarnings_, *lastTable_);
  showClaimVerdict(*lastTable_);
  message_->setText(tr("Showing the result saved in the session, not recomputed"));
  // After the caller (e.g. the screenshot option, connected once the session is open) is ready.
  QMetaObject::invokeMethod(this, &MainWindow::runFinished, Qt::QueuedConnection);
}

// The result on screen when it is that of the settings shown, for a session to keep.
std::optional<SessionResult> MainWindow::resultOfShownSettings() const {
  if (!lastTable_ || !experiment_ || shownTable_ != lastTable_ ||
      !(lastTableParameters_ == panel_->parameters()))
    return std::nullopt;
  return SessionResult{*lastTable_, lastRunWarnings_, lastRunSeconds_};
}

ParameterSnapshot MainWindow::snapshot() const {
  return {experiment_ ? experiment_->info().id : std::string(), panel_->parameters(), presetId_};
}

// Undo and redo: the snapshot's settings, run again.
void MainWindow::restoreSnapshot(const ParameterSnapshot& snapshot) {
  if (!experiment_ || experiment_->info().id != snapshot.experimentId) {
    Session session;
    session.experimentId = snapshot.experimentId;
    session.parameters = snapshot.parameters;
    applySession(session, snapshot.presetId);
    return;
  }
  panel_->setParameters(snapshot.parameters);
  presetId_ = snapshot.presetId;
  updateWindowTitle();
  scheduleRun();
}

void MainWindow::onStopped(const QString& why) {
  setRunningUi(false);
  staleTimer_->stop();
  const QString percent = QString::number(std::floor(100 * lastFraction_)) + "%";
  message_->setText(why.left(1).toUpper() + why.mid(1));
  progress_->setFormat(percent);
  if (plotShowsPartial_) {
    // What streamed in before the stop stays, labelled as incomplete.
    plot_->setFreshness(PlotFreshness::Partial, tr("run %1 at %2").arg(why, percent));
  } else if (plot_->seriesCount() > 0) {
    plot_->setFreshness(PlotFreshness::Stale, tr("the new run was %1").arg(why));
  }
}

void MainWindow::showWarnings(const QStringList& warnings) {
  QString html;
  for (const QString& warning : warnings)
    html += (html.isEmpty() ? "" : "<br>") + QStringLiteral("⚠ ") + warning.toHtmlEscaped();
  warnings_->setText(html);
  warningsWanted_ = !warnings.isEmpty();
  warningsScroll_->verticalScrollBar()->setValue(0);
  updateWarningsBar();
}

void MainWindow::updateWarningsBar() {
  warningsBar_->setVisible(warningsWanted_ && !presentation_);
  if (!warningsBar_->isVisibleTo(this)) return;
  const int width = std::max(1, warningsScroll_->viewport()->width());
  const int whole = warnings_->heightForWidth(width);
  const int limit = kWarningLines * warnings_->fontMetrics().lineSpacing() + 4;
  // Whole when it fits; beyond the limit, scrolled.
  warningsScroll_->setFixedHeight(std::max(1, std::min(whole, limit)));
  warningsScroll_->setVerticalScrollBarPolicy(whole > limit ? Qt::ScrollBarAlwaysOn
                                                            : Qt::ScrollBarAlwaysOff);
}

// The preset's claim checked on the table: at the preset's values, or at the user's changes.
void MainWindow::showClaimVerdict(const Table& table) {
  const Preset* preset = presetId_.empty() ? nullptr : findPreset(presetId_);
  if (!preset || preset->claim.assertions.empty() || !experiment_) {
    claimBanner_->hide();
    return;
  }
  std::vector<ParameterError> errors;
  const ParameterSet presetValues = presetParameters(*preset, *experiment_, errors);
  const ParameterSet current = panel_->parameters();
  QStringList changes;
  for (const auto& [key, value] : current.values())
    if (const ParameterValue* original = presetValues.find(key);
        !original || !sameParameterValue(*original, value))
      changes << qs(key) + " = " + qs(formatParameterValue(value));
  claimBanner_->showVerdict(preset->claim, checkClaim(preset->claim, table), changes.join(", "));
}

QString MainWindow::claimText() const {
  return claimBanner_->text();
}

QString MainWindow::warningsText() const {
  return warningsBar_->isVisibleTo(this) ? warnings_->text() : QString();
}

QString MainWindow::progressText() const {
  return progress_->text();
}

QString MainWindow::describeError(const ParameterError& error) const {
  return panel_->humanize(error.message);
}

QString MainWindow::exportBaseName() const {
  if (!presetId_.empty()) return qs(presetId_);
  return experiment_ ? qs(experiment_->info().id) : QStringLiteral("rfscope");
}

void MainWindow::setRunningUi(bool running) {
  cancelButton_->setEnabled(running);
  if (running)
    elapsedTicker_->start();
  else
    elapsedTicker_->stop();
  if (elapsed_.isValid())
    elapsedLabel_->setText(QString::number(elapsed_.elapsed() / 1000.0, 'f', 2) + " s");
}

QString MainWindow::statusMessage() const {
  return message_->text();
}

void MainWindow::showError(const QString& title, const QString& message, bool quiet) {
  message_->setText(title + ": " + message);
  if (!quiet) QMessageBox::warning(this, title, message);
}

bool MainWindow::exportPlotTo(const QString& path, const PlotExportOptions& options, bool quiet) {
  const FigureWriter* writer = figureWriterForPath(path);
  if (!writer) {
    showError(tr("Export failed"),
              tr("'%1': use a %2 file name").arg(path, extensionList(OutputKind::Figure)), quiet);
    return false;
  }
  try {
    if (const auto result = exportPlot(*plot_, path, *writer, options); !result) {
      showError(tr("Export failed"), QString::fromStdString(result.problem), quiet);
      return false;
    }
  } catch (const std::exception& e) {
    showError(tr("Export failed"), QString::fromUtf8(e.what()), quiet);
    return false;
  }
  message_->setText(tr("Plot written to %1").arg(path));
  return true;
}

bool MainWindow::exportCsvTo(const QString& path, bool quiet) {
  if (!lastTable_) {
    showError(tr("Export failed"), tr("No completed run to export yet"), quiet);
    return false;
  }
  try {
    // The format of the file name's extension (CSV, the first table format, when it has none).
    const std::string file = QFile::encodeName(path).toStdString();
    const OutputFormat* format = outputFormatForPath(file, OutputKind::Table);
    if (!format) format = outputFormats(OutputKind::Table).front();
    writeFileAtomically(
        file, format->tableWriter->write({lastRunExperimentId_, lastTableParameters_, *lastTable_,
                                          lastRunWarnings_, lastRunSeconds_}));
  } catch (const std::exception& e) {
    showError(tr("Export failed"), QString::fromUtf8(e.what()), quiet);
    return false;
  }
  message_->setText(tr("Table written to %1").arg(path));
  return true;
}

bool MainWindow::saveSessionTo(const QString& path, bool quiet) {
  Session session = currentSession();
  session.result = resultOfShownSettings();
  SessionResultSaved saved = SessionResultSaved::None;
  try {
    saved = saveSession(path, session);
  } catch (const std::exception& e) {
    showError(tr("Saving the session failed"), QString::fromUtf8(e.what()), quiet);
    return false;
  }
  message_->setText(
      saved == SessionResultSaved::Kept ? tr("Session saved to %1, with its result").arg(path)
      : saved == SessionResultSaved::TooLarge
          ? tr("Session saved to %1; its result is too large to keep and will be recomputed when "
               "the session is opened")
                .arg(path)
          : tr("Session saved to %1").arg(path));
  return true;
}

bool MainWindow::openSessionFrom(const QString& path, bool quiet) {
  Session session;
  try {
    session = loadSession(path);  // fully validated before anything changes
  } catch (const std::exception& e) {
    showError(tr("Cannot open the session"), QString::fromUtf8(e.what()), quiet);
    return false;
  }
  applySession(session);
  return true;
}

void MainWindow::exportPlotInteractively() {
  QString selected;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export plot"),
      exportBaseName() + "." +
          QString::fromStdString(outputFormats(OutputKind::Figure).front()->extension),
      fileDialogFilter(OutputKind::Figure), &selected);
  if (path.isEmpty()) return;
  if (!figureWriterForPath(path))
    path += QString::fromStdString("." + formatOfFilter(OutputKind::Figure, selected).extension);
  const OutputFormat& format = figureWriterForPath(path)->format();
  PlotExportOptions initial = exportOptions_;
  if (initial.figureWidthPoints <= 0 && !format.raster) {
    // Vector files default to the size on screen.
    initial.width = plot_->width();
    initial.height = plot_->height();
  }
  ExportDialog dialog(format, initial, this);
  if (dialog.exec() != QDialog::Accepted) return;
  exportOptions_ = dialog.options();
  exportPlotTo(path, exportOptions_);
}

void MainWindow::exportCsvInteractively() {
  QString selected;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export table"),
      exportBaseName() + "." +
          QString::fromStdString(outputFormats(OutputKind::Table).front()->extension),
      fileDialogFilter(OutputKind::Table), &selected);
  if (path.isEmpty()) return;
  if (!outputFormatForPath(QFile::encodeName(path).toStdString(), OutputKind::Table))
    path += QString::fromStdString("." + formatOfFilter(OutputKind::Table, selected).extension);
  exportCsvTo(path);
}

void MainWindow::saveUserPresetInteractively() {
  bool ok = false;
  const QString name =
      QInputDialog::getText(this, tr("Save preset"), tr("Name:"), QLineEdit::Normal, {}, &ok)
          .trimmed();
  if (!ok || name.isEmpty()) return;
  saveUserPreset(name, currentSession());
  buildPresetMenu();
  message_->setText(tr("Preset '%1' saved").arg(name));
}

void MainWindow::setTeachingPanelVisible(bool on) {
  teachingDock_->setVisible(on);
}

void MainWindow::setPresentationMode(bool on) {
  if (presentationAction_->isChecked() != on) presentationAction_->setChecked(on);
  if (on == presentation_) return;
  presentation_ = on;
  if (on) {
    parametersBeforePresentation_ = parametersDock_->isVisible();
    statusBarBeforePresentation_ = statusBar()->isVisible();
  }
  plot_->setPresentationMode(on);
  panel_->setPresentationMode(on);
  teaching_->setPresentationMode(on);
  claimBanner_->setFont(on ? QFont(font().family(), font().pointSize() + 4) : font());
  // The larger panel font needs a wider dock, or the widest controls (the kernel's formula) clip.
  side_->setMinimumWidth(on ? std::max(360, panel_->sizeHint().width() + 40) : 360);
  parametersDock_->setVisible(on ? false : parametersBeforePresentation_);
  statusBar()->setVisible(on ? false : statusBarBeforePresentation_);
  updateWarningsBar();
  if (on)
    showFullScreen();
  else
    showNormal();
  if (on) fitTeachingDock();
}

void MainWindow::fitTeachingDock() {
  if (!teachingDock_->isVisible()) return;
  const int wanted = static_cast<int>(width() * kPresentationTeachingShare);
  if (std::abs(teachingDock_->width() - wanted) > 8)
    resizeDocks({teachingDock_}, {wanted}, Qt::Horizontal);
}

}  // namespace rfscope::ui
