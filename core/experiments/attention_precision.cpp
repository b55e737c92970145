#include "core/experiments/attention_precision.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include "core/attention/attention_parameters.h"
#include "core/attention/attention_problem.h"
#include "core/attention/exact_attention.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/experiments/memory_budget.h"
#include "core/math/log_math.h"
#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

// Three significant digits, for the notes.
std::string threeDigits(double value) {
  std::ostringstream out;
  out << std::setprecision(3) << value;
  return out.str();
}

const std::vector<Precision>& allPrecisions() {
  static const std::vector<Precision> all{Precision::Float16, Precision::Bfloat16,
                                          Precision::Float32, Precision::Float64};
  return all;
}

const std::vector<Stabiliser>& allStabilisers() {
  static const std::vector<Stabiliser> all{Stabiliser::None,         Stabiliser::NormFactor,
                                           Stabiliser::RowMax,       Stabiliser::GlobalMax,
                                           Stabiliser::PerformerMax, Stabiliser::Performer,
                                           Stabiliser::ExponentMax};
  return all;
}

// The mechanisms the precision model covers (precision_attention.h).
std::vector<ParameterChoice> precisionMechanismChoices() {
  std::vector<ParameterChoice> choices;
  for (const char* id : {"pos", "pos-hyp", "oprf", "trig"})
    if (const Mechanism* m = findMechanism(id)) choices.push_back({m->info().id, m->info().name});
  return choices;
}

std::string sweepId(AttentionPrecisionSettings::Sweep s) {
  switch (s) {
    case AttentionPrecisionSettings::Sweep::InputScale:
      return "input-scale";
    case AttentionPrecisionSettings::Sweep::SequenceLength:
      return "sequence-length";
    case AttentionPrecisionSettings::Sweep::Eps:
      return "eps";
  }
  return "";
}

std::string sweepLabel(AttentionPrecisionSettings::Sweep s) {
  switch (s) {
    case AttentionPrecisionSettings::Sweep::InputScale:
      return "input scale (std of the raw q, k entries)";
    case AttentionPrecisionSettings::Sweep::SequenceLength:
      return "sequence length L";
    case AttentionPrecisionSettings::Sweep::Eps:
      return "Performer ε";
  }
  return "";
}

// The raw problem at unit scale, drawn once: q, k ~ N(0, I), v ~ N(0, I), L_max rows.
AttentionProblem unitProblem(const AttentionPrecisionSettings& s) {
  TrialStream stream(deriveSeed(s.seed, 1000), 0);
  return gaussianAttentionProblem(s.length, s.dimension, s.valueDimension, 1.0, stream, s.causal);
}

// The swept problem: raw q, k (scaled by the input scale, first L rows) and, for the exact side,
// x = q d^{-1/4}, y = k d^{-1/4}.
struct SweptProblem {
  Eigen::MatrixXd rawQueries, rawKeys;
  AttentionProblem scaled;
};

SweptProblem sweptProblem(const AttentionPrecisionSettings& s, const AttentionProblem& unit,
                          double x) {
  using Sweep = AttentionPrecisionSettings::Sweep;
  const double scale = s.sweep == Sweep::InputScale ? x : s.inputScale;
  const Eigen::Index rows =
      s.sweep == Sweep::SequenceLength ? static_cast<Eigen::Index>(x) : unit.rows();
  SweptProblem p;
  p.rawQueries = unit.queries.topRows(rows) * scale;
  p.rawKeys = unit.keys.topRows(rows) * scale;
  const double factor = std::pow(static_cast<double>(s.dimension), -0.25);
  p.scaled.queries = p.rawQueries * factor;
  p.scaled.keys = p.rawKeys * factor;
  p.scaled.values = unit.values.topRows(rows);
  p.scaled.causal = s.causal;
  return p;
}

// One draw's numbers for one (precision, stabiliser).
struct DrawMeasure {
  double error = kNaN, rounding = kNaN;
  double overflow = 0, zero = 0, subnormal = 0, inverseOverflow = 0, nonFinite = 0;
  double featureUnderflow = 0, featureOverflow = 0;
  Eigen::MatrixXd output;
};

bool finiteRow(const Eigen::MatrixXd& m, Eigen::Index i) {
  return m.row(i).allFinite();
}

void countFeatures(const Eigen::MatrixXd& features, const Eigen::MatrixXd& reference,
                   double& underflow, double& overflow) {
  for (Eigen::Index i = 0; i < features.rows(); ++i)
    for (Eigen::Index k = 0; k < features.cols(); ++k) {
      const double f = features(i, k);
      if (!std::isfinite(f))
        ++overflow;
      else if (f == 0 && reference(i, k) != 0)
        ++underflow;
    }
}

DrawMeasure measure(const PrecisionAttention& attention, const PrecisionAttention& reference,
                    const Eigen::MatrixXd& exact, Precision p) {
  DrawMeasure m;
  const Eigen::Index n = exact.rows();
  double error = 0, rounding = 0, norm = 0;
  Eigen::Index finite = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double d = attention.normaliser[i];
    if (!std::isfinite(d))
      ++m.overflow;
    else if (d == 0)
      ++m.zero;
    else if (std::fabs(d) < smallestNormal(p))
      ++m.subnormal;
    if (std::isfinite(d) && d != 0 && std::isinf(roundTo(p, 1.0 / d))) ++m.inverseOverflow;
    if (!finiteRow(attention.output, i)) {
      ++m.nonFinite;
      continue;
    }
    ++finite;
    error += (attention.output.row(i) - exact.row(i)).squaredNorm();
    norm += exact.row(i).squaredNorm();
    if (finiteRow(reference.output, i))
      rounding += (attention.output.row(i) - reference.output.row(i)).squaredNorm();
  }
  const auto rows = static_cast<double>(n);
  m.overflow /= rows;
  m.zero /= rows;
  m.subnormal /= rows;
  m.inverseOverflow /= rows;
  m.nonFinite /= rows;
  if (finite > 0 && norm > 0) {
    m.error = std::sqrt(error / norm);
    m.rounding = std::sqrt(rounding / norm);
  }
  m.output = attention.output;
  return m;
}

// Mean over the redraws of the finite values (NaN when none).
double meanOf(const std::vector<DrawMeasure>& draws, double DrawMeasure::*field) {
  std::vector<double> values;
  for (const DrawMeasure& d : draws)
    values.push_back(d.*field);
  return summarizeFinite(values.data(), values.size()).mean;
}

// Bias and spread over the redraws, on the rows finite in every redraw.
std::pair<double, double> biasAndSpread(const std::vector<DrawMeasure>& draws,
                                        const Eigen::MatrixXd& exact) {
  const Eigen::Index n = exact.rows();
  const auto r = static_cast<double>(draws.size());
  double biasSquared = 0, variance = 0, norm = 0;
  Eigen::Index used = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    bool finite = true;
    for (const DrawMeasure& d : draws)
      finite = finite && finiteRow(d.output, i);
    if (!finite) continue;
    ++used;
    Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(exact.cols());
    for (const DrawMeasure& d : draws)
      mean += d.output.row(i);
    mean /= r;
    double sample = 0;
    for (const DrawMeasure& d : draws)
      sample += (d.output.row(i) - mean).squaredNorm();
    sample /= r - 1;
    biasSquared += (mean - exact.row(i)).squaredNorm() - sample / r;
    variance += sample;
    norm += exact.row(i).squaredNorm();
  }
  if (used == 0 || !(norm > 0)) return {kNaN, kNaN};
  return {std::sqrt(std::max(0.0, biasSquared) / norm), std::sqrt(variance / norm)};
}

}  // namespace

const ExperimentInfo& AttentionPrecision::info() const {
  static const ExperimentInfo info{
      "attention-precision", "Linear attention in reduced precision", "Performer attention",
      "Random-feature attention in float16, bfloat16 and float32 (emulated rounding), with and "
      "without the stabilisers implementations use: overflowed, zero and subnormal normalisers "
      "and the output error against float64, versus input scale, L or the Performer ε"};
  return info;
}

std::vector<ParameterSpec> AttentionPrecision::parameters() const {
  auto d = dimensionParameter(16);
  auto length = integerParameter("sequence-length", "Sequence length L", 256, 2, 4096,
                                 "queries, keys and values per sequence (the largest L of a "
                                 "sequence-length sweep)");
  auto dv = integerParameter("value-dimension", "Value dimension", 8, 1, 256,
                             "entries of each value vector");
  auto scale = realParameter("input-scale", "Input scale", 1, 1e-3, 100,
                             "std of the raw query/key entries (scaled by d^(-1/4) inside the "
                             "feature map, as implementations do)",
                             true);
  auto causal = booleanParameter("causal", "Causal", false,
                                 "each row attends to the keys up to itself (running sums kept "
                                 "in the working precision)");
  d.group = length.group = dv.group = scale.group = causal.group = "Data";
  auto mechanisms = multiChoiceParameter("mechanisms", "Mechanisms", precisionMechanismChoices(),
                                         {"pos"}, "feature maps (OPRF's A* from the data)");
  auto couplings = multiChoiceParameter("couplings", "Couplings", couplingChoices(), {"orf"},
                                        "how the frequencies are coupled");
  auto features = integerParameter("features", "Features M", 64, 1, 4096, "random features");
  std::vector<ParameterChoice> precisionChoices;
  for (Precision p : allPrecisions())
    precisionChoices.push_back({precisionId(p), precisionName(p)});
  auto precisions = multiChoiceParameter(
      "precisions", "Precisions", precisionChoices, {"fp16", "bf16", "fp32", "fp64"},
      "working precisions (float64 is also computed as the reference)");
  std::vector<ParameterChoice> stabiliserChoices;
  for (Stabiliser s : allStabilisers())
    stabiliserChoices.push_back({stabiliserId(s), stabiliserName(s)});
  auto stabilisers = multiChoiceParameter(
      "stabilisers", "Stabilisers", stabiliserChoices, {"none", "performer-max", "performer"},
      "none; ‖x‖²/2 applied after e^x; max of ωᵀx subtracted per row on both sides, over all "
      "rows on both sides, or per query row and over all keys (Performer), that plus ε "
      "(performer-pytorch's softmax_kernel); the whole exponent's max (per query row, all keys)");
  auto eps = realParameter("eps", "Performer ε", 1e-4, 0, 1,
                           "added to every positive feature by the 'performer' stabiliser");
  mechanisms.group = couplings.group = features.group = "Estimator";
  precisions.group = stabilisers.group = eps.group = "Estimator";
  auto sweep = choiceParameter("sweep", "Sweep",
                               {{"input-scale", "Input scale"},
                                {"sequence-length", "Sequence length L"},
                                {"eps", "Performer ε"}},
                               "input-scale", "the quantity along x");
  auto low = realParameter("sweep-min", "Sweep from", 0.25, 0, 4096, "smallest swept value");
  auto high = realParameter("sweep-max", "Sweep to", 4, 0, 4096, "largest swept value");
  auto steps = integerParameter("sweep-steps", "Sweep steps", 9, 1, 100, "swept values");
  auto logSweep = booleanParameter("sweep-log", "Log spacing", true, "log-spaced sweep");
  sweep.group = low.group = high.group = steps.group = logSweep.group = "Sweep";
  auto redraws = integerParameter("redraws", "Redraws", 8, 2, 10000,
                                  "independent draws of the features per swept value");
  redraws.group = "Sampling";
  auto plotted = choiceParameter("plot", "Plot",
                                 {{"error", "relative output error of the finite rows"},
                                  {"broken-rows", "fraction of rows with a non-finite output"}},
                                 "error", "what the figure shows (the table has both)");
  plotted.group = "Sweep";
  return {d,        length,     dv,          scale,   causal,         mechanisms, couplings,
          features, precisions, stabilisers, eps,     sweep,          low,        high,
          steps,    logSweep,   plotted,     redraws, seedParameter()};
}

std::optional<MemoryEstimate> AttentionPrecision::memoryEstimate(const ParameterSet& params) const {
  const AttentionPrecisionSettings s = parse(params);
  const double estimators = static_cast<double>(s.mechanisms.size() * s.couplings.size());
  const double combos = static_cast<double>(s.precisions.size() * s.stabilisers.size());
  const auto length = static_cast<double>(s.length);
  const double outputs = estimators * combos * static_cast<double>(s.redraws) * length *
                         static_cast<double>(s.valueDimension) * sizeof(double);
  const double cells = concurrentCells(static_cast<std::size_t>(estimators) * s.redraws);
  const double features = cells * 6 * length * 2 * static_cast<double>(s.features) * sizeof(double);
  MemoryEstimate estimate;
  estimate.bytes = outputs + features;
  estimate.parameter = "redraws";
  estimate.breakdown = wholeNumberText(estimators * combos * static_cast<double>(s.redraws)) +
                       " outputs of " + wholeNumberText(length) + " × " +
                       std::to_string(s.valueDimension) + " per swept value, and " +
                       wholeNumberText(cells) + " cells at once × 6 feature matrices of " +
                       wholeNumberText(length) + " rows × " +
                       wholeNumberText(2 * static_cast<double>(s.features)) + " columns";
  return estimate;
}

ParameterSet AttentionPrecision::testParameters(TestLoad load) const {
  if (load == TestLoad::Light)
    return defaultsWith({{"sequence-length", std::int64_t{32}},
                         {"features", std::int64_t{16}},
                         {"sweep-steps", std::int64_t{3}},
                         {"redraws", std::int64_t{3}}});
  return defaultsWith({{"sweep-steps", std::int64_t{40}}, {"redraws", std::int64_t{40}}});
}

AttentionPrecisionSettings AttentionPrecision::parse(const ParameterSet& params) const {
  using Sweep = AttentionPrecisionSettings::Sweep;
  AttentionPrecisionSettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  s.length = params.integer("sequence-length");
  s.valueDimension = params.integer("value-dimension");
  s.inputScale = params.real("input-scale");
  s.causal = params.boolean("causal");
  for (const auto& id : params.choices("mechanisms"))
    s.mechanisms.push_back(findMechanism(id));
  for (const auto& id : params.choices("couplings"))
    s.couplings.push_back(parseCoupling(id, "couplings"));
  s.features = params.integer("features");
  for (const auto& id : params.choices("precisions"))
    for (Precision p : allPrecisions())
      if (id == precisionId(p)) s.precisions.push_back(p);
  for (const auto& id : params.choices("stabilisers"))
    for (Stabiliser st : allStabilisers())
      if (id == stabiliserId(st)) s.stabilisers.push_back(st);
  s.eps = params.real("eps");
  const std::string sweep = params.choice("sweep");
  s.sweep = sweep == "sequence-length" ? Sweep::SequenceLength
            : sweep == "eps"           ? Sweep::Eps
                                       : Sweep::InputScale;
  const double low = params.real("sweep-min"), high = std::max(low, params.real("sweep-max"));
  const bool logSpacing = params.boolean("sweep-log") && low > 0;
  for (double x : valueGrid(low, high, params.integer("sweep-steps"), logSpacing)) {
    if (s.sweep == Sweep::SequenceLength) x = std::round(x);
    if (s.grid.empty() || x > s.grid.back()) s.grid.push_back(x);
  }
  if (s.sweep == Sweep::SequenceLength && !s.grid.empty())
    s.length = std::max<std::int64_t>(s.length, static_cast<std::int64_t>(s.grid.back()));
  s.plotted = choiceValue<AttentionPrecisionSettings::Plotted>(
      params, "plot",
      {{"error", AttentionPrecisionSettings::Plotted::Error},
       {"broken-rows", AttentionPrecisionSettings::Plotted::BrokenRows}});
  s.redraws = static_cast<std::size_t>(params.integer("redraws"));
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  return s;
}

std::vector<ParameterError> AttentionPrecision::crossValidate(const ParameterSet& params) const {
  const AttentionPrecisionSettings s = parse(params);
  const std::string sweep = params.choice("sweep");
  const double low = params.real("sweep-min"), high = params.real("sweep-max");
  if (low > high) return {{"sweep-max", "parameter 'sweep-max': must not be below sweep-min"}};
  if (sweep == "input-scale" && !(low > 0))
    return {{"sweep-min", "parameter 'sweep-min': input scales must be positive"}};
  if (sweep == "sequence-length" && (low < 2 || high > 4096))
    return {{"sweep-min", "parameter 'sweep-min': sequence lengths from 2 to 4096"}};
  if (sweep == "eps" && high > 1) return {{"sweep-max", "parameter 'sweep-max': ε up to 1"}};
  for (const Coupling coupling : s.couplings)
    if (const std::string problem = couplingDimensionProblem(coupling, s.dimension);
        !problem.empty())
      return {{"couplings", "parameter 'couplings': " + problem}};
  AttentionPrecisionSettings probeSettings = s;
  probeSettings.length = 2;
  probeSettings.sweep = AttentionPrecisionSettings::Sweep::InputScale;
  const AttentionProblem probe = sweptProblem(probeSettings, unitProblem(probeSettings), 1).scaled;
  for (const Mechanism* mechanism : s.mechanisms)
    for (const Coupling coupling : s.couplings) {
      const FeatureMapSpec spec = attentionFeatureSpec(*mechanism, probe, coupling);
      TrialStream stream(0, 0);
      const auto map = mechanism->drawFeatureMap(spec, stream);
      FeatureMapRecipe recipe;
      if (!map || !(*map)->describe(recipe) || !precisionModelCovers(recipe))
        return {{"couplings",
                 "parameter 'couplings': " + mechanism->info().id + " under " +
                     couplingId(coupling) + ": " +
                     (map ? std::string("not covered by the precision model") : map.reason())}};
    }
  return {};
}

Computed<AttentionPrecisionResult> AttentionPrecision::compute(
    const AttentionPrecisionSettings& settings,
    ResultContext<AttentionPrecisionResult>& context) const {
  using Sweep = AttentionPrecisionSettings::Sweep;
  Computed<AttentionPrecisionResult> computed;
  AttentionPrecisionResult& result = computed.result;
  result.estimators = estimatorSeries(settings.mechanisms, settings.couplings);
  const std::size_t estimators = result.estimators.size();
  const std::size_t precisions = settings.precisions.size();
  const std::size_t stabilisers = settings.stabilisers.size();
  const std::size_t combos = precisions * stabilisers;
  for (std::size_t e = 0; e < estimators; ++e)
    for (Precision p : settings.precisions)
      for (Stabiliser st : settings.stabilisers) {
        PrecisionSeries series;
        series.estimator = e;
        series.precision = p;
        series.stabiliser = st;
        result.series.push_back(std::move(series));
      }
  const AttentionProblem unit = unitProblem(settings);
  const std::size_t rowsCount = settings.grid.size(), redraws = settings.redraws;

  // Per row: the problem, its exact output and each mechanism's parameters.
  std::vector<SweptProblem> problems(rowsCount);
  std::vector<Eigen::MatrixXd> exact(rowsCount);
  std::vector<std::vector<ParameterSet>> parameters(rowsCount);
  // Per (row, estimator, combo, redraw): the draw's numbers, released once the row is committed.
  std::vector<DrawMeasure> draws(rowsCount * estimators * combos * redraws);
  const auto at = [&](std::size_t row, std::size_t e, std::size_t c) {
    return ((row * estimators + e) * combos + c) * redraws;
  };

  CellWork work;
  work.prepareRow = [&](std::size_t row) {
    problems[row] = sweptProblem(settings, unit, settings.grid[row]);
    exact[row] = exactAttention(problems[row].scaled).output;
    for (const Mechanism* m : settings.mechanisms)
      parameters[row].push_back(attentionParameters(*m, problems[row].scaled));
  };
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell) {
      if (context.cancelled()) return;
      const std::size_t row = cell / (estimators * redraws);
      const std::size_t e = cell / redraws % estimators, r = cell % redraws;
      const EstimatorSeries& series = result.estimators[e];
      FeatureMapSpec spec;
      spec.kernel = Kernel::Softmax;
      spec.coupling = series.coupling;
      spec.dimension = settings.dimension;
      spec.features = settings.features;
      spec.parameters = parameters[row][series.mechanismIndex];
      TrialStream stream(deriveSeed(settings.seed, series.couplingIndex, series.mechanismIndex), r);
      const auto map = series.mechanism->drawFeatureMap(spec, stream);
      FeatureMapRecipe recipe;
      (*map)->describe(recipe);
      const SweptProblem& problem = problems[row];
      const double eps = settings.sweep == Sweep::Eps ? settings.grid[row] : settings.eps;
      for (std::size_t si = 0; si < stabilisers; ++si) {
        PrecisionSettings reference{Precision::Float64, settings.stabilisers[si], eps};
        const Eigen::MatrixXd q64 = precisionFeatures(recipe, problem.rawQueries, true, reference);
        const Eigen::MatrixXd k64 = precisionFeatures(recipe, problem.rawKeys, false, reference);
        const PrecisionAttention a64 = precisionAttention(q64, k64, problem.scaled.values,
                                                          settings.causal, Precision::Float64);
        for (std::size_t pi = 0; pi < precisions; ++pi) {
          const Precision p = settings.precisions[pi];
          DrawMeasure& out = draws[at(row, e, pi * stabilisers + si) + r];
          if (p == Precision::Float64) {
            out = measure(a64, a64, exact[row], p);
            countFeatures(q64, q64, out.featureUnderflow, out.featureOverflow);
            countFeatures(k64, k64, out.featureUnderflow, out.featureOverflow);
          } else {
            PrecisionSettings ps = reference;
            ps.precision = p;
            const Eigen::MatrixXd qp = precisionFeatures(recipe, problem.rawQueries, true, ps);
            const Eigen::MatrixXd kp = precisionFeatures(recipe, problem.rawKeys, false, ps);
            out = measure(precisionAttention(qp, kp, problem.scaled.values, settings.causal, p),
                          a64, exact[row], p);
            countFeatures(qp, q64, out.featureUnderflow, out.featureOverflow);
            countFeatures(kp, k64, out.featureUnderflow, out.featureOverflow);
          }
          const auto count = static_cast<double>(q64.size() + k64.size());
          out.featureUnderflow /= count;
          out.featureOverflow /= count;
        }
      }
    }
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      result.grid.push_back(settings.grid[row]);
      for (std::size_t e = 0; e < estimators; ++e)
        for (std::size_t c = 0; c < combos; ++c) {
          PrecisionSeries& s = result.series[e * combos + c];
          const std::vector<DrawMeasure> these(
              draws.begin() + static_cast<std::ptrdiff_t>(at(row, e, c)),
              draws.begin() + static_cast<std::ptrdiff_t>(at(row, e, c) + redraws));
          s.error.push_back(meanOf(these, &DrawMeasure::error));
          s.rounding.push_back(meanOf(these, &DrawMeasure::rounding));
          s.overflow.push_back(meanOf(these, &DrawMeasure::overflow));
          s.zero.push_back(meanOf(these, &DrawMeasure::zero));
          s.subnormal.push_back(meanOf(these, &DrawMeasure::subnormal));
          s.inverseOverflow.push_back(meanOf(these, &DrawMeasure::inverseOverflow));
          s.nonFinite.push_back(meanOf(these, &DrawMeasure::nonFinite));
          s.featureUnderflow.push_back(meanOf(these, &DrawMeasure::featureUnderflow));
          s.featureOverflow.push_back(meanOf(these, &DrawMeasure::featureOverflow));
          const auto [bias, spread] = biasAndSpread(these, exact[row]);
          s.bias.push_back(bias);
          s.spread.push_back(spread);
          for (std::size_t r = 0; r < redraws; ++r)
            draws[at(row, e, c) + r].output = Eigen::MatrixXd();
        }
      problems[row] = SweptProblem();
      exact[row] = Eigen::MatrixXd();
    }
  };
  GridRows rows;
  rows.columns.push_back(&result.grid);
  for (PrecisionSeries& s : result.series)
    for (std::vector<double>* column :
         {&s.error, &s.rounding, &s.overflow, &s.zero, &s.subnormal, &s.inverseOverflow,
          &s.nonFinite, &s.featureUnderflow, &s.featureOverflow, &s.bias, &s.spread})
      rows.columns.push_back(column);
  rows.publishPartial = [&] { context.publishPartialResult(result); };
  CellGrid grid;
  grid.rows = rowsCount;
  grid.cellsPerRow = estimators * redraws;
  computed.status = runCellGrid(context, grid, work, rows);
  return computed;
}

Presentation AttentionPrecision::present(const AttentionPrecisionSettings& settings,
                                         const AttentionPrecisionResult& result) const {
  using Sweep = AttentionPrecisionSettings::Sweep;
  Presentation shown;
  Table& table = shown.table;
  const std::string x = sweepId(settings.sweep);
  table.hints.title =
      std::string(settings.causal ? "Causal" : "Bidirectional") +
      " attention in reduced precision, d = " + std::to_string(settings.dimension) +
      ", M = " + std::to_string(settings.features) +
      (settings.sweep == Sweep::SequenceLength ? "" : ", L = " + std::to_string(settings.length)) +
      (settings.sweep == Sweep::InputScale
           ? ""
           : ", input scale " + formatParameterValue(settings.inputScale));
  table.hints.xColumn = x;
  table.hints.xLabel = sweepLabel(settings.sweep);
  const bool brokenRows = settings.plotted == AttentionPrecisionSettings::Plotted::BrokenRows;
  table.hints.yLabel = brokenRows
                           ? "rows with a non-finite output (fraction of L, mean over redraws)"
                           : "relative output error ‖Ô - O‖/‖O‖ against float64 softmax attention";
  table.hints.yShortLabel = brokenRows ? "non-finite rows" : "‖Ô - O‖/‖O‖";
  table.hints.xLog = settings.grid.size() > 1 && settings.grid.front() > 0 &&
                     settings.grid.back() / settings.grid.front() > 8;
  table.hints.yLog = !brokenRows;
  table.addColumn(x, sweepLabel(settings.sweep), result.grid);
  // Several mechanisms or couplings: their series must differ in colour, not only precision and
  // stabiliser.
  const bool severalEstimators = result.estimators.size() > 1;
  std::vector<std::string> wholeSeries;  // not drawn: no broken row anywhere
  for (const PrecisionSeries& s : result.series) {
    const EstimatorSeries& estimator = result.estimators[s.estimator];
    const std::string key =
        estimator.key + "-" + precisionId(s.precision) + "-" + stabiliserId(s.stabiliser);
    const std::string name =
        estimator.name + ", " + precisionName(s.precision) + ", " + stabiliserName(s.stabiliser);
    table.addColumn(key + "-error", name + ": mean relative output error (finite rows)", s.error);
    table.addColumn(key + "-rounding",
                    name + ": rounding error ‖Ô - Ô_float64‖/‖O‖ (same draw and stabiliser)",
                    s.rounding);
    table.addColumn(key + "-bias", name + ": bias ‖mean Ô - O‖/‖O‖", s.bias);
    table.addColumn(key + "-spread", name + ": spread over redraws (std)/‖O‖", s.spread);
    table.addColumn(key + "-overflow", name + ": rows with D̂ inf or NaN (fraction)", s.overflow);
    table.addColumn(key + "-zero", name + ": rows with D̂ = 0 (fraction)", s.zero);
    table.addColumn(key + "-subnormal", name + ": rows with D̂ subnormal (fraction)", s.subnormal);
    table.addColumn(key + "-inverse-overflow",
                    name + ": rows with D̂ finite, not 0, but 1/D̂ inf (fraction)",
                    s.inverseOverflow);
    table.addColumn(key + "-nonfinite", name + ": rows with a non-finite output (fraction)",
                    s.nonFinite);
    table.addColumn(key + "-feature-underflow",
                    name + ": features rounded to 0 (float64's not; fraction)", s.featureUnderflow);
    table.addColumn(key + "-feature-overflow", name + ": features inf or NaN (fraction)",
                    s.featureOverflow);
    // A fraction of broken rows that is 0 at every swept value (float64, or a stabiliser that
    // holds) is a line along the axis: left out of the figure (the table has it), so that the
    // legend lists only what breaks; a warning names what stayed whole.
    const bool whole = brokenRows && std::all_of(s.nonFinite.begin(), s.nonFinite.end(),
                                                 [](double fraction) { return fraction == 0; });
    if (whole) wholeSeries.push_back(name);
    SeriesHint hint;
    hint.label = name;
    hint.yColumn = key + (brokenRows ? "-nonfinite" : "-error");
    hint.colorKey = (severalEstimators ? estimator.key + "-" : std::string()) +
                    precisionId(s.precision) + "-" + stabiliserId(s.stabiliser);
    hint.style = SeriesStyle::Line;
    hint.shortLabel = std::string(precisionId(s.precision)) + " " + stabiliserId(s.stabiliser);
    if (!whole) table.hints.series.push_back(std::move(hint));
    // The ε that minimises the error, with its bias and spread.
    if (settings.sweep == Sweep::Eps && s.stabiliser == Stabiliser::Performer &&
        s.error.size() == settings.grid.size()) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < s.error.size(); ++k)
        if (s.error[k] < s.error[best]) best = k;
      if (!std::isnan(s.error[best]))
        shown.warnings.push_back(
            name + ": the error is smallest at ε = " + threeDigits(result.grid[best]) + " (" +
            threeDigits(s.error[best]) + ": bias " + threeDigits(s.bias[best]) + ", spread " +
            threeDigits(s.spread[best]) + ")");
    }
    // Where the rows break: the first swept value with non-finite outputs.
    for (std::size_t k = 0; k < s.nonFinite.size(); ++k)
      if (s.nonFinite[k] > 0) {
        double worst = 0;
        for (std::size_t j = k; j < s.nonFinite.size(); ++j)
          worst = std::max(worst, s.nonFinite[j]);
        shown.warnings.push_back(name + ": non-finite outputs from " + x + " " +
                                 threeDigits(result.grid[k]) + " on (up to " +
                                 threeDigits(worst * 100) + "% of rows)");
        break;
      }
  }
  if (!wholeSeries.empty()) {
    std::string line = "every row finite at every " + x + " (not drawn): ";
    for (std::size_t i = 0; i < wholeSeries.size(); ++i)
      line += (i ? "; " : "") + wholeSeries[i];
    shown.warnings.push_back(line);
  }
  for (const Mechanism* m : settings.mechanisms)
    if (m->info().id == "trig" &&
        std::find(settings.stabilisers.begin(), settings.stabilisers.end(),
                  Stabiliser::Performer) != settings.stabilisers.end())
      shown.warnings.push_back(
          "TrigRF: 'performer' adds no ε to signed features (it is the Performer max alone)");
  return shown;
}

}  // namespace rfscope
