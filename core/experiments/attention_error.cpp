#include "core/experiments/attention_error.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "core/attention/attention_parameters.h"
#include "core/attention/attention_prediction.h"
#include "core/attention/exact_attention.h"
#include "core/attention/output_error_prediction.h"
#include "core/attention/rf_attention.h"
#include "core/data/data_error.h"
#include "core/data/npy_file.h"
#include "core/data/regime.h"
#include "core/experiments/attention_dataset_rows.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/classification_dataset.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/math/log_math.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

// Where the prediction is drawn (predictionShown). Signed features: up to this normaliser spread
// (beyond, D̂ comes near 0 in some draws and the linearisation stops describing ô).
constexpr double kSpreadLimit = 0.2;
// Positive features: up to this one-unit spread of the normaliser (beyond, the other units no
// longer sum to near their mean and the saturated form under-predicts: by 15–25% at 0.6–0.8, up
// to 2× above 1, measured), this relative standard error of the quadrature, and while the units
// carry at least this share of the normaliser's exact mean (below, its mass sits in units too rare
// for the quadrature).
constexpr double kSaturatedSpreadLimit = 0.4;
constexpr double kQuadratureLimit = 0.03;
constexpr double kCoverageLimit = 0.95;
// The one-unit prediction's rows (evenly spaced; every row up to this L).
constexpr std::int64_t kOneUnitRows = 256;

// The mechanisms whose feature maps take queries and keys of any sign (not the discrete ones).
std::vector<ParameterChoice> attentionMechanismChoices() {
  std::vector<ParameterChoice> choices;
  for (const Mechanism* m : allMechanisms())
    if (m->mapsSignedInputs()) choices.push_back({m->info().id, m->info().name});
  return choices;
}

// Synthetic inputs: q, k ~ N(0, scale² I), v ~ N(0, I), then x = q d^{-1/4}, y = k d^{-1/4}.
AttentionProblem syntheticProblem(const AttentionErrorSettings& s) {
  TrialStream stream(deriveSeed(s.seed, 1000), 0);
  const double factor = s.inputScale * std::pow(static_cast<double>(s.dimension), -0.25);
  return gaussianAttentionProblem(s.length, s.dimension, s.valueDimension, factor, stream,
                                  s.causal);
}

// A user's .npy array as a matrix, every failure a DataError naming the parameter.
Eigen::MatrixXd npyMatrix(const std::string& path, const char* key) {
  NpyArray array;
  try {
    array = readNpyFile(path);
  } catch (const InvalidParameter& e) {
    throw DataError(std::string("parameter '") + key + "': " + e.what(), key);
  }
  if (array.rows() < 1 || array.rows() > 4096)
    throw DataError(std::string("parameter '") + key + "': needs 1 to 4096 rows, '" + path +
                        "' has " + std::to_string(array.rows()),
                    key);
  Eigen::MatrixXd m(static_cast<Eigen::Index>(array.rows()),
                    static_cast<Eigen::Index>(array.columns()));
  for (std::uint64_t r = 0; r < array.rows(); ++r)
    for (std::uint64_t c = 0; c < array.columns(); ++c)
      m(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = array.at(r, c);
  return m;
}

// Rows of real data: entries standardised, then scaled like the synthetic ones (input scale and
// d^{-1/4}); the values are the key rows.
AttentionProblem datasetProblem(const AttentionErrorSettings& s) {
  using Inputs = AttentionErrorSettings::Inputs;
  const std::uint64_t seed = deriveSeed(s.seed, 1001);
  AttentionRows rows = s.inputs == Inputs::Uci
                           ? uciAttentionRows(s.dataset, s.length, seed, "dataset")
                           : mnistPatchRows(s.dimension, s.length, seed, "inputs");
  const double factor = s.inputScale * std::pow(static_cast<double>(rows.queries.cols()), -0.25);
  AttentionProblem p;
  p.queries = rows.queries * factor;
  p.keys = rows.keys * factor;
  p.values = std::move(rows.values);
  p.causal = s.causal;
  checkAttentionProblem(p, "inputs");
  return p;
}

// The problem: the user's arrays where given (shapes and d checked), rows of a dataset, or
// synthetic.
AttentionProblem loadProblem(const AttentionErrorSettings& s) {
  if (s.inputs != AttentionErrorSettings::Inputs::Synthetic) return datasetProblem(s);
  if (s.queriesFile.empty()) return syntheticProblem(s);
  AttentionProblem p;
  const double factor = std::pow(static_cast<double>(s.dimension), -0.25);
  p.queries = npyMatrix(s.queriesFile, "queries-file");
  if (p.queries.cols() != s.dimension)
    throw DataError("parameter 'queries-file': '" + s.queriesFile + "' has " +
                        std::to_string(p.queries.cols()) +
                        " columns but d = " + std::to_string(s.dimension),
                    "queries-file");
  p.keys = s.keysFile.empty() ? p.queries : npyMatrix(s.keysFile, "keys-file");
  p.queries *= factor;
  p.keys *= factor;
  if (s.valuesFile.empty()) {
    AttentionErrorSettings synthetic = s;
    synthetic.length = p.keys.rows();
    p.values = syntheticProblem(synthetic).values;
  } else {
    p.values = npyMatrix(s.valuesFile, "values-file");
  }
  p.causal = s.causal;
  checkAttentionProblem(p, p.values.rows() != p.keys.rows() ? "values-file" : "keys-file");
  return p;
}

// `count` evenly spaced rows (all rows when count ≥ L): deterministic, and spread over the prefix
// lengths of causal attention.
std::vector<Eigen::Index> evenlySpacedRows(Eigen::Index length, std::int64_t count) {
  std::vector<Eigen::Index> rows;
  const Eigen::Index n = std::min<Eigen::Index>(length, count);
  for (Eigen::Index k = 0; k < n; ++k)
    rows.push_back(k * length / n);
  return rows;
}

double rms(const std::vector<double>& squares) {
  double sum = 0;
  for (double v : squares)
    sum += v;
  return std::sqrt(sum / static_cast<double>(squares.size()));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

const ExperimentInfo& AttentionError::info() const {
  static const ExperimentInfo info{
      "attention-error", "Linear attention error vs features", "Performer attention",
      "Relative error of random-feature (Performer) attention against exact softmax attention, "
      "measured over redraws and predicted from the closed forms, as the number of features "
      "grows"};
  return info;
}

std::vector<ParameterSpec> AttentionError::parameters() const {
  auto d = dimensionParameter(16);
  auto length = integerParameter("sequence-length", "Sequence length L", 64, 2, 4096,
                                 "queries, keys and values per sequence");
  auto dv = integerParameter("value-dimension", "Value dimension", 4, 1, 256,
                             "entries of each value vector");
  auto scale = realParameter("input-scale", "Input scale", 0.5, 1e-3, 10,
                             "std of the query/key entries before the d^(-1/4) scaling "
                             "(1 = the usual attention regime)",
                             true);
  auto causal = booleanParameter("causal", "Causal", false,
                                 "each row attends to the keys up to itself (prefix sums)");
  const std::string filter = "NumPy arrays (*.npy);;All files (*)";
  auto queriesFile = fileParameter("queries-file", "Queries (.npy)", filter,
                                   "optional L x d array of raw queries q (scaled by d^(-1/4) "
                                   "here; sequence-length and input-scale then unused); empty: "
                                   "synthetic inputs");
  auto keysFile = fileParameter("keys-file", "Keys (.npy)", filter,
                                "optional array of raw keys k, d columns; empty: the queries");
  auto valuesFile = fileParameter("values-file", "Values (.npy)", filter,
                                  "optional array of values, one row per key; empty: N(0, 1)");
  auto inputs = choiceParameter(
      "inputs", "Inputs",
      {{"synthetic", "Synthetic Gaussian rows (or the .npy files below)"},
       {"uci", "Rows of a UCI dataset (standardised; d = its features)"},
       {"mnist-patches", "MNIST patches (p x p, d = p², standardised)"}},
      "synthetic",
      "where the queries, keys and values come from; real rows are standardised, scaled by the "
      "input scale and d^(-1/4), and the key rows are also the values");
  auto dataset = choiceParameter("dataset", "Dataset", uciDatasetChoices(), "abalone",
                                 "the UCI dataset whose rows are the inputs");
  dataset.visibleWhenKey = "inputs";
  dataset.visibleWhenValues = {"uci"};
  d.group = length.group = dv.group = scale.group = causal.group = "Data";
  inputs.group = dataset.group = "Data";
  queriesFile.group = keysFile.group = valuesFile.group = "Data";
  auto mechanisms =
      multiChoiceParameter("mechanisms", "Mechanisms", attentionMechanismChoices(), {"pos", "oprf"},
                           "mechanisms (their parameters from the query/key "
                           "statistics, CRT eq. 8)");
  auto couplings = multiChoiceParameter("couplings", "Couplings", couplingChoices(), {"iid", "orf"},
                                        "how the frequencies are coupled");
  auto low = integerParameter("features-min", "Features from", 8, 1, 100000, "smallest M");
  auto high = integerParameter("features-max", "Features to", 128, 1, 100000, "largest M");
  auto steps = integerParameter("features-steps", "Feature steps", 5, 1, 100,
                                "number of M values (log-spaced, rounded)");
  mechanisms.group = couplings.group = low.group = high.group = steps.group = "Estimator";
  auto redraws = integerParameter("redraws", "Redraws", 20, 2, 100000,
                                  "independent draws of the features per M");
  auto errorRows = integerParameter("error-rows", "Error rows", 64, 1, 4096,
                                    "rows of the attention-matrix and unnormalised errors "
                                    "(evenly spaced; all rows when L is smaller)");
  auto predictionRows =
      integerParameter("prediction-rows", "Prediction rows", 32, 1, 4096,
                       "rows of the delta-method prediction, O(L^2) each (evenly spaced)");
  auto target = realParameter("target-error", "Target error", 0.1, 1e-6, 10,
                              "output relative error for the features-needed summary");
  redraws.group = errorRows.group = predictionRows.group = target.group = "Sampling";
  return {d,      length,          dv,          inputs,    dataset,
          scale,  causal,          mechanisms,  couplings, low,
          high,   steps,           redraws,     errorRows, predictionRows,
          target, seedParameter(), queriesFile, keysFile,  valuesFile};
}

std::optional<MemoryEstimate> AttentionError::memoryEstimate(const ParameterSet& params) const {
  const AttentionErrorSettings s = parse(params);
  double rows = static_cast<double>(s.length);
  if (s.inputs == AttentionErrorSettings::Inputs::Synthetic && !s.queriesFile.empty()) {
    try {
      rows = static_cast<double>(readNpyFile(s.queriesFile).rows());
    } catch (const std::exception&) {
      return std::nullopt;  // crossValidate reports the file
    }
  }
  return featureMatricesEstimate(
      s.features.size() * s.mechanisms.size() * s.couplings.size() * s.redraws, 4.0, rows, "rows",
      static_cast<double>(s.features.back()), s.mechanisms, "features-max");
}

AttentionErrorSettings AttentionError::parse(const ParameterSet& params) const {
  AttentionErrorSettings s;
  s.dimension = static_cast<int>(params.integer("d"));
  s.length = params.integer("sequence-length");
  s.valueDimension = params.integer("value-dimension");
  s.inputScale = params.real("input-scale");
  s.causal = params.boolean("causal");
  const std::string inputs = params.choice("inputs");
  s.inputs = inputs == "uci"             ? AttentionErrorSettings::Inputs::Uci
             : inputs == "mnist-patches" ? AttentionErrorSettings::Inputs::MnistPatches
                                         : AttentionErrorSettings::Inputs::Synthetic;
  s.dataset = params.choice("dataset");
  for (const auto& id : params.choices("mechanisms"))
    s.mechanisms.push_back(findMechanism(id));
  for (const auto& id : params.choices("couplings"))
    s.couplings.push_back(parseCoupling(id, "couplings"));
  const std::int64_t low = params.integer("features-min"), high = params.integer("features-max");
  for (double m : valueGrid(static_cast<double>(low), static_cast<double>(std::max(low, high)),
                            params.integer("features-steps"), true)) {
    const auto rounded = static_cast<std::int64_t>(std::llround(m));
    if (s.features.empty() || rounded > s.features.back()) s.features.push_back(rounded);
  }
  s.redraws = static_cast<std::size_t>(params.integer("redraws"));
  s.errorRows = params.integer("error-rows");
  s.predictionRows = params.integer("prediction-rows");
  s.targetError = params.real("target-error");
  s.seed = static_cast<std::uint64_t>(params.integer("seed"));
  s.queriesFile = textParameter(params, "queries-file");
  s.keysFile = textParameter(params, "keys-file");
  s.valuesFile = textParameter(params, "values-file");
  return s;
}

std::vector<ParameterError> AttentionError::crossValidate(const ParameterSet& params) const {
  const AttentionErrorSettings s = parse(params);
  if (params.integer("features-min") > params.integer("features-max"))
    return {{"features-max", "parameter 'features-max': must not be below features-min"}};
  if (s.queriesFile.empty() && !(s.keysFile.empty() && s.valuesFile.empty()))
    return {{"queries-file", "parameter 'queries-file': needed with keys-file or values-file"}};
  if (s.inputs != AttentionErrorSettings::Inputs::Synthetic && !s.queriesFile.empty())
    return {{"queries-file",
             "parameter 'queries-file': only with inputs = synthetic (the rows "
             "come from the data otherwise)"}};
  if (!s.queriesFile.empty() || s.inputs != AttentionErrorSettings::Inputs::Synthetic) {
    try {
      loadProblem(s);
    } catch (const InvalidParameter& e) {
      return {{e.parameter(), e.what()}};
    }
  }
  AttentionErrorSettings probeSettings = s;
  probeSettings.length = 2;
  const AttentionProblem probe = syntheticProblem(probeSettings);
  for (const Coupling coupling : s.couplings)
    if (const std::string problem = couplingDimensionProblem(coupling, s.dimension);
        !problem.empty())
      return {{"couplings", "parameter 'couplings': " + problem}};
  for (const Mechanism* mechanism : s.mechanisms)
    for (const Coupling coupling : s.couplings) {
      FeatureMapSpec spec = attentionFeatureSpec(*mechanism, probe, coupling);
      spec.features = 1;
      TrialStream stream(0, 0);
      const auto map = mechanism->drawFeatureMap(spec, stream);
      if (!map)
        return {{"couplings", "parameter 'couplings': " + mechanism->info().id + " under " +
                                  couplingId(coupling) + ": " + map.reason()}};
    }
  return {};
}

namespace {

// The squared prediction at row k, NaN where there is none (or none yet: a cancelled run).
double predictedAt(const std::vector<double>& squared, std::size_t k) {
  return k < squared.size() ? std::sqrt(squared[k]) : kNaN;
}

// The closed forms' predictions for every M: the delta method once per mechanism (i.i.d.: ∝ 1/M),
// the exact unnormalised error once (i.i.d.) or per M (coupled closed forms). A reason where
// there is none.
void predictErrors(const AttentionErrorSettings& settings, const AttentionProblem& problem,
                   const ExactAttention& exact, const KeyGram& gram,
                   const ExactAttentionRows& exactRows,
                   const std::vector<Eigen::Index>& predictionRows, const FeatureMapSpec& spec,
                   const std::function<bool()>& cancelled, AttentionEstimatorErrors& e) {
  const std::size_t featureCount = settings.features.size();
  e.outputSquared.assign(featureCount, kNaN);
  e.attentionSquared.assign(featureCount, kNaN);
  e.spreadSquared.assign(featureCount, kNaN);
  e.unnormalisedSquared.assign(featureCount, kNaN);
  const Mechanism& mechanism = *e.series.mechanism;
  const Status available = hasAttentionPrediction(mechanism, spec.parameters, e.series.coupling);
  if (cancelled()) return;
  if (available) {
    const auto delta = predictAttention(problem, gram, mechanism, spec.parameters, predictionRows);
    for (std::size_t k = 0; k < featureCount; ++k) {
      const double m = static_cast<double>(settings.features[k]);
      e.outputSquared[k] = std::exp(delta->logOutputMse - delta->logOutputNormSquared) / m;
      e.attentionSquared[k] = std::exp(delta->logAttentionMse - delta->logAttentionNormSquared) / m;
      e.spreadSquared[k] = std::exp(delta->logMeanRelativeSpreadSquared) / m;
    }
  } else {
    e.predictionGaps.push_back("no delta-method column (the points do not need it) — " +
                               available.reason());
  }
  const bool iid = e.series.coupling == Coupling::Iid;
  for (std::size_t k = 0; k < featureCount && !cancelled(); ++k) {
    const std::int64_t m = iid ? 1 : settings.features[k];
    const EstimatorSpec estimator{&mechanism, Kernel::Softmax, e.series.coupling, m,
                                  spec.parameters};
    const auto unnormalised = predictUnnormalised(problem, estimator, exactRows.rows);
    if (!unnormalised) {
      e.predictionGaps.push_back("no exact unnormalised error — " + unnormalised.reason());
      break;
    }
    const double ratio = std::exp(unnormalised->logMse - unnormalised->logNormSquared);
    if (iid) {
      for (std::size_t j = 0; j < featureCount; ++j)
        e.unnormalisedSquared[j] = ratio / static_cast<double>(settings.features[j]);
      break;
    }
    e.unnormalisedSquared[k] = ratio;
  }
  if (cancelled()) return;
  // Last, so that a cancel stops it between maps (the closed forms above run to their end). The
  // measured output error is over every row: so is the prediction, up to 256 of them
  // (evenly spaced beyond: the rows' shares of the error vary little, the work is per row).
  const auto unit = predictOutputError(
      problem, exact, evenlySpacedRows(problem.rows(), kOneUnitRows), *e.series.mechanism, spec,
      settings.features,
      deriveSeed(settings.seed, 2000 + e.series.couplingIndex, e.series.mechanismIndex), {},
      cancelled);
  if (unit) {
    e.predictedSquared = unit->relativeSquared;
    e.predictedStandardError = unit->standardError;
    e.unitSpreadSquared = unit->spreadSquared;
    e.normaliserCoverage = unit->normaliserCoverage;
    e.predictionUnitSize = unit->unitSize;
    e.predictionSaturated = unit->saturated;
  } else {
    e.predictionGaps.push_back("no output-error prediction — " + unit.reason());
  }
}

// One M's redraws of one estimator, summarised into the estimator's measured columns.
void commitMeasurements(const AttentionErrors* draws, std::size_t redraws,
                        AttentionEstimatorErrors& e) {
  std::vector<double> output(redraws), values(redraws);
  const auto collect = [&](auto field) {
    for (std::size_t r = 0; r < redraws; ++r)
      values[r] = field(draws[r]);
  };
  for (std::size_t r = 0; r < redraws; ++r)
    output[r] = draws[r].outputRelativeError;
  const MeanAndStd summary = summarizeFinite(output.data(), redraws);
  e.outputMean.push_back(summary.mean);
  e.outputStd.push_back(summary.std);
  e.outputMedian.push_back(median(output));
  for (std::size_t r = 0; r < redraws; ++r)
    values[r] = output[r] * output[r];
  // The rms and its standard error, SE(mean square)/(2 rms).
  const MeanAndStd squares = summarizeFinite(values.data(), redraws);
  e.outputRms.push_back(std::sqrt(squares.mean));
  e.outputRmsError.push_back(squares.std / std::sqrt(static_cast<double>(redraws)) /
                             (2 * std::sqrt(squares.mean)));
  collect([](const AttentionErrors& d) {
    return d.linearisedOutputRelativeError * d.linearisedOutputRelativeError;
  });
  e.linearised.push_back(rms(values));
  collect([](const AttentionErrors& d) { return d.attentionRelativeError; });
  e.attention.push_back(summarizeFinite(values.data(), redraws).mean);
  collect([](const AttentionErrors& d) { return d.worstRowTotalVariation; });
  e.worstVariation.push_back(summarizeFinite(values.data(), redraws).mean);
  collect([](const AttentionErrors& d) { return d.nonPositiveFraction; });
  e.nonPositive.push_back(summarizeFinite(values.data(), redraws).mean);
  collect([](const AttentionErrors& d) {
    return std::exp(d.logUnnormalisedSquaredError - d.logUnnormalisedNormSquared);
  });
  e.unnormalised.push_back(rms(values));
}

// Positive features cannot give D̂ ≤ 0; where they did, one row's features spanned more than a
// double holds (entries below e^-745 of the row's largest flush to zero, feature_map.h) and the
// outputs are 0/0: the inputs are refused, the limit named, rather than NaN reported.
// `underflowed` of `count` draws had some query with D̂ ≤ 0.
void refuseUnderflow(const AttentionErrorSettings& settings, const AttentionProblem& problem,
                     const AttentionEstimatorErrors& e, std::size_t underflowed,
                     std::size_t count) {
  if (!e.series.mechanism->info().positive) return;
  if (underflowed == 0) return;
  const double largest = std::max(problem.queries.rowwise().norm().maxCoeff(),
                                  problem.keys.rowwise().norm().maxCoeff());
  throw DataError(
      e.series.name + ": in " + std::to_string(underflowed) + " of " + std::to_string(count) +
          " draws some query's D̂ underflowed to 0 — the features of one row span "
          "more than a double holds (e^±708) at these inputs (largest row norm " +
          formatParameterValue(largest) + " after the d^-1/4 scaling): scale the rows down",
      settings.queriesFile.empty() ? "input-scale" : "queries-file");
}

// The measured rows a result holds, in the grid's order.
GridRows measuredRows(AttentionErrorResult& result) {
  GridRows rows;
  rows.columns.push_back(&result.features);
  for (AttentionEstimatorErrors& e : result.estimators)
    for (std::vector<double>* column :
         {&e.outputMean, &e.outputStd, &e.outputMedian, &e.outputRms, &e.outputRmsError,
          &e.linearised, &e.attention, &e.worstVariation, &e.nonPositive, &e.unnormalised})
      rows.columns.push_back(column);
  return rows;
}

// A series' label for a small legend: "PosRF IID" for "PosRF, IID".
std::string shortSeriesName(std::string name) {
  if (const auto comma = name.find(", "); comma != std::string::npos) name.erase(comma, 1);
  return name;
}

// The standard error of √P from that of P (P = predicted squared error): SE/(2√P).
std::vector<double> predictionStandardErrors(const std::vector<double>& squared,
                                             const std::vector<double>& errors, std::size_t rows) {
  std::vector<double> values(rows, kNaN);
  for (std::size_t k = 0; k < rows && k < squared.size(); ++k)
    values[k] = errors[k] / (2 * std::sqrt(squared[k]));
  return values;
}

}  // namespace

double predictionRelativeError(const AttentionEstimatorErrors& e, std::size_t k) {
  return e.predictedStandardError[k] / (2 * e.predictedSquared[k]);
}

bool predictionShown(const AttentionEstimatorErrors& e, std::size_t k, std::int64_t features) {
  if (k >= e.predictedSquared.size() || !(e.predictedSquared[k] > 0)) return false;
  const double spread = std::sqrt(e.unitSpreadSquared[k]);
  if (!e.predictionSaturated) return !(spread > kSpreadLimit);
  if (e.normaliserCoverage < kCoverageLimit || predictionRelativeError(e, k) > kQuadratureLimit)
    return false;
  // One unit (M ≤ b) is the whole estimate: the saturated form is then exact.
  return features <= e.predictionUnitSize || !(spread > kSaturatedSpreadLimit);
}

double predictedFeaturesFor(const AttentionEstimatorErrors& e,
                            const std::vector<std::int64_t>& features, double target) {
  const std::vector<double>& p = e.predictedSquared;
  const std::size_t n = std::min(p.size(), features.size());
  if (n == 0) return kNaN;
  const double t2 = target * target;
  const auto m = [&](std::size_t i) { return static_cast<double>(features[i]); };
  std::size_t k = 0;
  while (k < n && p[k] > t2)
    ++k;
  if (k == n)  // beyond the grid: ∝ 1/M from the last M (the ratio no longer saturates there)
    return predictionShown(e, n - 1, features[n - 1]) ? std::ceil(m(n - 1) * p[n - 1] / t2) : kNaN;
  if (!predictionShown(e, k, features[k])) return kNaN;
  if (k == 0) return std::max(1.0, std::ceil(m(0) * p[0] / t2));
  if (!predictionShown(e, k - 1, features[k - 1])) return kNaN;
  const double e0 = std::log(p[k - 1]), e1 = std::log(p[k]);
  const double t = e0 > e1 ? (e0 - std::log(t2)) / (e0 - e1) : 1.0;
  return std::ceil(std::exp(std::log(m(k - 1)) + t * (std::log(m(k)) - std::log(m(k - 1)))));
}

std::string attentionProblemTitle(const AttentionErrorSettings& settings,
                                  const AttentionErrorResult& result) {
  return std::string(settings.causal ? "Causal" : "Bidirectional") +
         " attention error, L = " + std::to_string(result.length) +
         ", d = " + std::to_string(result.dimension) + ", input scale " +
         formatParameterValue(settings.inputScale);
}

std::vector<std::string> attentionNotes(const std::vector<AttentionEstimatorErrors>& estimators,
                                        const std::vector<std::int64_t>& features) {
  std::vector<std::pair<std::string, std::string>> notes;  // estimator, reason
  for (const AttentionEstimatorErrors& e : estimators)
    for (const std::string& gap : e.predictionGaps)
      notes.emplace_back(e.series.name, gap);
  for (const AttentionEstimatorErrors& e : estimators) {
    if (!e.series.mechanism->info().positive)
      notes.emplace_back(e.series.name,
                         "features of both signs — D̂ can be ≤ 0 and the mean output error does "
                         "not converge; the prediction is of the rms linearised error (that "
                         "column, or the median)");
    // The M not drawn, and for positive features which limits they pass: the one-unit spread
    // (beyond, the saturated form under-predicts) and the quadrature's standard error.
    std::vector<std::int64_t> hidden;
    double spread = 0, error = 0;
    for (std::size_t k = 0; k < e.predictedSquared.size(); ++k)
      if (!predictionShown(e, k, features[k])) {
        hidden.push_back(features[k]);
        if (features[k] > e.predictionUnitSize)
          spread = std::max(spread, std::sqrt(e.unitSpreadSquared[k]));
        error = std::max(error, predictionRelativeError(e, k));
      }
    if (hidden.empty()) continue;
    const std::string at = "M = " + std::to_string(hidden.front()) +
                           (hidden.size() > 1 ? " … " + std::to_string(hidden.back()) : "");
    const auto digits = [](double v) { return formatParameterValue(std::round(v * 100) / 100); };
    std::vector<std::string> reasons;
    if (!e.predictionSaturated) {
      reasons.push_back("the normaliser's spread exceeds 0.2, D̂ comes near 0 in some draws");
    } else if (e.normaliserCoverage < kCoverageLimit) {
      reasons.push_back("the normaliser is so heavy-tailed that " +
                        digits(100 * (1 - e.normaliserCoverage)) +
                        "% of its mean sits in units rarer than the quadrature's (a draw of M "
                        "features mostly lacks them too)");
    } else {
      if (spread > kSaturatedSpreadLimit)
        reasons.push_back("the one-unit spread of the normaliser reaches " + digits(spread) +
                          " (above 0.4 one unit against the others' mean under-predicts)");
      if (error > kQuadratureLimit)
        reasons.push_back("the quadrature's standard error reaches " + digits(100 * error) +
                          "% (heavy tails; above 3% not drawn)");
    }
    std::string text = "prediction not drawn at " + at + ": ";
    for (std::size_t r = 0; r < reasons.size(); ++r)
      text += (r == 0 ? "" : "; ") + reasons[r];
    notes.emplace_back(e.series.name, text);
  }
  return groupedBySubject(notes);
}

Computed<AttentionErrorResult> AttentionError::compute(
    const AttentionErrorSettings& settings, ResultContext<AttentionErrorResult>& context) const {
  const AttentionProblem problem = loadProblem(settings);
  const ExactAttention exact = exactAttention(problem);
  const ExactAttentionRows exactRows =
      exactAttentionRows(problem, evenlySpacedRows(problem.rows(), settings.errorRows));
  const KeyGram gram(problem);
  Computed<AttentionErrorResult> computed;
  AttentionErrorResult& result = computed.result;
  result.length = problem.rows();
  result.dimension = problem.queries.cols();
  std::vector<FeatureMapSpec> specs;
  for (EstimatorSeries& series : estimatorSeries(settings.mechanisms, settings.couplings)) {
    specs.push_back(attentionFeatureSpec(*series.mechanism, problem, series.coupling));
    AttentionEstimatorErrors estimator;
    estimator.series = std::move(series);
    result.estimators.push_back(std::move(estimator));
  }
  const std::size_t estimators = result.estimators.size();
  const std::vector<Eigen::Index> predictionRows =
      evenlySpacedRows(problem.rows(), settings.predictionRows);
  const std::function<bool()> cancelled = [&] { return context.cancelled(); };
  if (!parallelCells(context, estimators,
                     [&](std::size_t s) {
                       predictErrors(settings, problem, exact, gram, exactRows, predictionRows,
                                     specs[s], cancelled, result.estimators[s]);
                     }) ||
      context.cancelled()) {
    computed.status = RunStatus::Cancelled;
    return computed;
  }

  // One row per M, one cell per (estimator, redraw).
  const std::size_t redraws = settings.redraws;
  std::vector<AttentionErrors> errors(settings.features.size() * estimators * redraws);
  const auto at = [&](std::size_t row, std::size_t s) { return (row * estimators + s) * redraws; };
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell) {
      if (context.cancelled()) return;
      const std::size_t row = cell / (estimators * redraws);
      const std::size_t s = cell / redraws % estimators, r = cell % redraws;
      const EstimatorSeries& series = result.estimators[s].series;
      FeatureMapSpec spec = specs[s];
      spec.features = settings.features[row];
      TrialStream stream(deriveSeed(settings.seed, series.couplingIndex, series.mechanismIndex), r);
      const auto map = series.mechanism->drawFeatureMap(spec, stream);
      errors[at(row, s) + r] = attentionErrors(
          problem, exact, exactRows, (*map)->queries(problem.queries), (*map)->keys(problem.keys));
    }
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    for (std::size_t row = first; row < last; ++row) {
      result.features.push_back(static_cast<double>(settings.features[row]));
      for (std::size_t s = 0; s < estimators; ++s)
        commitMeasurements(&errors[at(row, s)], redraws, result.estimators[s]);
    }
  };
  GridRows rows = measuredRows(result);
  rows.publishPartial = [&] { context.publishPartialResult(result); };
  CellGrid grid;
  grid.rows = settings.features.size();
  grid.cellsPerRow = estimators * redraws;
  computed.status = runCellGrid(context, grid, work, rows);
  if (computed.status != RunStatus::Completed) return computed;
  for (std::size_t s = 0; s < estimators; ++s) {
    std::size_t underflowed = 0;
    for (std::size_t row = 0; row < grid.rows; ++row)
      for (std::size_t r = 0; r < redraws; ++r)
        if (errors[at(row, s) + r].nonPositiveFraction > 0) ++underflowed;
    refuseUnderflow(settings, problem, result.estimators[s], underflowed, grid.rows * redraws);
  }
  return computed;
}

Presentation AttentionError::present(const AttentionErrorSettings& settings,
                                     const AttentionErrorResult& result) const {
  Presentation shown;
  Table& table = shown.table;
  table.hints.title = attentionProblemTitle(settings, result);
  table.hints.xColumn = "features";
  table.hints.xLabel = "random features M";
  table.hints.yLabel =
      "relative output error ‖Ô - O‖/‖O‖ (lines: measured mean ± std; points: predicted rms)";
  table.hints.xShortLabel = "M";
  table.hints.yShortLabel = "‖Ô - O‖/‖O‖";
  table.hints.xLog = table.hints.yLog = true;
  table.addColumn("features", "random features M", result.features);
  const std::size_t rows = result.features.size();
  const auto predicted = [&](const std::vector<double>& squared) {
    std::vector<double> values(rows);
    for (std::size_t k = 0; k < rows; ++k)
      values[k] = predictedAt(squared, k);
    return values;
  };
  for (const AttentionEstimatorErrors& e : result.estimators) {
    const std::string& key = e.series.key;
    const std::string& name = e.series.name;
    const BandColumns output =
        addBandSeries(table, key + "-output", name + " measured",
                      {" mean output error", " std over redraws", " mean - std", " mean + std"},
                      e.series.colorKey, SeriesStyle::Line);
    table.hints.series[output.series].shortLabel = shortSeriesName(e.series.label);
    for (std::size_t k = 0; k < rows; ++k)
      output.append(table, e.outputMean[k], e.outputStd[k], e.outputMean[k] - e.outputStd[k],
                    e.outputMean[k] + e.outputStd[k]);
    table.addColumn(key + "-output-median", name + " median output error", e.outputMedian);
    table.addColumn(key + "-output-rms", name + " rms output error", e.outputRms);
    table.addColumn(key + "-output-rms-se", name + " standard error of the rms (over redraws)",
                    e.outputRmsError);
    table.addColumn(key + "-output-predicted",
                    name + (e.predictionSaturated ? " predicted rms output error (one unit, ratio)"
                                                  : " predicted rms linearised output error (one "
                                                    "unit)"),
                    predicted(e.predictedSquared));
    table.addColumn(key + "-output-predicted-se", name + " standard error of the prediction",
                    predictionStandardErrors(e.predictedSquared, e.predictedStandardError, rows));
    std::vector<double> shownValues = predicted(e.predictedSquared);
    for (std::size_t k = 0; k < rows; ++k)
      if (!predictionShown(e, k, settings.features[k])) shownValues[k] = kNaN;
    table.addColumn(key + "-output-predicted-shown", name + " prediction where drawn", shownValues);
    // The prediction as points beside its measured curve, where it holds (elsewhere it would
    // sit far from the curves and squash them; the notes say why it is not drawn). With more
    // than two such series their legend entries would crowd out the axes: the axis label says
    // what the points are instead.
    if (std::any_of(shownValues.begin(), shownValues.end(), [](double v) { return v == v; }))
      table.hints.series.push_back({name + " predicted", key + "-output-predicted-shown", "", "",
                                    e.series.colorKey, SeriesStyle::Points, "", false, "pred."});
    table.addColumn(key + "-linearised", name + " rms linearised output error |N̂ - oD̂|/D",
                    e.linearised);
    table.addColumn(key + "-linearised-predicted",
                    name + " predicted rms linearised output error (delta method)",
                    predicted(e.outputSquared));
    table.addColumn(key + "-attention", name + " mean attention-matrix error", e.attention);
    table.addColumn(key + "-attention-predicted", name + " predicted attention-matrix error",
                    predicted(e.attentionSquared));
    table.addColumn(key + "-worst-tv", name + " mean worst-row total variation", e.worstVariation);
    table.addColumn(key + "-nonpositive", name + " rows with D̂ ≤ 0 (fraction)", e.nonPositive);
    table.addColumn(key + "-unnormalised", name + " rms unnormalised error ‖Ŝ - SM‖/‖SM‖",
                    e.unnormalised);
    table.addColumn(key + "-unnormalised-predicted", name + " predicted unnormalised error (exact)",
                    predicted(e.unnormalisedSquared));
    table.addColumn(key + "-spread", name + " predicted normaliser spread √Var D̂/D",
                    predicted(e.spreadSquared));
    table.addColumn(key + "-unit-spread", name + " normaliser spread √Var D̂/D from one unit",
                    predicted(e.unitSpreadSquared));
  }
  std::vector<SeriesHint*> predictions;
  for (SeriesHint& hint : table.hints.series)
    if (hint.style == SeriesStyle::Points) predictions.push_back(&hint);
  if (predictions.size() > 2) {
    for (SeriesHint* hint : predictions)
      hint->inLegend = false;
    table.hints.yLabel =
        "relative output error ‖Ô - O‖/‖O‖ (lines: measured mean ± std; points: "
        "predicted rms, the colour of their curve)";
    table.hints.yShortLabel = "‖Ô - O‖/‖O‖, • pred.";
  }
  // The notes are known from the closed forms, before any measurement.
  shown.warnings = attentionNotes(result.estimators, settings.features);
  if (rows < settings.features.size()) return shown;  // what was measured: complete runs only
  // Features for the target error, every estimator in one line: predicted, then measured.
  std::string predictedM, measuredM;
  for (const AttentionEstimatorErrors& e : result.estimators) {
    if (const double m = predictedFeaturesFor(e, settings.features, settings.targetError);
        !std::isnan(m))
      predictedM += (predictedM.empty() ? "" : "; ") + e.series.name + " M ≈ " + countText(m);
    for (std::size_t k = 0; k < rows; ++k)
      if (e.outputMean[k] <= settings.targetError) {
        measuredM += (measuredM.empty() ? "" : "; ") + e.series.name +
                     " M = " + std::to_string(settings.features[k]);
        break;
      }
  }
  shown.warnings.push_back(
      "features for output error " + formatParameterValue(settings.targetError) +
      " — predicted: " + (predictedM.empty() ? "none" : predictedM) +
      "; measured (first grid point with mean error below it): " +
      (measuredM.empty() ? "no estimator up to M = " + std::to_string(settings.features.back())
                         : measuredM));
  return shown;
}

}  // namespace rfscope
