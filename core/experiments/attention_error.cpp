#include "core/experiments/attention_error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/attention/attention_prediction.h"
#include "core/attention/exact_attention.h"
#include "core/attention/rf_attention.h"
#include "core/data/data_error.h"
#include "core/data/npy_file.h"
#include "core/data/regime.h"
#include "core/experiments/attention_dataset_rows.h"
#include "core/experiments/cell_runner.h"
#include "core/experiments/classification_dataset.h"
#include "core/experiments/common_parameters.h"
#include "core/experiments/experiment_support.h"
#include "core/mechanisms/data_driven_parameters.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/random/trial_stream.h"

namespace rfscope {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Above this relative spread of the normaliser the delta method is flagged (it over-predicts).
constexpr double kSpreadLimit = 0.2;

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

// The mechanism's parameters from the query and key statistics (CRT eq. 8 for OPRF's A*), the
// remaining ones at their defaults.
ParameterSet attentionParameters(const Mechanism& mechanism, const AttentionProblem& p) {
  std::vector<Eigen::VectorXd> xs, ys;
  for (Eigen::Index i = 0; i < p.rows(); ++i)
    xs.push_back(p.queries.row(i).transpose());
  for (Eigen::Index j = 0; j < p.keys.rows(); ++j)
    ys.push_back(p.keys.row(j).transpose());
  ys.resize(xs.size(), ys.back());
  const ParameterSet chosen = dataDrivenParameters(mechanism, xs, ys);
  return resolveParameters(mechanism, PairInput(xs.front(), ys.front()), chosen);
}

FeatureMapSpec attentionFeatureSpec(const Mechanism& mechanism, const AttentionProblem& p,
                                    Coupling coupling) {
  FeatureMapSpec spec;
  spec.kernel = Kernel::Softmax;
  spec.coupling = coupling;
  spec.dimension = static_cast<int>(p.queries.cols());
  spec.parameters = attentionParameters(mechanism, p);
  return spec;
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

RunResult AttentionError::runWith(const AttentionErrorSettings& settings,
                                  RunContext& context) const {
  const AttentionProblem problem = loadProblem(settings);
  const ExactAttention exact = exactAttention(problem);
  const ExactAttentionRows exactRows =
      exactAttentionRows(problem, evenlySpacedRows(problem.rows(), settings.errorRows));
  const std::vector<Eigen::Index> predictionRows =
      evenlySpacedRows(problem.rows(), settings.predictionRows);
  const KeyGram gram(problem);

  struct Series {
    const Mechanism* mechanism = nullptr;
    Coupling coupling = Coupling::Iid;
    std::string name;
    std::uint64_t seed = 0;
    std::string key, colorKey;
    FeatureMapSpec spec;
    // Per M: the predicted squared relative errors (NaN where there is no closed form).
    std::vector<double> outputSquared, attentionSquared, spreadSquared, unnormalisedSquared;
    BandColumns output;
    ColumnHandle median, predicted, linearised, attention, attentionPredicted, worstVariation,
        nonPositive, unnormalised, unnormalisedPredicted, spread;
  };
  RunResult result;
  Table& table = result.table;
  table.hints.title = std::string(settings.causal ? "Causal" : "Bidirectional") +
                      " attention error, L = " + std::to_string(problem.rows()) +
                      ", d = " + std::to_string(problem.queries.cols()) + ", input scale " +
                      formatParameterValue(settings.inputScale);
  table.hints.xColumn = "features";
  table.hints.xLabel = "random features M";
  table.hints.yLabel = "relative output error ‖Ô - O‖/‖O‖ (measured: mean ± std; predicted)";
  table.hints.xLog = table.hints.yLog = true;
  const ColumnHandle featureColumn = table.addColumn("features", "random features M");
  const std::size_t featureCount = settings.features.size();
  std::vector<Series> series;
  for (std::size_t m = 0; m < settings.mechanisms.size(); ++m)
    for (std::size_t c = 0; c < settings.couplings.size(); ++c) {
      const Mechanism& mechanism = *settings.mechanisms[m];
      const Coupling coupling = settings.couplings[c];
      const std::string key = mechanism.info().id + "-" + couplingId(coupling);
      const std::string name = mechanism.info().name + ", " + couplingName(coupling);
      // Registry colours where one of the two is fixed; otherwise a colour per series.
      const std::string colorKey = settings.mechanisms.size() == 1  ? couplingId(coupling)
                                   : settings.couplings.size() == 1 ? mechanism.info().id
                                                                    : key;
      Series s;
      s.mechanism = &mechanism;
      s.coupling = coupling;
      s.name = name;
      s.key = key;
      s.seed = deriveSeed(settings.seed, c, m);
      s.spec = attentionFeatureSpec(mechanism, problem, coupling);
      s.output =
          addBandSeries(table, key + "-output", name + " measured",
                        {" mean output error", " std over redraws", " mean - std", " mean + std"},
                        colorKey, SeriesStyle::Line);
      s.colorKey = colorKey;
      s.median = table.addColumn(key + "-output-median", name + " median output error");
      s.predicted = table.addColumn(key + "-output-predicted",
                                    name + " predicted output error (delta method)");
      s.linearised =
          table.addColumn(key + "-linearised", name + " rms linearised output error |N̂ - oD̂|/D");
      s.attention = table.addColumn(key + "-attention", name + " mean attention-matrix error");
      s.attentionPredicted =
          table.addColumn(key + "-attention-predicted", name + " predicted attention-matrix error");
      s.worstVariation =
          table.addColumn(key + "-worst-tv", name + " mean worst-row total variation");
      s.nonPositive = table.addColumn(key + "-nonpositive", name + " rows with D̂ ≤ 0 (fraction)");
      s.unnormalised =
          table.addColumn(key + "-unnormalised", name + " rms unnormalised error ‖Ŝ - SM‖/‖SM‖");
      s.unnormalisedPredicted = table.addColumn(key + "-unnormalised-predicted",
                                                name + " predicted unnormalised error (exact)");
      s.spread = table.addColumn(key + "-spread", name + " predicted normaliser spread √Var D̂/D");
      series.push_back(std::move(s));
    }

  // Predictions, before the Monte Carlo: the delta method once per mechanism (i.i.d.: ∝ 1/M),
  // the exact unnormalised error once (i.i.d.) or per M (coupled closed forms).
  std::vector<std::string> reasons(series.size());
  const bool complete = parallelCells(context, series.size(), [&](std::size_t index) {
    Series& s = series[index];
    s.outputSquared.assign(featureCount, kNaN);
    s.attentionSquared.assign(featureCount, kNaN);
    s.spreadSquared.assign(featureCount, kNaN);
    s.unnormalisedSquared.assign(featureCount, kNaN);
    const Status available = hasAttentionPrediction(*s.mechanism, s.spec.parameters, s.coupling);
    if (available) {
      const auto delta =
          predictAttention(problem, gram, *s.mechanism, s.spec.parameters, predictionRows);
      for (std::size_t k = 0; k < featureCount; ++k) {
        const double m = static_cast<double>(settings.features[k]);
        s.outputSquared[k] = std::exp(delta->logOutputMse - delta->logOutputNormSquared) / m;
        s.attentionSquared[k] =
            std::exp(delta->logAttentionMse - delta->logAttentionNormSquared) / m;
        s.spreadSquared[k] = std::exp(delta->logMeanRelativeSpreadSquared) / m;
      }
    } else {
      reasons[index] = s.name + ": no delta-method prediction — " + available.reason();
    }
    const bool iid = s.coupling == Coupling::Iid;
    for (std::size_t k = 0; k < featureCount; ++k) {
      const std::int64_t m = iid ? 1 : settings.features[k];
      const EstimatorSpec spec{s.mechanism, Kernel::Softmax, s.coupling, m, s.spec.parameters};
      const auto unnormalised = predictUnnormalised(problem, spec, exactRows.rows);
      if (!unnormalised) {
        reasons[index] += (reasons[index].empty() ? s.name + ": " : "; ") +
                          std::string("no exact unnormalised error — ") + unnormalised.reason();
        break;
      }
      const double ratio = std::exp(unnormalised->logMse - unnormalised->logNormSquared);
      if (iid) {
        for (std::size_t j = 0; j < featureCount; ++j)
          s.unnormalisedSquared[j] = ratio / static_cast<double>(settings.features[j]);
        break;
      }
      s.unnormalisedSquared[k] = ratio;
    }
  });
  if (!complete) {
    result.status = RunStatus::Cancelled;
    return result;
  }
  for (const auto& reason : reasons)
    if (!reason.empty()) result.warnings.push_back(reason);
  // The predicted output error beside the measured curve, where the delta method has one.
  for (const Series& s : series)
    if (!std::isnan(s.outputSquared.front()))
      table.hints.series.push_back({s.name + " predicted", s.key + "-output-predicted", "", "",
                                    s.colorKey, SeriesStyle::Points, "", false});

  // One row per M, one cell per (series, redraw).
  const std::size_t redraws = settings.redraws;
  std::vector<AttentionErrors> errors(featureCount * series.size() * redraws);
  const auto at = [&](std::size_t row, std::size_t s, std::size_t r) {
    return (row * series.size() + s) * redraws + r;
  };
  CellWork work;
  work.computeCells = [&](std::size_t begin, std::size_t end) {
    for (std::size_t cell = begin; cell != end; ++cell) {
      if (context.cancelled()) return;
      const std::size_t row = cell / (series.size() * redraws);
      const std::size_t s = cell / redraws % series.size(), r = cell % redraws;
      FeatureMapSpec spec = series[s].spec;
      spec.features = settings.features[row];
      TrialStream stream(series[s].seed, r);
      const auto map = series[s].mechanism->drawFeatureMap(spec, stream);
      errors[at(row, s, r)] = attentionErrors(
          problem, exact, exactRows, (*map)->queries(problem.queries), (*map)->keys(problem.keys));
    }
  };
  work.commitRows = [&](std::size_t first, std::size_t last) {
    std::vector<double> output(redraws), squares(redraws);
    for (std::size_t row = first; row < last; ++row) {
      table.append(featureColumn, static_cast<double>(settings.features[row]));
      for (std::size_t index = 0; index < series.size(); ++index) {
        Series& s = series[index];
        const auto collect = [&](auto field) {
          for (std::size_t r = 0; r < redraws; ++r)
            squares[r] = field(errors[at(row, index, r)]);
        };
        for (std::size_t r = 0; r < redraws; ++r)
          output[r] = errors[at(row, index, r)].outputRelativeError;
        const MeanAndStd summary = summarizeFinite(output.data(), redraws);
        s.output.append(table, summary.mean, summary.std, summary.mean - summary.std,
                        summary.mean + summary.std);
        table.append(s.median, median(output));
        table.append(s.predicted, std::sqrt(s.outputSquared[row]));
        collect([](const AttentionErrors& e) {
          return e.linearisedOutputRelativeError * e.linearisedOutputRelativeError;
        });
        table.append(s.linearised, rms(squares));
        collect([](const AttentionErrors& e) { return e.attentionRelativeError; });
        table.append(s.attention, summarizeFinite(squares.data(), redraws).mean);
        table.append(s.attentionPredicted, std::sqrt(s.attentionSquared[row]));
        collect([](const AttentionErrors& e) { return e.worstRowTotalVariation; });
        table.append(s.worstVariation, summarizeFinite(squares.data(), redraws).mean);
        collect([](const AttentionErrors& e) { return e.nonPositiveFraction; });
        table.append(s.nonPositive, summarizeFinite(squares.data(), redraws).mean);
        collect([](const AttentionErrors& e) {
          return std::exp(e.logUnnormalisedSquaredError - e.logUnnormalisedNormSquared);
        });
        table.append(s.unnormalised, rms(squares));
        table.append(s.unnormalisedPredicted, std::sqrt(s.unnormalisedSquared[row]));
        table.append(s.spread, std::sqrt(s.spreadSquared[row]));
      }
    }
  };
  CellGrid grid;
  grid.rows = featureCount;
  grid.cellsPerRow = series.size() * redraws;
  result.status = runCellGrid(context, grid, work, table);
  if (result.status != RunStatus::Completed) return result;

  // Positive features cannot give D̂ ≤ 0; where they did, one row's features spanned more than a
  // double holds (entries below e^-745 of the row's largest flush to zero, feature_map.h) and the
  // outputs are 0/0: the inputs are refused, the limit named, rather than NaN reported.
  for (std::size_t index = 0; index < series.size(); ++index) {
    if (!series[index].mechanism->info().positive) continue;
    std::size_t underflowed = 0;
    for (std::size_t row = 0; row < featureCount; ++row)
      for (std::size_t r = 0; r < redraws; ++r)
        if (errors[at(row, index, r)].nonPositiveFraction > 0) ++underflowed;
    if (underflowed == 0) continue;
    const double largest = std::max(problem.queries.rowwise().norm().maxCoeff(),
                                    problem.keys.rowwise().norm().maxCoeff());
    throw DataError(series[index].name + ": in " + std::to_string(underflowed) + " of " +
                        std::to_string(featureCount * redraws) +
                        " draws some query's D̂ underflowed to 0 — the features of one row span "
                        "more than a double holds (e^±708) at these inputs (largest row norm " +
                        formatParameterValue(largest) +
                        " after the d^-1/4 scaling): scale the rows down",
                    settings.queriesFile.empty() ? "input-scale" : "queries-file");
  }

  // What the numbers mean: where the delta method is out of its range, and the features needed.
  for (std::size_t index = 0; index < series.size(); ++index) {
    const Series& s = series[index];
    if (!s.mechanism->info().positive)
      result.warnings.push_back(s.name +
                                ": features of both signs — D̂ can be ≤ 0, the mean output error "
                                "does not converge; compare the prediction with the median or "
                                "the linearised error");
    std::int64_t flaggedUpTo = 0;
    for (std::size_t k = 0; k < featureCount; ++k)
      if (std::sqrt(s.spreadSquared[k]) > kSpreadLimit) flaggedUpTo = settings.features[k];
    if (flaggedUpTo > 0)
      result.warnings.push_back(s.name +
                                ": the normaliser's predicted spread exceeds 0.2 up to M = " +
                                std::to_string(flaggedUpTo) +
                                " — the delta method over-predicts there (Monte Carlo only)");
    std::string needed =
        s.name + ": features for output error " + formatParameterValue(settings.targetError) + ": ";
    if (!std::isnan(s.outputSquared.front())) {
      const double perFeature =
          s.outputSquared.front() * static_cast<double>(settings.features.front());
      needed += "predicted M ≈ " +
                countText(std::ceil(perFeature / (settings.targetError * settings.targetError)));
    } else {
      needed += "no prediction";
    }
    const Column& measured = table[s.output.mean];
    std::string confirmed = "none of the grid";
    for (std::size_t k = 0; k < featureCount; ++k)
      if (measured.values[k] <= settings.targetError) {
        confirmed = "M = " + std::to_string(settings.features[k]);
        break;
      }
    result.warnings.push_back(
        needed + "; measured: first grid point with mean error below it: " + confirmed);
  }
  return result;
}

}  // namespace rfscope
