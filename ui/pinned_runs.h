#pragma once
// The runs pinned for comparison (Compare menu): each its experiment, parameters and table, from
// the plot or from a saved result file. Which of them can be drawn over the table on screen (same
// experiment, same x column, curves over numbers), the names their legend entries carry (the
// parameters in which they differ from the shown run: "PosRF (d = 16)"), and why the others are
// not drawn. Pins outlive experiment changes: they come back when their experiment does.

#include <QList>
#include <QString>
#include <memory>
#include <string>
#include <vector>

#include "core/experiments/table.h"
#include "core/params/parameter_set.h"
#include "ui/pinned_overlay.h"

namespace rfscope::ui {

struct PinnedRun {
  std::string experimentId;
  ParameterSet parameters;
  std::shared_ptr<const Table> table;
  QString source;  // the file a loaded result came from; "" when pinned from the plot
};

// "d = 16, seed = 2": the values of `pinned` where they differ from `shown` (at most `limit`, then
// "…"); "" when they are the same.
QString parameterDifferences(const ParameterSet& pinned, const ParameterSet& shown, int limit = 3);

// Why the pin cannot be drawn over the shown table of the experiment; "" when it can.
QString whyNotDrawable(const PinnedRun& pin, const std::string& experimentId, const Table& shown);

class PinnedRuns {
 public:
  static constexpr int kMaxPins = 8;  // beyond this the oldest pin goes

  // False (and nothing added) when a run of the same experiment and parameters is pinned already.
  bool add(PinnedRun run);
  void clear() { runs_.clear(); }
  bool empty() const { return runs_.empty(); }
  int size() const { return static_cast<int>(runs_.size()); }
  const std::vector<PinnedRun>& runs() const { return runs_; }

  // The pins that can be drawn over the shown table, with their legend suffixes; *notDrawn says
  // why the others are not ("" when every pin is drawn).
  QList<PinnedCurves> drawable(const std::string& experimentId, const ParameterSet& shownParameters,
                               const Table& shown, QString* notDrawn = nullptr) const;

 private:
  std::vector<PinnedRun> runs_;
};

}  // namespace rfscope::ui
