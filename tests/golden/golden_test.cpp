// Golden outputs: the CSV of every experiment's defaults and of every preset, the analytic values
// at every committed reference case, and Monte Carlo runs of every mechanism under every coupling,
// compared bit for bit with the files under tests/golden/data. They pin behaviour through
// refactorings: a change in any number shows up here, and an intended one is made by regenerating
// the files (RFSCOPE_UPDATE_GOLDEN=1 ctest -R Golden) and saying why in the commit.
//
// Runs go through the code path of `rfscope-cli run` (defaults or preset, validation, run, CSV with
// its metadata), on the CPU (a GPU may round differently). Only the version line is left out.

#include <gtest/gtest.h>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/analytic/analytic_variance.h"
#include "core/analytic/hrf_relative_error.h"
#include "core/couplings/coupling.h"
#include "core/couplings/positive_conformity.h"
#include "core/couplings/trig_orthogonality.h"
#include "core/experiments/experiment_registry.h"
#include "core/experiments/preset.h"
#include "core/io/table_csv.h"
#include "core/mechanisms/mechanism_registry.h"
#include "core/montecarlo/monte_carlo_backend.h"
#include "core/montecarlo/monte_carlo_engine.h"
#include "tests/analytic/reference_data.h"
#include "tests/experiments/experiment_test_support.h"
#include "tests/golden/numeric_text_comparison.h"

namespace rfscope {
namespace {

namespace fs = std::filesystem;
using namespace rfscope::test;

const fs::path kGoldenDir = fs::path(RFSCOPE_TEST_DATA_DIR) / "data";

bool updating() {
  const char* value = std::getenv("RFSCOPE_UPDATE_GOLDEN");
  return value && std::string(value) == "1";
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Where glibc's libm runs its SSE2 code instead of the FMA code the golden files were written
// with, numbers may differ: a one-ulp difference in e^x or log reaches the printed results through
// the formulas after it. Measured over every golden file (SSE4 kernels, GLIBC_TUNABLES=
// glibc.cpu.hwcaps=-AVX2,-FMA): 16 of 40 files differ, the analytic references not at all; the
// largest relative difference is 3.4e-12, in a Monte Carlo run's batch-means relative standard
// error (a difference of batch variances, which amplifies an ulp), 2e-14 in every CSV. The
// tolerance leaves a factor 30 over the largest: ten significant digits agree.
constexpr double kLibmTolerance = 1e-10;

// Compares `actual` with the golden file `name` (or rewrites it when updating), naming the first
// line that differs: bit for bit where libm runs its FMA code (every CPU with AVX2 and FMA), which
// the files were written with; elsewhere each number within kLibmTolerance.
void expectGolden(const std::string& name, const std::string& actual) {
  const fs::path path = kGoldenDir / name;
  if (updating()) {
    fs::create_directories(kGoldenDir);
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " is missing (RFSCOPE_UPDATE_GOLDEN=1 writes it)";
  const std::string expected = readFile(path);
  if (expected == actual) return;
  const bool exact = libmRunsFmaCode();
  std::istringstream a(actual), e(expected);
  std::string lineA, lineE;
  int line = 1, within = 0;
  double largest = 0;
  while (true) {
    const bool moreA = static_cast<bool>(std::getline(a, lineA));
    const bool moreE = static_cast<bool>(std::getline(e, lineE));
    if (!moreA && !moreE) break;
    const bool same = moreA && moreE && lineA == lineE;
    const auto why = same || !moreA || !moreE ? std::optional<std::string>()
                                              : differenceBeyond(lineE, lineA, kLibmTolerance);
    if (!same && (exact || !moreA || !moreE || why)) {
      const fs::path actualPath = fs::temp_directory_path() / ("rfscope-golden-actual-" + name);
      std::ofstream(actualPath, std::ios::binary) << actual;
      FAIL() << name << " differs from the golden file at line " << line
             << (exact ? " (bit for bit: libm runs its FMA code)" : " (" + why.value_or("") + ")")
             << ":\n  golden: " << (moreE ? lineE : "<end>")
             << "\n  actual: " << (moreA ? lineA : "<end>") << "\n(whole output: " << actualPath
             << ")";
    }
    if (!same) {
      ++within;
      largest =
          std::max(largest, largestRelativeDifference(splitNumbers(lineE), splitNumbers(lineA)));
    }
    ++line;
  }
  std::cout << name << ": " << within << " lines differ within the tolerance (libm without FMA), "
            << "largest relative difference " << largest << "\n";
}

// Shortest text that reads back as the same double.
std::string number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

std::string parameters(const ParameterSet& set) {
  std::string out = "{";
  for (const auto& [key, value] : set.values()) {
    out += (out.size() > 1 ? ";" : "") + key + "=";
    if (const auto* real = std::get_if<double>(&value))
      out += number(*real);
    else
      out += formatParameterValue(value);
  }
  return out + "}";
}

// ---- Experiments and presets ----

struct GoldenRun {
  std::string name;  // file name without ".csv"
  const Experiment* experiment;
  ParameterSet parameters;
  std::vector<const Preset*> presets;  // the presets whose parameters these are
};

// Every experiment's defaults, then every preset whose parameters differ from its experiment's
// defaults (the others produce the very same file).
std::vector<GoldenRun> goldenRuns() {
  std::vector<GoldenRun> runs;
  for (const Experiment* experiment : allExperiments())
    runs.push_back({"experiment-" + experiment->info().id,
                    experiment,
                    ParameterSet::defaults(experiment->parameters()),
                    {}});
  for (const Preset& preset : allPresets()) {
    const Experiment* experiment = findExperiment(preset.experimentId);
    std::vector<ParameterError> errors;
    const ParameterSet set = presetParameters(preset, *experiment, errors);
    if (set == ParameterSet::defaults(experiment->parameters())) {
      for (GoldenRun& run : runs)
        if (run.experiment == experiment) run.presets.push_back(&preset);
      continue;
    }
    runs.push_back({"preset-" + preset.id, experiment, set, {&preset}});
  }
  return runs;
}

// Test names and failures read as the run's name, not as the struct's bytes.
void PrintTo(const GoldenRun& run, std::ostream* out) {
  *out << run.name;
}

class GoldenExperiment : public ::testing::TestWithParam<GoldenRun> {};

TEST_P(GoldenExperiment, CsvIsUnchanged) {
  const GoldenRun& run = GetParam();
  ASSERT_TRUE(run.experiment->validate(run.parameters).empty());
  test::CpuRunContext context;
  const RunResult result = run.experiment->run(run.parameters, context);
  ASSERT_EQ(result.status, RunStatus::Completed);
  CsvMetadata metadata;
  for (auto& entry : runMetadata(run.experiment->info().id, run.parameters))
    if (entry.first != "rfscope-version") metadata.push_back(std::move(entry));
  std::string csv = tableToCsv(result.table, metadata);
  for (const auto& warning : result.warnings)
    csv += "# warning: " + warning + "\n";
  expectGolden(run.name + ".csv", csv);
  // Each preset's claim holds on the figure it describes (claim.h).
  for (const Preset* preset : run.presets) {
    const ClaimVerdict verdict = checkClaim(preset->claim, result.table);
    // The verdict as `rfscope-cli run --preset ID --check` prints it, in the test log (CI sums it).
    std::cout << "preset " << preset->id << "\n" << claimReport(preset->claim, verdict);
    for (std::size_t i = 0; i < verdict.assertions.size(); ++i)
      EXPECT_TRUE(verdict.assertions[i].holds)
          << preset->id << ": " << preset->claim.assertions[i].text << " — "
          << verdict.assertions[i].detail;
  }
}

TEST(GoldenExperiment, EveryPresetClaimsSomethingCheckable) {
  for (const Preset& preset : allPresets()) {
    EXPECT_FALSE(preset.claim.text.empty()) << preset.id;
    EXPECT_FALSE(preset.claim.assertions.empty()) << preset.id;
  }
}

INSTANTIATE_TEST_SUITE_P(All, GoldenExperiment, ::testing::ValuesIn(goldenRuns()),
                         [](const ::testing::TestParamInfo<GoldenRun>& info) {
                           return test::testNameOf(info.param.name);
                         });

TEST(GoldenExperiment, EveryExperimentAndPresetIsCovered) {
  std::set<std::string> experiments;
  for (const auto& run : goldenRuns())
    experiments.insert(run.experiment->info().id);
  EXPECT_EQ(experiments.size(), allExperiments().size());
}

// ---- The committed references (tests/reference) ----

ParameterSet referenceParameters(const nlohmann::json& json) {
  ParameterSet set;
  for (const auto& [key, value] : json.items()) {
    if (key == "s")
      set.set("s", std::string(value.get<int>() > 0 ? "+1" : "-1"));
    else if (value.is_boolean())
      set.set(key, value.get<bool>());
    else if (value.is_number_integer() && key == "n")
      set.set(key, value.get<std::int64_t>());
    else
      set.set(key, value.get<double>());
  }
  return set;
}

// Reasons are numbered in order of first appearance and listed once, at the end of the file.
class Reasons {
 public:
  std::string operator()(const std::string& reason) {
    for (std::size_t i = 0; i < list_.size(); ++i)
      if (list_[i] == reason) return "unavailable #" + std::to_string(i);
    list_.push_back(reason);
    return "unavailable #" + std::to_string(list_.size() - 1);
  }
  std::string legend() const {
    std::string out;
    for (std::size_t i = 0; i < list_.size(); ++i)
      out += "#" + std::to_string(i) + ": " + list_[i] + "\n";
    return out;
  }

 private:
  std::vector<std::string> list_;
};

std::string answerLine(const AnalyticAnswer& a, Reasons& reasons) {
  if (!a.variance) return reasons(a.variance.reason());
  const AnalyticVariance& v = *a.variance;
  std::string line = "logK=" + number(a.logKernelValue) + " logVar=" + number(v.logVariance) +
                     " used=" + parameters(a.parametersUsed);
  if (v.logConformity) line += " logRho=" + number(*v.logConformity);
  if (v.logAbsOrthogonalityGap)
    line += " gap=" + std::to_string(v.orthogonalityGapSign) + "*exp(" +
            number(*v.logAbsOrthogonalityGap) + ")";
  if (v.logAbsBias)
    line += " bias=" + std::to_string(v.biasSign) + "*exp(" + number(*v.logAbsBias) + ")";
  return line;
}

TEST(GoldenReferences, MechanismCasesAreUnchanged) {
  const auto& refs = analyticReferences();
  const auto& pairs = refs.at("pairs");
  std::string out;
  std::size_t index = 0;
  for (const auto& c : refs.at("cases")) {
    const Mechanism* mechanism = findMechanism(c.at("mechanism").get<std::string>());
    ASSERT_NE(mechanism, nullptr);
    const auto& pair = pairs.at(c.at("pair").get<std::size_t>());
    const Eigen::VectorXd x = vectorFromJson(pair.at("x")), y = vectorFromJson(pair.at("y"));
    const VarianceResult r =
        mechanism->logVariance(PairInput(x, y), referenceParameters(c.at("params")));
    out += std::to_string(index++) + " " + mechanism->info().id + " pair " +
           std::to_string(c.at("pair").get<std::size_t>()) + ": " +
           (r.logVariance ? "logVar=" + number(*r.logVariance)
                          : "unavailable: " + r.logVariance.reason()) +
           " used=" + parameters(r.parametersUsed) + "\n";
  }
  expectGolden("references-cases.txt", out);
}

TEST(GoldenReferences, CoupledAndSoftmaxAnswersAtEveryReferencePairAreUnchanged) {
  // evaluateAnalytic for every mechanism at every reference pair: softmax with one i.i.d.
  // feature, and five features under the coupled closed forms' couplings (closed forms or the
  // reason there is none).
  const auto& pairs = analyticReferences().at("pairs");
  std::string out;
  Reasons reasons;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const Eigen::VectorXd x = vectorFromJson(pairs[p].at("x")),
                          y = vectorFromJson(pairs[p].at("y"));
    for (const Mechanism* mechanism : allMechanisms()) {
      EstimatorSpec request;
      request.mechanism = mechanism;
      request.kernel = Kernel::Softmax;
      out += std::to_string(p) + " " + mechanism->info().id +
             " softmax iid M=1: " + answerLine(evaluateAnalytic(request, x, y), reasons) + "\n";
      request.kernel = Kernel::Gaussian;
      request.features = 5;
      for (const auto& coupling : allCouplings()) {
        if (coupling.coupling == Coupling::Iid) continue;
        // The Monte Carlo-only couplings have no closed form anywhere: the first pair shows it.
        const bool closedForms = coupling.coupling == Coupling::Orthogonal ||
                                 coupling.coupling == Coupling::Simplex ||
                                 coupling.coupling == Coupling::OrthogonalFixedNorm ||
                                 coupling.coupling == Coupling::OrthogonalNormCoupled;
        if (!closedForms && p > 0) continue;
        request.coupling = coupling.coupling;
        out += std::to_string(p) + " " + mechanism->info().id + " " + coupling.id +
               " M=5: " + answerLine(evaluateAnalytic(request, x, y), reasons) + "\n";
      }
    }
  }
  expectGolden("references-pairs.txt", out + reasons.legend());
}

TEST(GoldenReferences, ConformityHrfAndTrigOrthogonalityAreUnchanged) {
  const auto& refs = analyticReferences();
  std::string out;
  for (const auto& c : refs.at("conformity")) {
    const Coupling kind = parseCoupling(c.at("coupling").get<std::string>());
    const int d = c.at("d");
    const double u = c.at("u"), diff = c.at("diff");
    const Outcome<Conformity> r = positiveConformity(kind, d, u);
    const Conformity value = r ? *r : Conformity{};
    out += "conformity " + c.at("coupling").get<std::string>() + " d=" + std::to_string(d) +
           " u=" + number(u) + ": " + (r ? "1" : "0") + " logRho=" + number(value.logConformity) +
           " h=" + number(value.deficit);
    for (const auto& [m, expected] : c.at("log_variance").items())
      out += " M" + m + "=" + number(coupledPositiveLogVariance(kind, d, std::stoll(m), diff, u));
    out += "\n";
  }
  for (const auto& c : refs.at("hrf")) {
    const double theta = c.at("theta"), r = c.at("r");
    const std::int64_t m = c.at("m"), n = c.at("n");
    out += "hrf theta=" + number(theta) + " r=" + number(r) + " m=" + std::to_string(m) +
           " n=" + std::to_string(n) + ": trig=" + number(logTrigRelativeError(theta, r, m)) +
           " posHyp=" + number(logPosHypRelativeError(theta, r, m)) +
           " max=" + number(logMaxBaseRelativeError(r, m)) +
           " bound=" + number(logAngularHybridBound(r, m, n)) +
           " hybrid=" + number(logAngularHybridRelativeError(theta, r, m, n)) + "\n";
  }
  for (const auto& c : refs.at("trig_orthogonality")) {
    const int d = c.at("d");
    const double diff = c.at("diff");
    out += "trig-orthogonality d=" + std::to_string(d) + " diff=" + number(diff) +
           ": cov=" + number(trigOrthogonalCovariance(d, diff));
    for (const auto& [m, value] : c.at("log_variance").items())
      out += " M" + m + "=" + number(orthogonalTrigLogVariance(d, std::stoll(m), diff)) + " gap" +
             m + "=" + number(trigOrthogonalityGap(d, std::stoll(m), diff));
    out += "\n";
  }
  expectGolden("references-couplings.txt", out);
}

// ---- Monte Carlo of every mechanism under every coupling ----

TEST(GoldenMonteCarlo, EveryMechanismAndCouplingIsUnchanged) {
  // A few reference pairs (odd d, a power of two, and one far from 0), fast and full paths.
  const auto& pairs = analyticReferences().at("pairs");
  std::vector<std::size_t> chosen;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const std::string label = pairs[p].at("label");
    if (label == "normal d=3 sigma=0.5" || label == "normal d=8 sigma=0.5" ||
        label == "normal d=8 sigma=1")
      chosen.push_back(p);
  }
  ASSERT_EQ(chosen.size(), 3u);
  std::string out;
  Reasons reasons;
  auto backend = makeCpuBackend(2);
  for (std::size_t p : chosen) {
    for (const Mechanism* mechanism : allMechanisms())
      for (const auto& coupling : allCouplings())
        for (const SamplingPath path : {SamplingPath::Fast, SamplingPath::Full}) {
          MonteCarloRequest request;
          request.mechanism = mechanism;
          request.kernel = Kernel::Softmax;
          request.coupling = coupling.coupling;
          request.features = 5;
          request.x = vectorFromJson(pairs[p].at("x"));
          request.y = vectorFromJson(pairs[p].at("y"));
          request.trials = 1000;
          request.seed = 11;
          request.path = path;
          request.storedSamples = 200;
          request.histogramBins = 8;
          std::string line = std::to_string(p) + " " + mechanism->info().id + " " + coupling.id +
                             (path == SamplingPath::Fast ? " fast" : " full") + ": ";
          const auto r = runMonteCarlo(request, {}, backend.get());
          if (!r) {
            out += line + "error: " + r.reason() + "\n";
            continue;
          }
          line += "path=" + r->path + " trials=" + std::to_string(r->trials) +
                  " logK=" + number(r->logKernelValue) + " mean=" + std::to_string(r->mean.sign) +
                  "*exp(" + number(r->mean.logAbs) + ") logVar=" + number(r->logVariance) +
                  " relErr=" + number(r->relativeStdErr) + " heavy=" + (r->heavyTail ? "1" : "0") +
                  " used=" + parameters(r->parametersUsed);
          for (const auto& q : r->quantiles)
            line += " q" + number(q.level) + "=" + std::to_string(q.value.sign) + "*exp(" +
                    number(q.value.logAbs) + ")";
          line +=
              " exact: " + answerLine(evaluateAnalytic(request.withParameters(r->parametersUsed),
                                                       request.x, request.y),
                                      reasons);
          out += line + "\n";
        }
  }
  expectGolden("monte-carlo.txt", out + reasons.legend());
}

TEST(GoldenMonteCarlo, SeveralBlocksInDimension64AreUnchanged) {
  // The SIMD kernels' block structure beyond the small pairs above: d = 64, one full block of
  // frequencies and half of another (M = 96), for the mechanisms with vector trial kernels under
  // the block couplings. The capped reruns (tests/simd_targets) compare these bits on every
  // target, in place of rerunning the statistical agreement tests there.
  const auto& pairs = analyticReferences().at("pairs");
  std::optional<std::size_t> chosen;
  for (std::size_t p = 0; p < pairs.size(); ++p)
    if (pairs[p].at("label") == "normal d=64 sigma=0.5") chosen = p;
  ASSERT_TRUE(chosen);
  std::string out;
  Reasons reasons;
  auto backend = makeCpuBackend(2);
  for (const char* id : {"trig", "trig-phase", "pos", "oprf"})
    for (const char* coupling : {"iid", "orf", "simrf", "orf-fast", "simrf-fast"})
      for (const SamplingPath path : {SamplingPath::Fast, SamplingPath::Full}) {
        MonteCarloRequest request;
        request.mechanism = findMechanism(id);
        ASSERT_NE(request.mechanism, nullptr) << id;
        request.kernel = Kernel::Gaussian;
        request.coupling = parseCoupling(coupling);
        request.features = 96;
        request.x = vectorFromJson(pairs[*chosen].at("x"));
        request.y = vectorFromJson(pairs[*chosen].at("y"));
        request.trials = 256;
        request.seed = 13;
        request.path = path;
        std::string line = std::string(id) + " " + coupling +
                           (path == SamplingPath::Fast ? " fast" : " full") + ": ";
        const auto r = runMonteCarlo(request, {}, backend.get());
        if (!r) {
          out += line + "error: " + r.reason() + "\n";
          continue;
        }
        out += line + "path=" + r->path + " trials=" + std::to_string(r->trials) +
               " mean=" + std::to_string(r->mean.sign) + "*exp(" + number(r->mean.logAbs) +
               ") logVar=" + number(r->logVariance) + "\n";
      }
  expectGolden("monte-carlo-d64.txt", out + reasons.legend());
}

}  // namespace
}  // namespace rfscope
