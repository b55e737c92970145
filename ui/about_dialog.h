#pragma once
// Help → About RFScope: the version, the libraries it runs with (Qt, QCustomPlot, Eigen, oneTBB,
// Boost, nlohmann-json), the instruction set of the SIMD Monte Carlo kernels (after any
// RFSCOPE_SIMD cap) and where Monte Carlo runs — the CPU backend, the CUDA GPU's state, the Compute
// menu's choice and the backend the last run used (as rfscope-cli mc reports "backend"). "Copy"
// puts the list on the clipboard, for a bug report.

#include <QDialog>
#include <QList>
#include <QString>
#include <utility>

class QLabel;

namespace rfscope::ui {

class BackendMenu;

// Name and value of each line, in the dialog's order. `lastBackend`: the backend id the last run's
// Monte Carlo used ("cpu", "cuda"), empty if none ran yet.
QList<std::pair<QString, QString>> aboutEntries(const BackendMenu& backends,
                                                const QString& lastBackend);

class AboutDialog : public QDialog {
  Q_OBJECT
 public:
  AboutDialog(const BackendMenu& backends, const QString& lastBackend, QWidget* parent = nullptr);
  QString text() const;  // the entries as plain lines, "name: value"

 private:
  void refresh();

  const BackendMenu& backends_;
  QString lastBackend_;
  QLabel* table_;
};

}  // namespace rfscope::ui
