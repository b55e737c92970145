#pragma once
// The main window: experiment picker and generated parameter panel in a dock, the plot in the
// centre with the run's warnings under it, a teaching dock, progress (percentage and time left),
// elapsed time, backend and cancel in the status bar, and menus for export, sessions, presets and
// the view. Any parameter change re-runs the experiment (debounced) off the GUI thread; the
// previous run is cancelled, and until the new result arrives the plot is marked as stale (or
// partial, for a run streaming in or cancelled part-way). Runs can be pinned for comparison
// (Compare menu), the plotted table is shown in a data table dock (View → Data Table), setting
// changes can be undone (Edit menu), and a session saved with its result reopens without
// recomputing.

#include <QElapsedTimer>
#include <QMainWindow>
#include <memory>

#include "core/experiments/experiment.h"
#include "core/io/remaining_time.h"
#include "ui/parameter_history.h"
#include "ui/plot_export.h"
#include "ui/session.h"

class QAction;
class QComboBox;
class QDockWidget;
class QFrame;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTimer;

namespace rfscope::ui {

class ClaimBanner;
class CompareMenu;
class DataTableDock;
class UndoActions;

class BackendMenu;
class ParameterPanel;
class PlotView;
class RunController;
class TeachingPanel;

// Whether a window takes the layout (geometry, docks) the user last left, and keeps its own for
// the next one: screenshots use the default layout, whatever the last session did.
enum class SavedLayout { Restore, Ignore };

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(SavedLayout layout = SavedLayout::Restore, QWidget* parent = nullptr);
  ~MainWindow() override;

  void selectExperiment(const std::string& id);
  // The preset's claim under the plot with its verdict on the last table ("" when none is shown).
  QString claimText() const;
  // Applies a built-in preset; false (with the reason in *error) if unknown or invalid.
  bool applyPreset(const std::string& presetId, QString* error = nullptr);
  // Shows the session (as the preset presetId, if given); with a result, that result is shown
  // without running.
  void applySession(const Session& session, const std::string& presetId = {});
  Session currentSession() const;  // experiment, parameters and view (no result)

  // File operations; each reports failures in a dialog unless quiet, and returns success.
  bool exportPlotTo(const QString& path, const PlotExportOptions& options, bool quiet = false);
  bool exportCsvTo(const QString& path, bool quiet = false);
  bool saveSessionTo(const QString& path, bool quiet = false);
  bool openSessionFrom(const QString& path, bool quiet = false);

  // F11: full screen for an audience — the plot with large fonts, the teaching panel (if shown)
  // wide enough for its headings; the Parameters dock, status bar and warnings out of the way
  // (F2 brings the dock back, with large controls). Leaving restores what was shown.
  void setPresentationMode(bool on);
  bool presentationMode() const { return presentation_; }
  void setTeachingPanelVisible(bool on);

  // Help menu: the shortcuts read from the window's actions, and the versions and backends.
  void showShortcuts();
  void showAbout();

  const Experiment* currentExperiment() const { return experiment_; }
  ParameterPanel* parameterPanel() const { return panel_; }
  PlotView* plotView() const { return plot_; }
  RunController* runController() const { return controller_; }
  TeachingPanel* teachingPanel() const { return teaching_; }
  CompareMenu* compareMenu() const { return compare_; }
  DataTableDock* dataTable() const { return dataTable_; }
  UndoActions* undoActions() const { return undo_; }
  std::shared_ptr<const Table> lastTable() const { return lastTable_; }
  QString statusMessage() const;
  QString warningsText() const;  // the warnings area's text, empty when hidden
  QString progressText() const;  // the progress bar's text ("45% · about 12 s left")
  // The stem of default export file names: the preset's id if one is applied, else the
  // experiment's id.
  QString exportBaseName() const;

 signals:
  // A run completed, or a session's saved result was opened, and its table is on screen.
  void runFinished();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void buildMenus();
  void buildPresetMenu();
  void scheduleRun();
  void startRun();
  void runValidated(const ParameterSet& params, const std::vector<ParameterError>& errors);
  void onProgress(double fraction);
  void onPartial(std::shared_ptr<const Table> table);
  void onFinished(std::shared_ptr<const RunResult> result, double seconds);
  void onStopped(const QString& why);  // cancelled or failed
  void setRunningUi(bool running);
  void showWarnings(const QStringList& warnings);
  void
  updateWarningsBar();  // shown or hidden, and its height: whole up to a few lines, then scrolled
  void fitTeachingDock();  // presentation mode: wide enough for the headings
  QString describeError(const ParameterError& error) const;
  void showError(const QString& title, const QString& message, bool quiet);
  void exportPlotInteractively();
  void exportCsvInteractively();
  void saveUserPresetInteractively();
  void showClaimVerdict(const Table& table);
  int showRunWarnings(const std::vector<std::string>& runWarnings, const Table& table);
  // Puts a table on the plot, in the data table and under the pins that fit it.
  void showTable(std::shared_ptr<const Table> table, const ParameterSet& parameters,
                 const QString& note = {});
  void showPinned();
  void showSavedResult(const Session& session);
  std::optional<SessionResult> resultOfShownSettings() const;
  ParameterSnapshot snapshot() const;
  void restoreSnapshot(const ParameterSnapshot& snapshot);
  // "Preset title — RFScope" while a preset is shown, else "Experiment title — RFScope".
  void updateWindowTitle();

  const Experiment* experiment_ = nullptr;
  QComboBox* experimentPicker_;
  ParameterPanel* panel_;
  PlotView* plot_;
  TeachingPanel* teaching_;
  QDockWidget* parametersDock_ = nullptr;
  QDockWidget* teachingDock_ = nullptr;
  SavedLayout savedLayout_;
  RunController* controller_;
  QTimer* debounce_;
  QTimer* elapsedTicker_;
  QTimer* staleTimer_;  // marks the plot stale when a changed setting's result is slow to come
  QElapsedTimer elapsed_;
  RemainingTime remaining_;
  double lastFraction_ = 0;
  bool plotShowsPartial_ = false;  // the plot holds a partial table of the current run
  QProgressBar* progress_;
  QFrame* warningsBar_;
  QScrollArea* warningsScroll_;
  QLabel* warnings_;
  bool warningsWanted_ = false;  // warnings to show (not dismissed), presentation mode aside
  ClaimBanner* claimBanner_;
  QWidget* side_;
  QLabel* elapsedLabel_;
  QLabel* backendLabel_;
  QLabel* message_;
  QPushButton* cancelButton_;
  QMenu* presetMenu_ = nullptr;
  std::uint64_t validationTicket_ = 0;  // the newest validation started by startRun
  BackendMenu* backendMenu_ = nullptr;
  QAction* logXAction_ = nullptr;
  QAction* logYAction_ = nullptr;
  QAction* presentationAction_ = nullptr;
  std::shared_ptr<const Table> lastTable_;
  ParameterSet lastTableParameters_;         // those lastTable_ was computed with
  std::shared_ptr<const Table> shownTable_;  // on the plot: lastTable_ or a partial one
  ParameterSet shownParameters_;
  CompareMenu* compare_ = nullptr;
  QString pinsNote_;  // why some pins are not drawn, "" when all are
  DataTableDock* dataTable_ = nullptr;
  UndoActions* undo_ = nullptr;
  ParameterSet lastRunParameters_;
  std::string lastRunExperimentId_;
  std::vector<std::string> lastRunWarnings_;
  double lastRunSeconds_ = 0;
  std::string presetId_;  // the preset applied last, while its experiment is shown
  QString userPreset_;    // the user preset applied last, while nothing changed the experiment
  QString lastBackend_;   // the backend the last run's Monte Carlo used ("cpu", "cuda")
  bool presentation_ = false;
  // What presentation mode hid, shown again when it ends.
  bool parametersBeforePresentation_ = true;
  bool statusBarBeforePresentation_ = true;
  PlotExportOptions exportOptions_;
};

}  // namespace rfscope::ui
