// rfscope: the desktop application.

#include <QApplication>
#include <QCommandLineParser>
#include <QScreen>
#include <QTimer>
#include <cstdio>

#include "core/experiments/experiment_registry.h"
#include "ui/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
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
                                "(PNG) and exit.",
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

  rfscope::ui::MainWindow window;
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
    window.resize(width, height);
  }
  if (parser.isSet(teaching)) window.setTeachingPanelVisible(true);
  window.show();
  if (parser.isSet(presentation)) window.setPresentationMode(true);

  if (parser.isSet(screenshot)) {
    const QString path = parser.value(screenshot);
    QObject::connect(&window, &rfscope::ui::MainWindow::runFinished, &app, [&window, path]() {
      // Let the queued replot happen before grabbing.
      QTimer::singleShot(300, &window, [&window, path]() {
        if (!window.grab().save(path)) {
          std::fprintf(stderr, "rfscope: cannot write screenshot '%s'\n", qPrintable(path));
          QApplication::exit(1);
          return;
        }
        QApplication::exit(0);
      });
    });
  }
  return app.exec();
}
