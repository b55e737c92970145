#include "ui/parameter_history.h"

#include <algorithm>

namespace rfscope::ui {

ParameterHistory::ParameterHistory(std::chrono::milliseconds mergeWindow, std::size_t capacity)
    : mergeWindow_(mergeWindow), capacity_(std::max<std::size_t>(capacity, 2)) {}

std::string ParameterHistory::describe(const ParameterSnapshot& before,
                                       const ParameterSnapshot& after, std::string* singleKey) {
  singleKey->clear();
  if (after.experimentId != before.experimentId)
    return after.presetId.empty() ? "experiment " + after.experimentId : "preset " + after.presetId;
  if (after.presetId != before.presetId && !after.presetId.empty())
    return "preset " + after.presetId;
  std::vector<std::string> changed;
  for (const auto& [key, value] : after.parameters.values())
    if (const ParameterValue* old = before.parameters.find(key); !old || !(*old == value))
      changed.push_back(key);
  for (const auto& [key, value] : before.parameters.values())
    if (!after.parameters.find(key)) changed.push_back(key);
  if (changed.size() == 1) {
    *singleKey = changed.front();
    const ParameterValue* value = after.parameters.find(changed.front());
    return value ? changed.front() + " = " + formatParameterValue(*value) : changed.front();
  }
  if (changed.empty()) return after.presetId.empty() ? "preset" : "preset " + after.presetId;
  return std::to_string(changed.size()) + " parameters";
}

void ParameterHistory::record(const ParameterSnapshot& now, HistoryStep kind,
                              Clock::time_point at) {
  if (steps_.empty()) {
    steps_.push_back({now, {}, {}, at});
    position_ = 0;
    return;
  }
  steps_.resize(position_ + 1);  // a new step ends what could be redone
  Step& last = steps_.back();
  if (last.snapshot == now) return;
  std::string key;
  const std::string description = describe(last.snapshot, now, &key);
  // The next keystroke in the field edited last: the same step, with the newer value.
  const bool mayMerge = !movedSinceRecord_;
  movedSinceRecord_ = false;
  if (kind == HistoryStep::Edit && mayMerge && steps_.size() > 1 && !key.empty() &&
      key == last.editedKey && at - last.at <= mergeWindow_) {
    const ParameterSnapshot& before = steps_[steps_.size() - 2].snapshot;
    if (before == now) {  // typed back to where the step started: no step at all
      steps_.pop_back();
      position_ = steps_.size() - 1;
      return;
    }
    std::string mergedKey;
    last.description = describe(before, now, &mergedKey);
    last.snapshot = now;
    last.at = at;
    return;
  }
  steps_.push_back({now, description, kind == HistoryStep::Edit ? key : std::string(), at});
  if (steps_.size() > capacity_) steps_.erase(steps_.begin());
  position_ = steps_.size() - 1;
}

const ParameterSnapshot* ParameterHistory::undo() {
  if (!canUndo()) return nullptr;
  --position_;
  movedSinceRecord_ = true;
  return &steps_[position_].snapshot;
}

const ParameterSnapshot* ParameterHistory::redo() {
  if (!canRedo()) return nullptr;
  ++position_;
  movedSinceRecord_ = true;
  return &steps_[position_].snapshot;
}

std::string ParameterHistory::undoText() const {
  return canUndo() ? steps_[position_].description : std::string();
}

std::string ParameterHistory::redoText() const {
  return canRedo() ? steps_[position_ + 1].description : std::string();
}

const ParameterSnapshot* ParameterHistory::current() const {
  return steps_.empty() ? nullptr : &steps_[position_].snapshot;
}

void ParameterHistory::clear() {
  steps_.clear();
  position_ = 0;
  movedSinceRecord_ = false;
}

}  // namespace rfscope::ui
