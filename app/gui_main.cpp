// rfscope: the desktop application.

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QFile>
#include <QMessageBox>
#include <QTimer>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/input_limits.h"
#include "core/experiments/experiment_registry.h"
#include "core/experiments/memory_budget.h"
#include "core/io/atomic_file.h"
#include "core/io/temporary_files.h"
#include "core/math/large_allocations.h"
#include "core/montecarlo/simd_target.h"
#include "ui/main_window.h"
#include "ui/parameter_panel.h"
#include "ui/run_controller.h"

namespace {

// QGuiApplication takes "-session ID" and "--session ID" (X11 session management) out of argv
// before our parser sees them, so the README's "--session FILE" would be dropped silently. Joined
// into "--session=FILE", Qt leaves the option alone. The strings live as long as the application.
std::vector<char*> withSessionOptionJoined(int argc, char** argv,
                                           std::vector<std::string>& storage) {
  storage.clear();
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--session" || arg == "-session") && i + 1 < argc)
      storage.push_back("--session=" + std::string(argv[++i]));
    else
      storage.push_back(arg);
  }
  std::vector<char*> pointers;
  for (std::string& s : storage)
    pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

int main(int argc, char** argv) {
  rfscope::keepLargeAllocations();
  rfscope::removeTemporariesOnTerminationSignals();  // Ctrl+C leaves no half-written temporary
  std::vector<std::string> storage;
  std::vector<char*> arguments = withSessionOptionJoined(argc, argv, storage);
  int argumentCount = static_cast<int>(arguments.size()) - 1;
  QApplication app(argumentCount, arguments.data());
  QApplication::setApplicationName("RFScope");
  QApplication::setOrganizationName("RFScope");
  QApplication::setApplicationVersion(RFSCOPE_VERSION);
  // The installed menu entry (packaging/linux/): lets Wayland desktops show its name and icon.
  QApplication::setDesktopFileName("org.rfscope.rfscope");

  QCommandLineParser parser;
  parser.setApplicationDescription("Explore the variance of random-feature kernel estimators.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption screenshot("screenshot",
                                "Render the window once the first run finishes, save it to FILE "
                                "(PNG) and exit (2 when the parameters are invalid, 1 when the "
                                "run fails).",
                                "FILE");
  QCommandLineOption experiment("experiment", "Experiment to open (see rfscope-cli list).", "ID");
  QCommandLineOption preset("preset", "Open a built-in preset (see the Presets menu).", "ID");
  QCommandLineOption session("session", "Open a saved session (JSON).", "FILE");
  QCommandLineOption presentation("presentation",
                                  "Start in presentation mode (F11: full screen, larger fonts).");
  QCommandLineOption teaching("teaching", "Show the teaching panel (F1).");
  QCommandLineOption size("size", "Window size in pixels, e.g. 1600x1000.", "WxH");
  parser.addOption(screenshot);
  parser.addOption(presentation);
  parser.addOption(teaching);
  parser.addOption(size);
  parser.addOption(experiment);
  parser.addOption(preset);
  parser.addOption(session);
  parser.process(app);

  // RFSCOPE_SIMD names an instruction set this CPU lacks, or none: say so before any window.
  if (const std::string& simd = rfscope::simdCapFromEnvironment(); !simd.empty()) {
    std::fprintf(stderr, "rfscope: %s\n", simd.c_str());
    if (!parser.isSet(screenshot))
      QMessageBox::critical(nullptr, QObject::tr("RFScope"), QString::fromStdString(simd));
    return 2;
  }

  // So is a memory budget that is not a size.
  std::string budgetProblem;
  rfscope::memoryBudget(&budgetProblem);
  if (!budgetProblem.empty()) {
    std::fprintf(stderr, "rfscope: %s\n", budgetProblem.c_str());
    if (!parser.isSet(screenshot))
      QMessageBox::critical(nullptr, QObject::tr("RFScope"), QString::fromStdString(budgetProblem));
    return 2;
  }

  rfscope::ui::MainWindow window(parser.isSet(screenshot) ? rfscope::ui::SavedLayout::Ignore
                                                          : rfscope::ui::SavedLayout::Restore);
  if (parser.isSet(experiment) &&
      !rfscope::findExperiment(parser.value(experiment).toStdString())) {
    std::fprintf(stderr, "rfscope: unknown experiment '%s'\n",
                 qPrintable(parser.value(experiment)));
    return 2;
  }
  if (parser.isSet(experiment)) window.selectExperiment(parser.value(experiment).toStdString());
  if (parser.isSet(preset)) {
    QString error;
    if (!window.applyPreset(parser.value(preset).toStdString(), &error)) {
      std::fprintf(stderr, "rfscope: %s\n", qPrintable(error));
      return 2;
    }
  }
  if (parser.isSet(session) && !window.openSessionFrom(parser.value(session), true)) {
    std::fprintf(stderr, "rfscope: %s\n", qPrintable(window.statusMessage()));
    return 2;
  }
  if (parser.isSet(size)) {
    const QStringList parts = parser.value(size).split('x');
    bool okWidth = false, okHeight = false;
    const int width = parts.size() == 2 ? parts[0].toInt(&okWidth) : 0;
    const int height = parts.size() == 2 ? parts[1].toInt(&okHeight) : 0;
    if (!okWidth || !okHeight || width < 320 || height < 240) {
      std::fprintf(stderr, "rfscope: --size wants WIDTHxHEIGHT in pixels, e.g. 1600x1000\n");
      return 2;
    }
    // As for the CLI's PNGs: a window (and its screenshot) of at most 20,000 pixels a side and
    // 100 megapixels (a 20000x20000 window took 6 GB to draw).
    if (width > rfscope::kMaxPlotSide || height > rfscope::kMaxPlotSide ||
        double(width) * height > rfscope::kMaxPngPixels) {
      std::fprintf(stderr,
                   "rfscope: --size %dx%d is too large: at most 20000 pixels a side and 100 "
                   "megapixels in all\n",
                   width, height);
      return 2;
    }
    window.resize(width, height);
  }

  if (parser.isSet(screenshot)) {
    // A run that validation blocks never finishes, so the screenshot would wait forever: validate
    // here first (reading any data file now, before the window shows), and leave on a failed run.
    if (const rfscope::Experiment* current = window.currentExperiment()) {
      const auto errors = current->validate(window.parameterPanel()->parameters());
      if (!errors.empty()) {
        std::fprintf(stderr, "rfscope: not run: %s\n", errors.front().message.c_str());
        return 2;
      }
    }
    QObject::connect(window.runController(), &rfscope::ui::RunController::failed, &app,
                     [](const QString& message) {
                       std::fprintf(stderr, "rfscope: the run failed: %s\n", qPrintable(message));
                       QApplication::exit(1);
                     });
    const QString path = parser.value(screenshot);
    QObject::connect(&window, &rfscope::ui::MainWindow::runFinished, &app, [&window, path]() {
      // Let the queued replot happen before grabbing.
      QTimer::singleShot(300, &window, [&window, path]() {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        try {
          if (!window.grab().save(&buffer, "PNG")) throw std::runtime_error("PNG encoding failed");
          rfscope::writeFileAtomically(QFile::encodeName(path).toStdString(),
                                       std::string_view(png.constData(), png.size()));
        } catch (const std::exception& e) {
          std::fprintf(stderr, "rfscope: cannot write screenshot: %s\n", e.what());
          QApplication::exit(1);
          return;
        }
        QApplication::exit(0);
      });
    });
  }
  if (parser.isSet(teaching)) window.setTeachingPanelVisible(true);
  window.show();
  if (parser.isSet(presentation)) window.setPresentationMode(true);
  return app.exec();
}
