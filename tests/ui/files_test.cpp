// Files the app writes and reads: plot exports (valid PNG/PDF/SVG), CSV, sessions (round trip,
// malformed input leaves the window untouched), unwritable paths.

#include <QDir>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/ui/widget_lookup.h"
#include "ui/main_window.h"
#include "ui/parameter_panel.h"
#include "ui/plot_view.h"

using rfscope::ui::MainWindow;

class FilesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void init() {
    window_ = std::make_unique<MainWindow>();
    window_->show();
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QVERIFY(finished.wait(10000));
    QVERIFY(dir_.isValid());
  }
  void cleanup() { window_.reset(); }

  void pngHasTheChosenSizeAndResolution() {
    const QString path = dir_.filePath("plot.png");
    QVERIFY(window_->exportPlotTo(path, {600, 400, 192}, true));
    QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1200, 800));  // 600×400 logical at 192 dpi
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);
    // Not blank: the curves put several distinct colours on the canvas.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
      for (int x = 0; x < image.width(); x += 7)
        colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 10);
    QVERIFY(QDir(dir_.path()).entryList(QDir::Files).size() == 1);  // no temporaries left
  }

  void pdfAndSvgAreValidVectorFiles() {
    const QString pdf = dir_.filePath("plot.pdf"), svg = dir_.filePath("plot.svg");
    QVERIFY(window_->exportPlotTo(pdf, {800, 500, 96}, true));
    QVERIFY(window_->exportPlotTo(svg, {800, 500, 96}, true));
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    const QByteArray bytes = pdfFile.readAll();
    QVERIFY(bytes.startsWith("%PDF-"));
    QVERIFY(bytes.trimmed().endsWith("%%EOF"));
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBox(), QRect(0, 0, 800, 500));
  }

  void unwritableOrUnknownPathsReportAndKeepOldFiles() {
    QVERIFY(!window_->exportPlotTo("/nonexistent-dir/plot.png", {}, true));
    QVERIFY(window_->statusMessage().contains("does not exist"));
    QVERIFY(!window_->exportPlotTo(dir_.filePath("plot.bmp"), {}, true));
    QVERIFY(window_->statusMessage().contains(".png, .pdf or .svg"));
    QVERIFY(!window_->exportCsvTo("/nonexistent-dir/t.csv", true));
    QVERIFY(!window_->saveSessionTo("/nonexistent-dir/s.json", true));
  }

  void csvCarriesTheParametersOfTheShownRun() {
    const QString path = dir_.filePath("table.csv");
    QVERIFY(window_->exportCsvTo(path, true));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QString("# experiment: variance-vs-sigma"));
    QVERIFY(lines.contains("# param d: 64"));
    int dataRows = 0;
    for (const QString& line : lines)
      if (!line.startsWith('#')) ++dataRows;
    QCOMPARE(dataRows, 1 + 50);
  }

  // The table formats of the registry: a .json name gets rfscope-cli run --json's object.
  void tableExportWritesTheFormatOfTheExtension() {
    const QString path = dir_.filePath("table.json");
    QVERIFY(window_->exportCsvTo(path, true));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(json["experiment"].toString(), QString("variance-vs-sigma"));
    QCOMPARE(json["parameters"].toObject()["d"].toInt(), 64);
    QVERIFY(json.contains("seconds"));
    QCOMPARE(
        json["table"].toObject()["columns"].toArray().first().toObject()["values"].toArray().size(),
        50);
  }

  void sessionRoundTripRestoresParametersAndView() {
    auto* d = spinBoxOf(window_->parameterPanel()->editor("d"));
    d->setValue(32);
    window_->plotView()->setLogY(false);
    window_->plotView()->setSeriesVisible("PosRF", false);
    const QString path = dir_.filePath("session.json");
    QVERIFY(window_->saveSessionTo(path, true));

    MainWindow other;
    QSignalSpy finished(&other, &MainWindow::runFinished);
    QVERIFY(other.openSessionFrom(path, true));
    QVERIFY(finished.wait(10000));
    QCOMPARE(other.parameterPanel()->parameters(), window_->parameterPanel()->parameters());
    QCOMPARE(other.parameterPanel()->parameters().integer("d"), 32);
    QCOMPARE(other.plotView()->viewState().hiddenSeries, QSet<QString>{"PosRF"});
    QVERIFY(!other.plotView()->seriesVisible(1));
    QCOMPARE(other.plotView()->viewState().yLog, std::optional<bool>(false));
  }

  void malformedSessionsChangeNothing() {
    const rfscope::ParameterSet before = window_->parameterPanel()->parameters();
    const QList<QByteArray> bad{
        "{not json",
        R"({"format":"something-else"})",
        R"({"format":"rfscope-session","version":1,"experiment":"nope"})",
        R"({"format":"rfscope-session","version":1,"experiment":"variance-vs-sigma","parameters":{"d":0}})",
        R"({"format":"rfscope-session","version":1,"experiment":"variance-vs-sigma","parameters":{},"view":{"x_range":[2,1]}})",
    };
    for (const QByteArray& content : bad) {
      const QString path = dir_.filePath("bad.json");
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
      file.write(content);
      file.close();
      QVERIFY2(!window_->openSessionFrom(path, true), content.constData());
      QCOMPARE(window_->parameterPanel()->parameters(), before);
    }
    QVERIFY(!window_->openSessionFrom(dir_.filePath("missing.json"), true));
    QVERIFY(window_->statusMessage().contains("cannot read"));
  }

 private:
  std::unique_ptr<MainWindow> window_;
  QTemporaryDir dir_;
};

QTEST_MAIN(FilesTest)
#include "files_test.moc"
