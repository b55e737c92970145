#include "core/experiments/pair_norm_density.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/couplings/coupling.h"
#include "core/couplings/positive_conformity.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/math/log_math.h"
#include "core/montecarlo/conformity_estimate.h"

namespace rfscope {
namespace {

// Blocks per batch: each batch is one engine call under its own derived seed, so the run can be
// cancelled between batches and gives the same histogram for any thread count.
constexpr std::int64_t kBlocksPerBatch = 512;
// Points of the closed-form curves: smooth peaks at any d.
constexpr int kCurvePoints = 400;

// Where the widest density (IID's: w_ij = √2 χ_d) has fallen below 1e-4 of its peak (the mass
// beyond is about 1e-5), at most `top`: beyond it no coupling has visible mass, and the plot would
// be empty.
double visibleRange(int d, double top) {
  const double logPeak = logPairNormDensity(Coupling::Iid, d, std::sqrt(2.0 * (d - 1)));
  const double step = top / 1000;
  for (double w = std::sqrt(2.0 * d); w < top; w += step)
    if (logPairNormDensity(Coupling::Iid, d, w) < logPeak + std::log(1e-4)) return w;
  return top;
}

// The sampler's histogram range [0, top] in `bins` bins of `width`, and the bins that hold visible
// mass, at rows binRow[b] of the grid w.
struct DensityGrid {
  double width = 0;
  int shownBins = 0;
  std::vector<double> w;
  std::vector<std::size_t> binRow;
};

DensityGrid densityGrid(int d, int bins) {
  DensityGrid grid;
  const double top = std::sqrt(2.0 * d) + 8;
  grid.width = top / bins;
  const double shown = visibleRange(d, top);
  grid.shownBins = std::clamp(static_cast<int>(std::ceil(shown / grid.width)), 1, bins);
  // Rows: a fine grid for the closed forms merged with the bin centres, sorted by w.
  const double end = grid.shownBins * grid.width;
  int b = 0;
  for (int i = 0; i < kCurvePoints; ++i) {
    const double x = end * i / (kCurvePoints - 1);
    for (; b < grid.shownBins && (b + 0.5) * grid.width <= x; ++b) {
      grid.binRow.push_back(grid.w.size());
      grid.w.push_back((b + 0.5) * grid.width);
    }
    grid.w.push_back(x);
  }
  return grid;
}

// The couplings with their closed-form densities at every w (where they have one).
std::vector<PairNormCoupling> closedForms(const PairNormDensitySettings& settings,
                                          const std::vector<double>& w) {
  std::vector<PairNormCoupling> couplings;
  for (const Coupling coupling : settings.couplings) {
    PairNormCoupling c;
    c.coupling = coupling;
    c.closedForm = hasPositiveClosedForms(coupling);
    if (c.closedForm)
      for (double x : w)
        c.density.push_back(std::exp(logPairNormDensity(coupling, settings.dimension, x)));
    couplings.push_back(std::move(c));
  }
  return couplings;
}

// Coupling c's histogram, sampled in batches that run in parallel in rounds; counts add up
// exactly, so the histogram is the same for any thread count and after every round it shows the
// blocks so far (published). False if cancelled.
class BlockSampler {
 public:
  BlockSampler(const PairNormDensitySettings& settings, const DensityGrid& grid,
               ResultContext<PairNormDensityResult>& context, PairNormDensityResult& result)
      : settings_(settings), grid_(grid), context_(context), result_(result) {}

  bool sample(std::size_t c) {
    const std::int64_t batches = batchCount();
    std::vector<std::int64_t> counts(settings_.bins, 0);
    std::int64_t pairs = 0;
    for (std::int64_t first = 0; first < batches; first += kBatchesPerRound) {
      const std::int64_t last = std::min(batches, first + kBatchesPerRound);
      std::vector<ConformityResult> estimates(static_cast<std::size_t>(last - first));
      if (!parallelCells(context_, estimates.size(), [&](std::size_t i) {
            estimates[i] = runBatch(c, first + static_cast<std::int64_t>(i));
          }))
        return false;
      for (const ConformityResult& estimate : estimates) {
        for (int k = 0; k < settings_.bins; ++k)
          counts[k] += estimate.pairNorms.counts[k];
        pairs += estimate.pairNorms.sampleCount;
      }
      // Densities of the blocks so far: the histogram sharpens as the run goes.
      std::vector<double>& column = result_.couplings[c].histogram;
      for (int k = 0; k < grid_.shownBins; ++k)
        column[grid_.binRow[k]] =
            static_cast<double>(counts[k]) / (static_cast<double>(pairs) * grid_.width);
      done_ += static_cast<double>(last - first);
      const double totalWork = static_cast<double>(batches * settings_.couplings.size());
      context_.reportProgress(done_ / totalWork);
      if (done_ < totalWork) context_.publishPartialResult(result_);
    }
    return true;
  }

 private:
  static constexpr std::int64_t kBatchesPerRound = 16;

  std::int64_t batchCount() const {
    return (settings_.blocks + kBlocksPerBatch - 1) / kBlocksPerBatch;
  }

  // Batch b of coupling c: one engine call under its own derived seed.
  ConformityResult runBatch(std::size_t c, std::int64_t b) const {
    ConformityRequest request;
    request.coupling = settings_.couplings[c];
    request.dimension = settings_.dimension;
    request.histogramBins = settings_.bins;
    request.trials = std::min(kBlocksPerBatch, settings_.blocks - b * kBlocksPerBatch);
    request.seed = deriveSeed(settings_.seed, c, static_cast<std::uint64_t>(b));
    return estimateConformity(request);
  }

  const PairNormDensitySettings& settings_;
  const DensityGrid& grid_;
  ResultContext<PairNormDensityResult>& context_;
  PairNormDensityResult& result_;
  double done_ = 0;
};

}  // namespace

const ExperimentInfo& PairNormDensity::info() const {
  static const ExperimentInfo info{
      "wij-density", "Density of w_ij = ‖ω_i + ω_j‖", "SimRF (Reid et al. 2023)",
      "SimRF Fig. 5: p(w_ij) for IID, ORF and SimRF blocks, closed forms over Monte Carlo "
      "histograms; coupling removes mass at large w_ij"};
  return info;
}

std::vector<ParameterSpec> PairNormDensity::parameters() const {
  auto d = dimensionParameter(6);
  d.minimum = 2;
  d.maximum = 256;
  auto chosen =
      multiChoiceParameter("couplings", "Couplings", couplingChoices(), {"iid", "orf", "simrf"},
                           "closed forms for iid, orf and simrf");
  chosen.group = "Estimator";
  auto bins = integerParameter("bins", "Bins", 60, 5, 1000, "histogram bins over [0, √(2d) + 8]");
  auto blocks = integerParameter("blocks", "Blocks", 20000, 0, 100000000,
                                 "coupled blocks of d vectors sampled per coupling (0: no "
                                 "histogram)");
  bins.group = blocks.group = "Sampling";
  return {d, chosen, bins, blocks, seedParameter()};
}

PairNormDensitySettings PairNormDensity::parse(const ParameterSet& params) const {
  PairNormDensitySettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  for (const auto& id : params.choices("couplings"))
    s.couplings.push_back(parseCoupling(id, "couplings"));
  s.bins = static_cast<int>(params.integer("bins"));
  s.blocks = params.integer("blocks");
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  return s;
}

ParameterSet PairNormDensity::testParameters(TestLoad load) const {
  if (load == TestLoad::Light) return defaultsWith({{"blocks", std::int64_t{1500}}});
  return defaultsWith({{"blocks", std::int64_t{10000000}}});
}

Computed<PairNormDensityResult> PairNormDensity::compute(
    const PairNormDensitySettings& settings, ResultContext<PairNormDensityResult>& context) const {
  const DensityGrid grid = densityGrid(settings.dimension, settings.bins);
  Computed<PairNormDensityResult> computed;
  PairNormDensityResult& result = computed.result;
  result.w = grid.w;
  result.couplings = closedForms(settings, grid.w);
  if (settings.blocks == 0) return computed;
  if (context.cancelled()) {
    computed.status = RunStatus::Cancelled;
    return computed;
  }
  result.sampled = true;
  for (PairNormCoupling& c : result.couplings)
    c.histogram.assign(grid.w.size(), kNaN);
  BlockSampler sampler(settings, grid, context, result);
  for (std::size_t c = 0; c < settings.couplings.size(); ++c)
    if (!sampler.sample(c)) {
      computed.status = RunStatus::Cancelled;
      return computed;
    }
  return computed;
}

Presentation PairNormDensity::present(const PairNormDensitySettings& settings,
                                      const PairNormDensityResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  table.hints.title =
      "Density of w_ij = ‖ω_i + ω_j‖ within a block, d = " + std::to_string(settings.dimension);
  table.hints.xColumn = "w";
  table.hints.xLabel = "w_ij = ‖ω_i + ω_j‖";
  table.hints.yLabel = "p(w_ij)";
  table.hints.xShortLabel = "w_ij";
  table.addColumn("w", "w_ij (closed forms: fine grid; histograms: bin centres)", result.w);
  for (const PairNormCoupling& c : result.couplings) {
    if (!c.closedForm) continue;
    const std::string& id = couplingId(c.coupling);
    table.addColumn("p-" + id, couplingName(c.coupling) + " p(w_ij) (closed form)", c.density);
    table.hints.series.push_back(
        {couplingName(c.coupling), "p-" + id, "", "", id, SeriesStyle::Line, "", false});
  }
  if (!result.sampled) return shown;
  for (const PairNormCoupling& c : result.couplings) {
    const std::string& id = couplingId(c.coupling);
    table.addColumn("mc-" + id, couplingName(c.coupling) + " histogram (Monte Carlo)", c.histogram);
    table.hints.series.push_back({couplingName(c.coupling) + " (Monte Carlo)", "mc-" + id, "", "",
                                  id, SeriesStyle::Points, "", false});
  }
  return shown;
}

}  // namespace rfscope
