#include "ui/axis_scales.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace rfscope::ui {
namespace {

// QCustomPlot's ticker, except that zero stays "0" where the other ticks carry exponents.
class ExponentTicker : public QCPAxisTicker {
 protected:
  QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
    step_ = tickStep;
    return QCPAxisTicker::createTickVector(tickStep, range);
  }
  QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                       int precision) override {
    if (formatChar == QLatin1Char('e') && std::abs(tick) < 1e-9 * std::abs(step_))
      return QStringLiteral("0");
    return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision);
  }

 private:
  double step_ = 0;
};

// A log axis over less than two decades: ticks at 1, 2 and 5 × 10ⁿ (1, 2, 3, 5, 7 × 10ⁿ, nearly
// even in log, when that gives fewer than three; every integer × 10ⁿ only after that: 0.8, 0.9, 1
// crowd a short axis), so that the low end is labelled too — a linear ticker on a log axis
// labels only the upper part (16…256 showed 50, 100, …, 250). Where even the integers give fewer
// than three (0.88…1.02 had only 0.9 and 1), the axis is so short that log and linear spacing look
// alike: the linear ticker's round steps.
class ShortLogTicker : public QCPAxisTicker {
 protected:
  QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
    QVector<double> ticks = ticksWith({1, 2, 5}, range);
    if (ticks.size() < 3) ticks = ticksWith({1, 2, 3, 5, 7}, range);
    if (ticks.size() < 3) ticks = ticksWith({1, 2, 3, 4, 5, 6, 7, 8, 9}, range);
    if (ticks.size() < 3) ticks = QCPAxisTicker::createTickVector(tickStep, range);
    return ticks;
  }
  int getSubTickCount(double) override { return 0; }

 private:
  static QVector<double> ticksWith(std::initializer_list<int> mantissas, const QCPRange& range) {
    QVector<double> ticks;
    if (!(range.lower > 0) || !(range.upper > range.lower)) return ticks;
    for (int e = static_cast<int>(std::floor(std::log10(range.lower)));
         e <= static_cast<int>(std::ceil(std::log10(range.upper))); ++e)
      for (int m : mantissas) {
        const double tick = m * std::pow(10.0, e);
        if (tick >= range.lower * (1 - 1e-12) && tick <= range.upper * (1 + 1e-12))
          ticks.push_back(tick);
      }
    return ticks;
  }
};

}  // namespace

bool looksLogSpaced(const std::vector<double>& values) {
  std::vector<double> logs;
  for (double v : values)
    if (std::isfinite(v)) {
      if (v <= 0) return false;
      logs.push_back(std::log(v));
    }
  if (logs.size() < 3) return false;
  const double step = logs[1] - logs[0];
  if (std::abs(step) < 1e-12) return false;
  const double spread = std::abs(logs.back() - logs.front());
  for (std::size_t i = 1; i < logs.size(); ++i)
    if (std::abs((logs[i] - logs[i - 1]) - step) > 1e-6 * spread) return false;
  return true;  // three distinct values in constant ratio cannot be linearly spaced
}

void applyTickFormat(QCPAxis* axis) {
  const QCPRange range = axis->range();
  const bool logScale = axis->scaleType() == QCPAxis::stLogarithmic;
  if (logScale && range.lower > 0 && std::log10(range.upper / range.lower) >= 2) {
    if (!axis->ticker().dynamicCast<QCPAxisTickerLog>())
      axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    axis->setNumberFormat("eb");  // 10ⁿ for every tick
    axis->setNumberPrecision(0);
    return;
  }
  if (logScale && range.lower > 0) {
    if (!axis->ticker().dynamicCast<ShortLogTicker>())
      axis->setTicker(QSharedPointer<ShortLogTicker>::create());
    axis->setNumberFormat("gb");
    axis->setNumberPrecision(6);
    return;
  }
  if (!axis->ticker().dynamicCast<ExponentTicker>())
    axis->setTicker(QSharedPointer<ExponentTicker>::create());
  const double magnitude = std::max(std::abs(range.lower), std::abs(range.upper));
  const double span = range.size();
  // Exponents for every tick once one tick would need one ('g' switches per value otherwise).
  const bool exponents = magnitude >= 1e5 || (magnitude > 0 && magnitude < 1e-3) ||
                         (span > 0 && span < 1e-4 * magnitude);
  if (exponents) {
    axis->setNumberFormat("eb");
    // Enough digits to tell neighbouring ticks apart.
    const double step = span / 5;
    const int digits = step > 0 ? static_cast<int>(std::ceil(std::log10(magnitude / step))) : 1;
    axis->setNumberPrecision(std::clamp(digits, 1, 6));
  } else {
    axis->setNumberFormat("gb");
    axis->setNumberPrecision(6);
  }
}

}  // namespace rfscope::ui
