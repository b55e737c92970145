#pragma once
// Progress as people read it: "45% · about 12 s left". The remaining time is extrapolated from the
// elapsed time and the fraction done, once there is enough of both to mean something; the rate is
// smoothed so that the estimate does not jump with every report. Plain C++ (core/io, below ui and
// app): the app's progress bar and rfscope-cli's progress line share it.

#include <optional>
#include <string>

namespace rfscope {

class RemainingTime {
 public:
  // A new run: forget the previous estimate.
  void restart();
  // Records progress (0..1, non-decreasing) reached after `elapsedSeconds` of the run.
  void update(double fraction, double elapsedSeconds);
  // Seconds left, unset while the estimate would be noise (under 2% done or under a second).
  std::optional<double> secondsLeft() const;
  // "45%", "45% · about 12 s left", "45% · about 3 min left".
  std::string describe() const;

 private:
  double fraction_ = 0;
  double elapsed_ = 0;
  std::optional<double> secondsPerUnit_;  // smoothed time per unit of progress
};

// "0.4 s", "12 s", "3 min 20 s", "1 h 05 min".
std::string formatDuration(double seconds);

}  // namespace rfscope
