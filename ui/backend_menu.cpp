#include "ui/backend_menu.h"

#include <QMetaObject>
#include <QSettings>
#include <thread>

#include "core/montecarlo/device_backend.h"
#include "core/montecarlo/monte_carlo_backend.h"

namespace rfscope::ui {
namespace {

constexpr const char* kSettingsKey = "compute/backend";

}  // namespace

BackendMenu::BackendMenu(QWidget* parent)
    : QMenu(tr("&Compute"), parent),
      group_(new QActionGroup(this)),
      automatic_(addAction(tr("&Automatic (GPU for large runs)"))),
      cpu_(addAction(tr("&CPU Only"))),
      gpu_(addAction(tr("CUDA &GPU"))),
      cpuDescription_(QString::fromStdString(makeCpuBackend()->description())) {
  automatic_->setData(static_cast<int>(BackendChoice::Auto));
  cpu_->setData(static_cast<int>(BackendChoice::Cpu));
  gpu_->setData(static_cast<int>(BackendChoice::Cuda));
  for (QAction* a : {automatic_, cpu_, gpu_}) {
    a->setCheckable(true);
    group_->addAction(a);
  }
  automatic_->setToolTip(tr("Monte Carlo runs of %1 feature evaluations or more go to a CUDA GPU "
                            "when one is usable; smaller runs stay on the CPU")
                             .arg(kAutoGpuMinimumWork, 0, 'g', 2));
  gpu_->setEnabled(false);
  gpu_->setToolTip(tr("Looking for a CUDA device…"));
  setToolTipsVisible(true);
  const auto stored =
      parseBackendChoice(QSettings().value(kSettingsKey, "auto").toString().toStdString());
  setChoice(stored.value_or(BackendChoice::Auto));
  connect(group_, &QActionGroup::triggered, this, [this](QAction* action) {
    const auto chosen = static_cast<BackendChoice>(action->data().toInt());
    QSettings().setValue(kSettingsKey, QString::fromUtf8(backendChoiceId(chosen).data()));
    emit choiceChanged(chosen);
  });

  // Creating a CUDA context takes a moment: probe off the GUI thread. The result is posted to this
  // menu, whose destructor waits for the probe (so nothing is posted to a deleted object).
  probe_ = std::thread([this]() {
    const auto gpu = makeCudaBackend();
    const bool usable = gpu.available();
    const QString text = QString::fromStdString(usable ? (*gpu)->description() : gpu.reason());
    QMetaObject::invokeMethod(
        this, [this, usable, text]() { onProbed(usable, text); }, Qt::QueuedConnection);
  });
}

BackendMenu::~BackendMenu() {
  if (probe_.joinable()) probe_.join();
}

BackendChoice BackendMenu::choice() const {
  const QAction* checked = group_->checkedAction();
  return checked ? static_cast<BackendChoice>(checked->data().toInt()) : BackendChoice::Auto;
}

void BackendMenu::setChoice(BackendChoice choice) {
  if (choice == BackendChoice::Cuda && !gpuUsable_) {
    // Remembered: honoured once the probe finds a device.
    wantedGpu_ = true;
    choice = BackendChoice::Auto;
  }
  for (QAction* a : {automatic_, cpu_, gpu_})
    a->setChecked(static_cast<BackendChoice>(a->data().toInt()) == choice);
}

void BackendMenu::onProbed(bool usable, const QString& description) {
  gpuUsable_ = usable;
  probed_ = true;
  if (!usable) gpuProblem_ = description;
  gpu_->setEnabled(usable);
  gpu_->setToolTip(usable ? description : tr("Not available: %1").arg(description));
  if (usable) {
    gpuDescription_ = description;
    gpu_->setText(tr("CUDA &GPU — %1").arg(description));
    if (wantedGpu_) {
      setChoice(BackendChoice::Cuda);
      emit choiceChanged(BackendChoice::Cuda);
    }
  }
  wantedGpu_ = false;
  emit probed();
}

QString BackendMenu::gpuStatus() const {
  if (!probed_) return tr("looking for a CUDA device…");
  if (gpuUsable_) return tr("usable: %1").arg(gpuDescription_);
  return tr("not available: %1").arg(gpuProblem_);
}

QString BackendMenu::choiceText() const {
  const QAction* checked = group_->checkedAction();
  return checked ? QString(checked->text()).remove(QChar('&')) : QString();
}

QString BackendMenu::describe(const QString& id) const {
  if (id != "cuda") return cpuDescription_;
  return tr("GPU: %1").arg(gpuDescription_.isEmpty() ? tr("CUDA") : gpuDescription_);
}

}  // namespace rfscope::ui
