// rfscope: the desktop application.

#include <QApplication>
#include <QCommandLineParser>
#include <QScreen>
#include <QTimer>
#include <cstdio>

#include "ui/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("RFScope");
  QApplication::setOrganizationName("RFScope");
  QApplication::setApplicationVersion(RFSCOPE_VERSION);

  QCommandLineParser parser;
  parser.setApplicationDescription("Explore the variance of random-feature kernel estimators.");
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption screenshot("screenshot",
                                "Render the window once the first run finishes, save it to FILE "
                                "(PNG) and exit.",
                                "FILE");
  QCommandLineOption experiment("experiment", "Experiment to open (see rfscope-cli list).", "ID");
  parser.addOption(screenshot);
  parser.addOption(experiment);
  parser.process(app);

  rfscope::ui::MainWindow window;
  if (parser.isSet(experiment)) window.selectExperiment(parser.value(experiment).toStdString());
  window.show();

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
