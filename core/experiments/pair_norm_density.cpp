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
#include "core/montecarlo/conformity_estimate.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
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

RunResult PairNormDensity::runWith(const PairNormDensitySettings& settings,
                                   RunContext& context) const {
  const int d = settings.dimension;
  const std::vector<Coupling>& couplings = settings.couplings;
  const int bins = settings.bins;
  const std::int64_t blocks = settings.blocks;
  // The sampler's histogram range, and the part of it that holds visible mass.
  const double top = std::sqrt(2.0 * d) + 8;
  const double width = top / bins;
  const double shown = visibleRange(d, top);
  const int shownBins = std::clamp(static_cast<int>(std::ceil(shown / width)), 1, bins);

  RunResult result;
  Table& table = result.table;
  table.hints.title = "Density of w_ij = ‖ω_i + ω_j‖ within a block, d = " + std::to_string(d);
  table.hints.xColumn = "w";
  table.hints.xLabel = "w_ij = ‖ω_i + ω_j‖";
  table.hints.yLabel = "p(w_ij)";
  // Rows: a fine grid for the closed forms merged with the histogram's bin centres (the bins
  // that hold visible mass), sorted by w; binRow[b] is bin b's row.
  std::vector<double> w;
  std::vector<std::size_t> binRow;
  {
    const double end = shownBins * width;
    int b = 0;
    for (int i = 0; i < kCurvePoints; ++i) {
      const double x = end * i / (kCurvePoints - 1);
      for (; b < shownBins && (b + 0.5) * width <= x; ++b) {
        binRow.push_back(w.size());
        w.push_back((b + 0.5) * width);
      }
      w.push_back(x);
    }
  }
  table.addColumn("w", "w_ij (closed forms: fine grid; histograms: bin centres)", w);
  for (const Coupling coupling : couplings) {
    if (!hasPositiveClosedForms(coupling)) continue;
    const std::string& id = couplingId(coupling);
    std::vector<double> density;
    for (double x : w)
      density.push_back(std::exp(logPairNormDensity(coupling, d, x)));
    table.addColumn("p-" + id, couplingName(coupling) + " p(w_ij) (closed form)", density);
    table.hints.series.push_back(
        {couplingName(coupling), "p-" + id, "", "", id, SeriesStyle::Line, "", false});
  }
  if (blocks == 0 || stopIfCancelled(context, result)) return result;

  std::vector<ColumnHandle> histograms;
  for (const Coupling coupling : couplings) {
    const std::string& id = couplingId(coupling);
    histograms.push_back(table.addColumn("mc-" + id,
                                         couplingName(coupling) + " histogram (Monte Carlo)",
                                         std::vector(w.size(), kNaN)));
    table.hints.series.push_back({couplingName(coupling) + " (Monte Carlo)", "mc-" + id, "", "", id,
                                  SeriesStyle::Points, "", false});
  }
  // Batches run in parallel in rounds; counts add up exactly, so the histogram is the same for
  // any thread count and after every round it shows the blocks so far.
  const std::int64_t batches = (blocks + kBlocksPerBatch - 1) / kBlocksPerBatch;
  const std::int64_t batchesPerRound = 16;
  const double totalWork = static_cast<double>(batches * couplings.size());
  double done = 0;
  for (std::size_t c = 0; c < couplings.size(); ++c) {
    std::vector<std::int64_t> counts(bins, 0);
    std::int64_t pairs = 0;
    for (std::int64_t first = 0; first < batches; first += batchesPerRound) {
      const std::int64_t last = std::min(batches, first + batchesPerRound);
      std::vector<ConformityResult> estimates(static_cast<std::size_t>(last - first));
      if (!parallelCells(context, estimates.size(), [&](std::size_t i) {
            const std::int64_t b = first + static_cast<std::int64_t>(i);
            ConformityRequest request;
            request.coupling = couplings[c];
            request.dimension = d;
            request.histogramBins = bins;
            request.trials = std::min(kBlocksPerBatch, blocks - b * kBlocksPerBatch);
            request.seed = deriveSeed(settings.seed, c, static_cast<std::uint64_t>(b));
            estimates[i] = estimateConformity(request);
          })) {
        result.status = RunStatus::Cancelled;
        return result;
      }
      for (const ConformityResult& estimate : estimates) {
        for (int k = 0; k < bins; ++k)
          counts[k] += estimate.pairNorms.counts[k];
        pairs += estimate.pairNorms.sampleCount;
      }
      // Densities of the blocks so far: the histogram sharpens as the run goes.
      auto& column = table[histograms[c]].values;
      for (int k = 0; k < shownBins; ++k)
        column[binRow[k]] = static_cast<double>(counts[k]) / (static_cast<double>(pairs) * width);
      done += static_cast<double>(last - first);
      context.reportProgress(done / totalWork);
      if (done < totalWork) context.publishPartial(table);
    }
  }
  return result;
}

}  // namespace rfscope
