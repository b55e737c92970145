#pragma once
// The main window: experiment picker and generated parameter panel in a dock, the plot in the
// centre, progress/elapsed time/cancel in the status bar. Any parameter change re-runs the
// experiment (debounced) off the GUI thread.

#include <QElapsedTimer>
#include <QMainWindow>
#include <memory>

#include "core/experiments/experiment.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace rfscope::ui {

class ParameterPanel;
class PlotView;
class RunController;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  void selectExperiment(const std::string& id);
  const Experiment* currentExperiment() const { return experiment_; }
  ParameterPanel* parameterPanel() const { return panel_; }
  PlotView* plotView() const { return plot_; }
  RunController* runController() const { return controller_; }
  std::shared_ptr<const Table> lastTable() const { return lastTable_; }

 signals:
  void runFinished();  // a run completed and its table is on screen

 private:
  void scheduleRun();
  void startRun();
  void onProgress(double fraction);
  void onPartial(std::shared_ptr<const Table> table);
  void onFinished(std::shared_ptr<const RunResult> result, double seconds);
  void onCancelled();
  void onFailed(const QString& message);
  void setRunningUi(bool running);

  const Experiment* experiment_ = nullptr;
  QComboBox* experimentPicker_;
  ParameterPanel* panel_;
  PlotView* plot_;
  RunController* controller_;
  QTimer* debounce_;
  QTimer* elapsedTicker_;
  QElapsedTimer elapsed_;
  QProgressBar* progress_;
  QLabel* elapsedLabel_;
  QLabel* message_;
  QPushButton* cancelButton_;
  std::shared_ptr<const Table> lastTable_;
};

}  // namespace rfscope::ui
