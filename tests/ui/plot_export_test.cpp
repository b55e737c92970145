// Plot exports written atomically and loudly (issue 12, item 1: on a full disk SVG and PDF exports
// reported success and replaced the old file with a truncated one) and PNG sizes checked before
// rendering (item 13: a 100,000² pixmap passed validation, then failed as "could not be written").

#include <qcustomplot.h>
#include <sys/resource.h>

#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

#include "ui/plot_export.h"

using rfscope::ui::exportPlot;
using rfscope::ui::PlotFormat;

class PlotExportTest : public QObject {
  Q_OBJECT

  static QByteArray read(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
  }

 private slots:
  void init() {
    plot_ = std::make_unique<QCustomPlot>();
    QVector<double> x, y;
    for (int i = 0; i < 2000; ++i) {  // enough points for files of well over 4 KiB
      x << i;
      y << std::sin(i / 50.0);
    }
    plot_->addGraph()->setData(x, y);
    plot_->rescaleAxes();
  }

  void everyFormatIsWrittenWhole() {
    QTemporaryDir dir;
    exportPlot(plot_.get(), dir.filePath("p.png"), PlotFormat::Png, {400, 300, 192});
    QCOMPARE(QImage(dir.filePath("p.png")).size(), QSize(800, 600));
    exportPlot(plot_.get(), dir.filePath("p.pdf"), PlotFormat::Pdf, {400, 300, 96});
    const QByteArray pdf = read(dir.filePath("p.pdf"));
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    exportPlot(plot_.get(), dir.filePath("p.svg"), PlotFormat::Svg, {400, 300, 96});
    QVERIFY(read(dir.filePath("p.svg")).trimmed().endsWith("</svg>"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 3);
  }

  // A file-size limit fails the write as a full disk does (EFBIG for ENOSPC).
  void aFailedWriteReportsAndKeepsTheOldFile() {
    QTemporaryDir dir;
    for (const auto& [name, format] :
         {std::pair{"p.svg", PlotFormat::Svg}, std::pair{"p.pdf", PlotFormat::Pdf},
          std::pair{"p.png", PlotFormat::Png}}) {
      const QString path = dir.filePath(name);
      QFile old(path);
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("old content");
      old.close();
      rlimit saved{};
      getrlimit(RLIMIT_FSIZE, &saved);
      const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
      const rlimit small{4096, saved.rlim_max};
      setrlimit(RLIMIT_FSIZE, &small);
      QString message;
      try {
        exportPlot(plot_.get(), path, format, {1200, 800, 96});
      } catch (const std::exception& e) {
        message = e.what();
      }
      setrlimit(RLIMIT_FSIZE, &saved);
      std::signal(SIGXFSZ, previousHandler);
      QVERIFY2(message.contains("File too large"), qPrintable(name + (": " + message)));
      QCOMPARE(read(path), QByteArray("old content"));
      QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
      QFile::remove(path);
    }
  }

  void pngPixelsAreCappedBeforeRendering() {
    QTemporaryDir dir;
    QElapsedTimer timer;
    timer.start();
    try {
      exportPlot(plot_.get(), dir.filePath("huge.png"), PlotFormat::Png, {20000, 20000, 500});
      QFAIL("no error");
    } catch (const std::exception& e) {
      QVERIFY2(QString(e.what()).contains("over the limit of 100 megapixels"), e.what());
    }
    QVERIFY(timer.elapsed() < 5000);
    QVERIFY(!QFile::exists(dir.filePath("huge.png")));
    // Vector formats have no pixels: the same size is fine for them.
    exportPlot(plot_.get(), dir.filePath("huge.svg"), PlotFormat::Svg, {20000, 20000, 500});
  }

 private:
  std::unique_ptr<QCustomPlot> plot_;
};

QTEST_MAIN(PlotExportTest)
#include "plot_export_test.moc"
