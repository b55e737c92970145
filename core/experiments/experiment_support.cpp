#include "core/experiments/experiment_support.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/experiments/common_parameters.h"
#include "core/montecarlo/leaf_result.h"
#include "core/montecarlo/monte_carlo_backend.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "core/params/parameter_set.h"

namespace rfscope {

std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  // SplitMix64 finaliser over a simple combination: cheap and well mixed.
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + (a + 1) * 0xD1B54A32D192ED03ull +
                    (b + 1) * 0x8CB92BA72F3D8DD7ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (z ^ (z >> 31)) >> 1;  // the engine's seeds are non-negative 63-bit values
}

Outcome<MonteCarloResult> runMonteCarloFor(
    const MonteCarloRequest& request, RunContext& context,
    const std::function<void(const MonteCarloResult&)>& partial, bool reportProgress) {
  MonteCarloCallbacks callbacks;
  callbacks.cancelled = [&context] { return context.cancelled(); };
  callbacks.partial = partial;
  if (reportProgress) callbacks.progress = [&context](double f) { context.reportProgress(f); };
  MonteCarloRequest onChosenBackend = request;
  onChosenBackend.backend = context.backendChoice();
  auto result = runMonteCarlo(onChosenBackend, callbacks);
  if (result) context.reportBackend(result->backend, result->backendNote);
  return result;
}

MonteCarloResult sampleSerially(const SamplingPlan& plan, std::int64_t trials,
                                TrialScratch& scratch, const std::function<bool()>& stop) {
  LeafRange range;
  range.totalTrials = trials;
  range.selectionThreshold = 0;
  MomentAccumulator total;
  std::vector<MomentAccumulator> batches(kBatchCount);
  LeafResult leaf;
  const std::int64_t leaves = (trials + kTrialsPerLeaf - 1) / kTrialsPerLeaf;
  bool cancelled = false;
  for (std::int64_t l = 0; l < leaves && !cancelled; ++l) {
    runLeaf(plan, range, l, leaf, scratch, stop);
    cancelled = !leaf.complete;
    if (cancelled) break;
    total.merge(leaf.moments);
    batches[static_cast<std::size_t>(l % kBatchCount)].merge(leaf.moments);
  }
  std::vector<StoredSample> none;
  MonteCarloResult result =
      summarize(total, batches, none, {}, 0, plan.fourthMomentInfinite, plan.exactTail);
  result.trialsRequested = trials;
  result.logKernelValue = plan.logKernelValue;
  result.parametersUsed = plan.parametersUsed;
  result.cancelled = cancelled;
  return result;
}

MeanAndStd summarizeFinite(const double* values, std::size_t count) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  MeanAndStd s{kNaN, kNaN, 0};
  double mean = 0, m2 = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) {
      ++s.excluded;
      continue;
    }
    ++n;
    const double delta = values[i] - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (values[i] - mean);
  }
  if (n > 0) {
    s.mean = mean;
    s.std = n > 1 ? std::sqrt(m2 / static_cast<double>(n - 1)) : 0.0;
  }
  return s;
}

bool stopIfCancelled(RunContext& context, RunResult& result) {
  if (!context.cancelled()) return false;
  result.status = RunStatus::Cancelled;
  return true;
}

std::vector<double> valueGrid(double minimum, double maximum, std::int64_t steps, bool logSpacing) {
  if (steps <= 1) return {minimum};
  return sigmaGrid(minimum, maximum, steps, logSpacing);
}

std::string countText(double count) {
  if (!std::isfinite(count)) return formatParameterValue(count);
  if (std::fabs(count) < 1e6) return std::to_string(std::llround(count));
  // Three significant digits and a power of ten: "2.47 × 10¹²", not 13 digits of a prediction
  // good to a few percent.
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", count);  // "2.47e+12"
  const std::string scientific = text;
  const std::size_t e = scientific.find('e');
  const int exponent = std::stoi(scientific.substr(e + 1));
  static const char* const superscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string power;
  for (const char digit : std::to_string(exponent))
    power += digit == '-' ? std::string("⁻") : std::string(superscripts[digit - '0']);
  return scientific.substr(0, e) + " × 10" + power;
}

std::vector<std::string> groupedBySubject(
    const std::vector<std::pair<std::string, std::string>>& notes) {
  std::vector<std::pair<std::string, std::string>> lines;  // subjects, reason
  for (const auto& note : notes) {  // (no structured binding: clang 14 cannot capture one)
    auto line = std::find_if(lines.begin(), lines.end(),
                             [&](const auto& l) { return l.second == note.second; });
    if (line == lines.end())
      lines.push_back(note);
    else
      line->first += "; " + note.first;
  }
  std::vector<std::string> out;
  for (const auto& [subjects, reason] : lines)
    out.push_back(subjects + ": " + reason);
  return out;
}

}  // namespace rfscope
