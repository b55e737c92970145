// Plot exports written atomically and loudly (issue 12, item 1: on a full disk SVG and PDF exports
// reported success and replaced the old file with a truncated one) and PNG sizes checked before
// rendering (item 13: a 100,000² pixmap passed validation, then failed as "could not be written").

#include <qcustomplot.h>
#include <sys/resource.h>

#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

#include "ui/export_dialog.h"
#include "ui/plot_export.h"

using rfscope::ui::exportPlot;
using rfscope::ui::figureWriter;

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
    exportPlot(plot_.get(), dir.filePath("p.png"), figureWriter("png"), {400, 300, 192});
    QCOMPARE(QImage(dir.filePath("p.png")).size(), QSize(800, 600));
    exportPlot(plot_.get(), dir.filePath("p.pdf"), figureWriter("pdf"), {400, 300, 96});
    const QByteArray pdf = read(dir.filePath("p.pdf"));
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    exportPlot(plot_.get(), dir.filePath("p.svg"), figureWriter("svg"), {400, 300, 96});
    QVERIFY(read(dir.filePath("p.svg")).trimmed().endsWith("</svg>"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 3);
  }

  // A file-size limit fails the write as a full disk does (EFBIG for ENOSPC).
  void aFailedWriteReportsAndKeepsTheOldFile() {
    QTemporaryDir dir;
    for (const auto& [name, format] :
         {std::pair{"p.svg", &figureWriter("svg")}, std::pair{"p.pdf", &figureWriter("pdf")},
          std::pair{"p.png", &figureWriter("png")}}) {
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
        QVERIFY(exportPlot(plot_.get(), path, *format, {1200, 800, 96}));
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

  // Options out of range are the user's input: a result with the reason, never an exception.
  void pngPixelsAreCappedBeforeRendering() {
    QTemporaryDir dir;
    QElapsedTimer timer;
    timer.start();
    const auto result =
        exportPlot(plot_.get(), dir.filePath("huge.png"), figureWriter("png"), {20000, 20000, 500});
    QVERIFY(!result);
    QVERIFY2(QString::fromStdString(result.problem).contains("over the limit of 100 megapixels"),
             result.problem.c_str());
    QVERIFY(timer.elapsed() < 5000);
    QVERIFY(!QFile::exists(dir.filePath("huge.png")));
    // Vector formats have no pixels: the same size is fine for them.
    QVERIFY(exportPlot(plot_.get(), dir.filePath("huge.svg"), figureWriter("svg"),
                       {20000, 20000, 500}));
  }

  void outOfRangeOptionsAreRefusedWithTheReason() {
    QTemporaryDir dir;
    for (const auto& [options, reason] :
         {std::pair{rfscope::PlotExportOptions{8, 300, 96}, "between 16 and 20000 pixels"},
          std::pair{rfscope::PlotExportOptions{400, 300, 5000}, "DPI must be between"},
          std::pair{rfscope::PlotExportOptions{400, 300, 96, 10, 10}, "0.5 and 40 inches"},
          std::pair{rfscope::PlotExportOptions{400, 300, 96, 200, 150, 100}, "4 and 48 points"}}) {
      const auto result =
          exportPlot(plot_.get(), dir.filePath("p.pdf"), figureWriter("pdf"), options);
      QVERIFY(!result);
      QVERIFY2(result.problem.find(reason) != std::string::npos, result.problem.c_str());
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
  }

  // Every figure format of the registry has its writer, and the save dialog offers each.
  void theRegistryNamesEveryFigureWriter() {
    const auto formats = rfscope::outputFormats(rfscope::OutputKind::Figure);
    QCOMPARE(rfscope::ui::allFigureWriters().size(), formats.size());
    for (const rfscope::OutputFormat* format : formats) {
      QVERIFY(rfscope::ui::findFigureWriter(format->id));
      QCOMPARE(&rfscope::ui::findFigureWriter(format->id)->format(), format);
      QVERIFY(rfscope::ui::fileDialogFilter(rfscope::OutputKind::Figure)
                  .contains(QString::fromStdString("(*." + format->extension + ")")));
    }
    QCOMPARE(rfscope::ui::fileDialogFilter(rfscope::OutputKind::Figure),
             QString("PNG image (*.png);;PDF document (*.pdf);;SVG image (*.svg)"));
    QCOMPARE(rfscope::ui::fileDialogFilter(rfscope::OutputKind::Table),
             QString("CSV (*.csv);;JSON (*.json)"));
    QCOMPARE(rfscope::ui::figureWriterForPath("a/b.PDF"), &figureWriter("pdf"));
    QVERIFY(!rfscope::ui::figureWriterForPath("b.bmp"));
    QCOMPARE(rfscope::ui::extensionList(rfscope::OutputKind::Figure),
             QString(".png, .pdf or .svg"));
  }

  // At a paper size the dialog offers print resolution and no title (issue 30, item 1: PNGs at
  // a paper size were 96 dpi), until the user chooses; the legend's place and columns come back.
  void theDialogDefaultsFollowTheSize() {
    const rfscope::OutputFormat& png = *rfscope::findOutputFormat("png");
    rfscope::ui::ExportDialog dialog(png, rfscope::PlotExportOptions{});
    QCOMPARE(dialog.options().dpi, 96);
    QVERIFY(rfscope::exportShowsTitle(dialog.options()));
    dialog.chooseSize(1);  // one column
    QCOMPARE(dialog.options().dpi, 300);
    QVERIFY(!rfscope::exportShowsTitle(dialog.options()));
    QVERIFY(!dialog.options().title.has_value());  // the size's default, not a choice
    dialog.chooseSize(0);
    QCOMPARE(dialog.options().dpi, 96);
    dialog.chooseTitle(false);
    dialog.chooseLegend(rfscope::LegendPlacement::Below, 3);
    dialog.chooseSize(2);
    QCOMPARE(dialog.options().title, std::optional<bool>(false));
    QCOMPARE(dialog.options().legend, rfscope::LegendPlacement::Below);
    QCOMPARE(dialog.options().legendColumns, 3);
    // Opened on a paper size with the screen's resolution: print's.
    rfscope::PlotExportOptions paper;
    paper.figureWidthPoints = rfscope::kOneColumnFigurePoints;
    paper.figureHeightPoints = 150;
    QCOMPARE(rfscope::ui::ExportDialog(png, paper).options().dpi, 300);
    paper.dpi = 600;
    QCOMPARE(rfscope::ui::ExportDialog(png, paper).options().dpi, 600);
  }

  void legendColumnsOutOfRangeAreRefused() {
    QTemporaryDir dir;
    rfscope::PlotExportOptions options{400, 300, 96};
    options.legendColumns = 50;
    const auto result =
        exportPlot(plot_.get(), dir.filePath("p.pdf"), figureWriter("pdf"), options);
    QVERIFY(!result);
    QVERIFY2(result.problem.find("legend columns") != std::string::npos, result.problem.c_str());
  }

 private:
  std::unique_ptr<QCustomPlot> plot_;
};

QTEST_MAIN(PlotExportTest)
#include "plot_export_test.moc"
