// Axis ticks: a log axis over less than two decades is labelled at 1, 2, 5 × 10ⁿ from its low end;
// over more decades at every power of ten.

#include <qcustomplot.h>
#include <QtTest>

#include <cmath>

#include "ui/axis_scales.h"

class AxisScalesTest : public QObject {
  Q_OBJECT

  static QVector<double> ticksOf(QCPAxis* axis) {
    QVector<double> ticks, subTicks;
    QVector<QString> labels;
    axis->ticker()->generate(axis->range(), QLocale::c(), QLatin1Char('g'), 6, ticks, &subTicks,
                             &labels);
    return ticks;
  }

  // Ticks m·10ⁿ to twelve digits (3·10⁻¹ is 0.30000000000000004).
  static QVector<double> rounded(QVector<double> ticks) {
    for (double& t : ticks)
      t = std::round(t * 1e12) / 1e12;
    return ticks;
  }

 private slots:
  void shortLogAxisIsLabelledFromItsLowEnd() {
    QCustomPlot plot;
    plot.xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot.xAxis->setRange(16, 256);
    rfscope::ui::applyTickFormat(plot.xAxis);
    QCOMPARE(ticksOf(plot.xAxis), (QVector<double>{20, 50, 100, 200}));
    plot.xAxis->setRange(0.3, 0.9);  // less than a 1-2-5 step: 1, 2, 3, 5, 7 (near even in log)
    rfscope::ui::applyTickFormat(plot.xAxis);
    QCOMPARE(rounded(ticksOf(plot.xAxis)), (QVector<double>{0.3, 0.5, 0.7}));
    plot.xAxis->setRange(0.55, 0.95);  // fewer than three of those: every integer mantissa
    rfscope::ui::applyTickFormat(plot.xAxis);
    QCOMPARE(rounded(ticksOf(plot.xAxis)), (QVector<double>{0.6, 0.7, 0.8, 0.9}));
    plot.xAxis->setRange(0.88, 1.02);  // not even three integer mantissas: round linear steps
    rfscope::ui::applyTickFormat(plot.xAxis);
    const QVector<double> ticks = ticksOf(plot.xAxis);
    QVERIFY2(ticks.size() >= 3, qPrintable(QString::number(ticks.size())));
    QVERIFY(ticks.front() >= 0.88 && ticks.front() < 0.92 && ticks.back() <= 1.02);
  }

  void longLogAxisHasPowersOfTen() {
    QCustomPlot plot;
    plot.yAxis->setScaleType(QCPAxis::stLogarithmic);
    plot.yAxis->setRange(1e-3, 1e4);
    rfscope::ui::applyTickFormat(plot.yAxis);
    QVERIFY(plot.yAxis->ticker().dynamicCast<QCPAxisTickerLog>());
  }
};

QTEST_MAIN(AxisScalesTest)
#include "axis_scales_test.moc"
