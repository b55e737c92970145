#include "core/io/remaining_time.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rfscope {
namespace {

constexpr double kMinimumFraction = 0.02;
constexpr double kMinimumSeconds = 1.0;
constexpr double kSmoothing = 0.3;  // weight of the newest rate

}  // namespace

void RemainingTime::restart() {
  *this = RemainingTime();
}

void RemainingTime::update(double fraction, double elapsedSeconds) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  if (fraction < fraction_) return;
  fraction_ = fraction;
  elapsed_ = elapsedSeconds;
  if (fraction_ < kMinimumFraction || elapsed_ < kMinimumSeconds) return;
  const double rate = elapsed_ / fraction_;  // the average over the whole run so far
  secondsPerUnit_ =
      secondsPerUnit_ ? (1 - kSmoothing) * *secondsPerUnit_ + kSmoothing * rate : rate;
}

std::optional<double> RemainingTime::secondsLeft() const {
  if (!secondsPerUnit_ || fraction_ < kMinimumFraction || elapsed_ < kMinimumSeconds)
    return std::nullopt;
  return std::max(0.0, *secondsPerUnit_ * (1 - fraction_));
}

std::string RemainingTime::describe() const {
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.0f%%", std::floor(100 * fraction_));
  std::string text = percent;
  const auto left = secondsLeft();
  if (left && fraction_ < 1) text += " · about " + formatDuration(*left) + " left";
  return text;
}

std::string formatDuration(double seconds) {
  char buffer[32];
  if (seconds < 10)
    std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
  else if (seconds < 60)
    std::snprintf(buffer, sizeof buffer, "%.0f s", seconds);
  else if (seconds < 3600)
    std::snprintf(buffer, sizeof buffer, "%d min %02d s", static_cast<int>(seconds / 60),
                  static_cast<int>(std::fmod(seconds, 60)));
  else
    std::snprintf(buffer, sizeof buffer, "%d h %02d min", static_cast<int>(seconds / 3600),
                  static_cast<int>(std::fmod(seconds, 3600) / 60));
  return buffer;
}

}  // namespace rfscope
