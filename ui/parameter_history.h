#pragma once
// The undo history of the settings: a list of snapshots (experiment, parameters, preset) with the
// position of the one shown. Each edit or load records a step; undo and redo move along the list
// and hand back the snapshot to show. Consecutive edits of one parameter within a short while
// (the keystrokes of a typed value, a slider's drag) merge into one step, and a step edited back
// to the settings before it disappears.

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "core/params/parameter_set.h"

namespace rfscope::ui {

// What one step restores.
struct ParameterSnapshot {
  std::string experimentId;
  ParameterSet parameters;
  std::string presetId;  // the preset shown, "" for none

  bool operator==(const ParameterSnapshot&) const = default;
};

// How a recorded step joins the history.
enum class HistoryStep {
  Edit,  // a change in the panel: merges with an edit of the same single parameter just before
  Load,  // a preset, session or experiment loaded: always a step of its own
};

class ParameterHistory {
 public:
  using Clock = std::chrono::steady_clock;

  explicit ParameterHistory(std::chrono::milliseconds mergeWindow = std::chrono::milliseconds(1500),
                            std::size_t capacity = 200);

  // Records the settings now shown; steps that could be redone are dropped. Settings equal to the
  // current step record nothing.
  void record(const ParameterSnapshot& now, HistoryStep kind = HistoryStep::Edit,
              Clock::time_point at = Clock::now());

  bool canUndo() const { return position_ > 0; }
  bool canRedo() const { return position_ + 1 < steps_.size(); }
  // Moves one step back (forward) and returns the settings to show; nullptr when there is none.
  const ParameterSnapshot* undo();
  const ParameterSnapshot* redo();
  // The step undo (redo) would take back (apply again), for the menu: "d = 128", "preset
  // crt-fig2-normal", "3 parameters"; "" when there is nothing to undo (redo).
  std::string undoText() const;
  std::string redoText() const;

  std::size_t size() const { return steps_.size(); }
  const ParameterSnapshot* current() const;
  void clear();

 private:
  struct Step {
    ParameterSnapshot snapshot;
    std::string description;  // what this step changed from the one before
    std::string editedKey;    // the one parameter an Edit step changed, "" otherwise
    Clock::time_point at;
  };
  static std::string describe(const ParameterSnapshot& before, const ParameterSnapshot& after,
                              std::string* singleKey);

  std::vector<Step> steps_;
  std::size_t position_ = 0;       // the step shown (steps_ is empty only before the first record)
  bool movedSinceRecord_ = false;  // an undo or redo: the next edit starts a step of its own
  std::chrono::milliseconds mergeWindow_;
  std::size_t capacity_;
};

}  // namespace rfscope::ui
