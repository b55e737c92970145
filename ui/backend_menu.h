#pragma once
// The Compute menu: where Monte Carlo runs — automatically by run size, always on the CPU, or on
// a CUDA GPU. The GPU entry is enabled only once a background probe has found a usable device
// (its tooltip says why not otherwise); the choice persists in QSettings.

#include <QActionGroup>
#include <QMenu>
#include <QString>
#include <thread>

#include "core/montecarlo/backend_choice.h"

namespace rfscope::ui {

class BackendMenu : public QMenu {
  Q_OBJECT
 public:
  explicit BackendMenu(QWidget* parent = nullptr);
  ~BackendMenu() override;

  BackendChoice choice() const;
  void setChoice(BackendChoice choice);  // CUDA falls back to Automatic while no GPU is usable
  bool gpuUsable() const { return gpuUsable_; }
  // The status bar's words for a backend id ("cpu", "cuda").
  QString describe(const QString& id) const;
  // The CUDA GPU's state in words: "usable: <device>", "not available: <why>", or that the probe
  // is still looking.
  QString gpuStatus() const;
  QString choiceText() const;  // the checked entry's words ("Automatic (GPU for large runs)")

 signals:
  void choiceChanged(rfscope::BackendChoice choice);
  void probed();  // the GPU probe has finished (the GPU entry is now final)

 private:
  void onProbed(bool usable, const QString& description);

  QActionGroup* group_;
  QAction* automatic_;
  QAction* cpu_;
  QAction* gpu_;
  bool gpuUsable_ = false;
  bool probed_ = false;
  QString gpuProblem_;      // why no GPU is usable, once probed
  bool wantedGpu_ = false;  // the stored choice was the GPU, not yet found usable
  QString cpuDescription_, gpuDescription_;
  std::thread probe_;
};

}  // namespace rfscope::ui
