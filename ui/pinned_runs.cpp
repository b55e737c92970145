#include "ui/pinned_runs.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>
#include <algorithm>

#include "ui/std_string.h"

namespace rfscope::ui {
namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("PinnedRuns", text);
}

// Whether the table is drawn as curves over numeric x values (what pins can be drawn over).
bool drawnAsCurves(const Table& table) {
  return table.hints.kind == PlotKind::Curves && table.rowCount() != 1 &&
         table.hints.xValueNames.empty();
}

}  // namespace

QString parameterDifferences(const ParameterSet& pinned, const ParameterSet& shown, int limit) {
  QStringList differences;
  int count = 0;
  for (const auto& [key, value] : pinned.values()) {
    const ParameterValue* other = shown.find(key);
    if (other && sameParameterValue(*other, value)) continue;
    if (++count <= limit) differences << qs(key) + " = " + qs(formatParameterValue(value));
  }
  if (count > limit) differences << QStringLiteral("…");
  return differences.join(", ");
}

QString whyNotDrawable(const PinnedRun& pin, const std::string& experimentId, const Table& shown) {
  if (pin.experimentId != experimentId)
    return tr("of another experiment (%1)").arg(qs(pin.experimentId));
  if (!pin.table || !drawnAsCurves(*pin.table) || !drawnAsCurves(shown))
    return tr("only curves over numbers can be compared");
  if (pin.table->hints.xColumn != shown.hints.xColumn)
    return tr("over another x (%1, not %2)")
        .arg(qs(pin.table->hints.xColumn), qs(shown.hints.xColumn));
  return {};
}

bool PinnedRuns::add(PinnedRun run) {
  for (const PinnedRun& pinned : runs_)
    if (pinned.experimentId == run.experimentId && pinned.parameters == run.parameters &&
        pinned.source == run.source)
      return false;
  runs_.push_back(std::move(run));
  if (runs_.size() > static_cast<std::size_t>(kMaxPins)) runs_.erase(runs_.begin());
  return true;
}

QList<PinnedCurves> PinnedRuns::drawable(const std::string& experimentId,
                                         const ParameterSet& shownParameters, const Table& shown,
                                         QString* notDrawn) const {
  QList<PinnedCurves> drawn;
  QStringList reasons;
  int skipped = 0;
  for (const PinnedRun& pin : runs_) {
    if (const QString why = whyNotDrawable(pin, experimentId, shown); !why.isEmpty()) {
      ++skipped;
      if (!reasons.contains(why)) reasons << why;
      continue;
    }
    QString suffix = parameterDifferences(pin.parameters, shownParameters);
    if (suffix.isEmpty())
      suffix = pin.source.isEmpty() ? tr("pinned") : QFileInfo(pin.source).fileName();
    // Two pins of one name (the same differences) are told apart by number.
    const QString base = suffix;
    for (int n = 2; std::any_of(drawn.begin(), drawn.end(),
                                [&](const PinnedCurves& other) { return other.suffix == suffix; });
         ++n)
      suffix = base + " #" + QString::number(n);
    drawn.push_back({pin.table, suffix});
  }
  if (notDrawn)
    *notDrawn = skipped == 0 ? QString()
                             : (skipped == 1 ? tr("1 pinned run not drawn: ")
                                             : tr("%1 pinned runs not drawn: ").arg(skipped)) +
                                   reasons.join("; ");
  return drawn;
}

}  // namespace rfscope::ui
