// Every preset's claim can fail: the golden tests check that each claim holds at the preset's
// defaults; here each preset gets one variation (a few values on top of its own, parsed against the
// experiment's spec as the preset's are) under which the figure changes and the claim must not
// hold. A claim that held under every variation would assert nothing. Two claims state what the
// closed forms satisfy by mathematics (hrf-thm3.5: Lemma 3.4 and Thm 3.5; teach-trig-phase: an
// identity): no change of the physics breaks them, and their variations, marked as such, show only
// that the assertions read the table.
//
// Each variation also shrinks the run (fewer pairs, trials, redraws, grid steps) so that all of
// them together take seconds on one core, while the claim is still evaluated on a real table.

#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/experiments/experiment_registry.h"
#include "core/experiments/preset.h"
#include "tests/experiments/experiment_test_support.h"

namespace rfscope {
namespace {

struct ClaimVariation {
  std::string presetId;
  std::vector<std::pair<std::string, std::string>> values;  // key, value text, as --set takes them
  // The assertions (by their text) that fail for the reason the comment gives, each holding on the
  // same shortened run without the change; others may fail too.
  std::vector<std::string> failing;
};

// One variation per preset, in allPresets()'s order; the comment says why the claim fails there.
const std::vector<ClaimVariation>& claimVariations() {
  static const std::vector<ClaimVariation> variations{
      // d = 4: ‖x‖² ≈ 4σ² stays small, so TrigRF's ½(1-K²)² lies below OPRF at σ = 0.3, PosRF
      // rises only e^5 above OPRF at σ = 1, and TrigRF has not levelled off at log ½ by σ = 0.4.
      {"crt-fig2-normal",
       {{"d", "4"}, {"sigma-steps", "10"}, {"pairs", "10"}},
       {"OPRF below TrigRF for σ ≥ 0.25", "OPRF below PosRF by e^75 at σ = 1",
        "TrigRF at log ½ for σ ≥ 0.4"}},
      // d = 8: the inputs are small, so the pairs' second moments leave the dense-exponential
      // features almost nothing to gain over OPRF (under e^0.1 at σ = 1), and PosRF is only e^10
      // above OPRF.
      {"derf-vs-oprf",
       {{"d", "8"}},
       {"SDERF below OPRF by e^2 at σ = 1", "ADERF below OPRF by e^3 at σ = 1",
        "GERF on OPRF for σ ≥ 0.3"}},
      // ‖x+y‖² only up to 50: OPRF's gain grows with the norm and is e^24 there, short of e^60.
      {"crt-fig1-right", {{"u-max", "50"}}, {"μ(d = 64) below -60 at ‖x+y‖² = 100"}},
      // d = 16: SimRF's small-v MSE ratio depends on d; it is about 0.03 here, not 0.0078.
      {"simrf-fig6",
       {{"d", "16"}, {"mc-points", "2"}, {"trials", "2000"}},
       {"SimRF/IID at v = 0.05 near 0.0078"}},
      // v = 3: the larger v, the more the draw's unequal norms matter: SimRF+, which arranges the
      // vectors by their norms, lies 7.5% below SimRF, not within 1%.
      {"simrf-fig4", {{"v-min", "3"}}, {"SimRF+ within 1% of SimRF"}},
      // d = 16: √(2d) ≈ 5.7, so w_ij ≥ 5.3 is the body of p(w_ij), not its tail, and coupling,
      // which concentrates ‖ω_i + ω_j‖ there, gives it more density than IID.
      {"simrf-fig5",
       {{"d", "16"}, {"blocks", "0"}},
       {"SimRF below ORF in the tail", "ORF below IID in the tail"}},
      // σ = 0.3 (‖x‖² ≈ 6): PosRF's estimates are heavy-tailed, so the Gram error is ruled by rare
      // huge estimates and does not fall 20-fold with M (under 3-fold).
      {"simrf-fig7",
       {{"sigma", "0.3"}, {"points", "32"}, {"features-steps", "4"}, {"repetitions", "5"}},
       {"IID falls 20-fold"}},
      // 4 hybrid features instead of 64: the angular hybrid's own error reaches 0.32 between θ = 0
      // and π.
      {"hrf-fig2-r1", {{"hybrid-features", "4"}, {"trials", "200"}}, {"hybrid below 0.2"}},
      // m = 2048: TrigRF's and FAVOR+'s errors shrink like 1/√m, to 1.4 at their worst angles,
      // less than 4 above the hybrid's.
      {"hrf-fig2-r1.5",
       {{"features", "2048"}, {"theta-steps", "7"}, {"trials", "200"}},
       {"TrigRF worst at θ = π", "FAVOR+ worst at θ = 0"}},
      // No change of parameters can break this claim's physics: TrigRF's and FAVOR+'s worst cases
      // are Lemma 3.4's closed form at θ = π and 0, both on every θ grid, and Thm 3.5's bound is a
      // theorem. Radii below 1 only leave the bound undefined, so the hybrid's assertion has no
      // row to hold on: this shows that the assertion reads the table, nothing more.
      {"hrf-thm3.5",
       {{"r-max", "0.9"}, {"theta-steps", "100"}},
       {"hybrid below its bound for r ≥ 1"}},
      // d = 4: the inputs stay small, PosRF's relative variance reaches only 23 at the largest σ,
      // less than 50 above OPRF's.
      {"teach-positive-features-blow-up",
       {{"d", "4"}},
       {"OPRF below PosRF by 50 at the largest σ"}},
      // 5000 trials instead of 200000: the band narrows like 1/√n and is still ±0.3 wide.
      {"teach-convergence",
       {{"trials", "5000"}},
       {"the band's low end within 0.1", "the band's high end within 0.1"}},
      // σ = 0.1: the tails are light and the estimate sits near the closed form from the start.
      {"teach-heavy-tails",
       {{"sigma", "0.1"}, {"trials", "20000"}},
       {"the estimate stays below 10⁻³ of the closed form"}},
      // σ = 0.1: light tails, ln K̂ spans only -6 .. 1.3, so the lowest bin is far above -30.
      {"teach-heavy-tail-histogram",
       {{"sigma", "0.1"}, {"trials", "20000"}, {"stored", "20000"}},
       {"the lowest bin below ln K̂ = -30"}},
      // d = 8: ‖x‖² ≈ 8σ² stays small up to σ = 0.6, the tails stay light, and the sampled band of
      // PosRF and OPRF reaches their closed forms for σ ≥ 0.3.
      {"teach-monte-carlo-vs-closed-form",
       {{"d", "8"}, {"sigma-steps", "6"}, {"pairs", "5"}, {"trials", "2000"}},
       {"PosRF: the band's top e^2 below the closed form for σ ≥ 0.3",
        "OPRF: the band's top e^1 below the closed form for σ ≥ 0.35"}},
      // σ = 1.5 for every dataset instead of the searched 3.15 on car: the kernel values TrigRF
      // estimates there are larger, and it trails the exact kernel by 0.14, not 0.4.
      {"crt-table1",
       {{"datasets", "car,wifi"},
        {"sigma", "1.5"},
        {"mechanisms", "trig,pos,gerf,oprf"},
        {"repeats", "2"}},
       {"TrigRF collapses on car"}},
      // σ up to 0.5 only: TrigRF's collapse lies beyond the grid, and at its largest σ it still
      // follows the exact kernel.
      {"crt-table1-sigma",
       {{"sigma-max", "0.5"}, {"sigma-steps", "4"}, {"repeats", "2"}, {"features", "64"}},
       {"TrigRF collapses at σ = 5"}},
      // σ = 3 instead of the searched one: the kernel is sharp (the exact kernel is 100% right)
      // but PosRF with m ≤ 10d cannot estimate its tiny values; every coupling stays below 0.47,
      // in no order, and SimRF does not rise with m.
      {"simrf-fig8", {{"sigma", "3"}, {"repeats", "4"}}, {"SimRF rises"}},
      // σ = 3 on every dataset: PosRF at m = d cannot estimate the sharp kernel's tiny values under
      // any coupling (accuracy about 0.43 on average), so SimRF's gain over ORF and IID vanishes.
      {"simrf-table2",
       {{"datasets", "banknote,wifi"}, {"sigma", "3"}, {"repeats", "4"}},
       {"SimRF above ORF", "SimRF above IID"}},
      // Noise 0.01: the exact GP interpolates the noisy rings (test RMSE 4.3), and more features
      // approach that overfit: the RMSE rises again with D.
      {"rff-regression-abalone",
       {{"noise", "0.01"}, {"repeats", "2"}},
       {"pairs: RMSE falls", "phases: RMSE falls"}},
      // 100 band features: the band approaches the exact GP's and is no longer half as wide.
      {"teach-rff-posterior-band",
       {{"band-features", "100"}},
       {"sin/cos band narrower on the left", "sin/cos band narrower on the right"}},
      // d = 1024: ‖x - y‖² ≈ 2dσ² is 16 times larger at each σ, so the points are no longer close:
      // TrigRF's variance is at ½ by σ = 0.1, above OPRF's, and under e^3 below at σ ≤ 0.03.
      {"teach-trig-small-inputs",
       {{"d", "1024"}},
       {"TrigRF e^3 below OPRF", "TrigRF e^3 below PosRF", "TrigRF below both up to σ = 0.16"}},
      // Input scale 1 (|x| ≈ 2.8): the large-norm regime of attention-large-norms, where OPRF does
      // not beat PosRF under any coupling. (At M = 16 the IID gap is within the noise of this
      // shorter run even at scale 0.5, so only ORF and SimRF are named.)
      {"favor-plus-vs-plus-plus",
       {{"input-scale", "1"},
        {"sequence-length", "256"},
        {"redraws", "4"},
        {"error-rows", "8"},
        {"prediction-rows", "2"}},
       {"OPRF below PosRF (ORF)", "OPRF below PosRF (SimRF)"}},
      // Input scale 0.1 (2% target): the inputs are small, where OPRF's variance gain over PosRF
      // vanishes (151 features predicted for both), so sampling noise decides and OPRF needs
      // more features than PosRF under IID (126 against 119 measured).
      {"favor-features-needed",
       {{"input-scale", "0.1"},
        {"target-error", "0.02"},
        {"features-min", "16"},
        {"features-max", "1024"},
        {"redraws", "3"}},
       {"OPRF fewer than PosRF (IID)"}},
      // Input scale 0.3: the small-input regime of teach-attention-prediction, where both errors
      // fall below 1 and the normaliser's spread is small enough for the delta method.
      {"attention-large-norms",
       {{"input-scale", "0.3"}, {"redraws", "3"}, {"error-rows", "8"}, {"prediction-rows", "2"}},
       {"PosRF above 1 everywhere", "OPRF above 1 everywhere",
        "the normaliser's spread is large (above 0.2)"}},
      // Input scale 1: the normaliser's spread rules the delta method out (it predicts errors of
      // thousands), and the measured errors fall far slower than 1/√M.
      {"teach-attention-prediction",
       {{"input-scale", "1"}, {"redraws", "4"}, {"prediction-rows", "16"}},
       {"PosRF measured vs predicted", "OPRF measured vs predicted", "PosRF falls like 1/√M",
        "OPRF falls like 1/√M"}},
      // d = 4: at the same input scale |x|² is 4 times smaller, so float16 without a stabiliser
      // keeps D̂ finite at scale 2 and loses 12% of the rows at 4, and Performer's max loses 18%
      // of them at 1.4, not 90%.
      {"attention-precision-fp16-breaks",
       {{"d", "4"}, {"redraws", "2"}},
       {"no stabiliser: D̂ overflows at scale 2", "no stabiliser: over half the rows NaN at scale 4",
        "Performer max: over 90% of rows NaN from scale 1.4"}},
      // Input scale 0.3: the estimator is good (error 0.099), ε has nothing to trade: it changes
      // neither the error nor the bias at 1e-4, and the spread stays above the bias at 1e-3.
      {"attention-precision-eps-bias",
       {{"input-scale", "0.3"}, {"redraws", "8"}},
       {"ε = 1e-4 lowers the error by 0.2", "ε = 1e-4 raises the bias",
        "bias above spread from ε = 1e-3"}},
      // d = 64: |x| is twice as large at each input scale, and PosRF breaks at scale 2 as well
      // (1.8% of its rows NaN without a stabiliser, 7% with the exponent's max).
      {"attention-precision-oprf-fp16",
       {{"d", "64"}, {"redraws", "2"}},
       {"no stabiliser: PosRF under 1% NaN at scale 2",
        "exponent max: PosRF loses none at scale 2"}},
      // No change of the closed-form figure can break this claim: the phase's variance is the
      // pair's plus ½, so the gap is ln(1 + 1/(1-K²)²) > ln 2 at every K. On the relative-RMSE
      // axis (geometric means of √Var/K, not logs) the ln 2 margin is read in other units and
      // fails by 0.001 near σ = 0.04: this shows that the assertion reads the table, nothing more.
      {"teach-trig-phase", {{"quantity", "relative-rmse"}}, {"the pair ln 2 below the phase"}},
      // d = 64 at σ = 0.1 (teach-qmc-high-dimension's setting): low-discrepancy points no longer
      // fill the space, and Sobol's and Halton's errors fall under 100-fold from M = 8 to 256.
      {"teach-qmc-low-dimension",
       {{"d", "64"}, {"sigma", "0.1"}, {"repetitions", "20"}},
       {"Sobol falls over 100-fold", "Halton falls over 100-fold"}},
      // d = 2: Halton's bases are 2 and 3, whose points fill the square evenly, so Halton is far
      // below i.i.d. frequencies instead of above.
      {"teach-qmc-high-dimension",
       {{"d", "2"}, {"repetitions", "10"}},
       {"Halton above i.i.d. 2-fold"}},
      // The normal regime: queries and keys have the same per-coordinate scale, so Ψ ≈ I and
      // SADERF gains almost nothing over OPRF (the dense matrices still do).
      {"saderf-heterogen",
       {{"regime", "normal"}, {"sigma-steps", "4"}, {"pairs", "20"}},
       {"SADERF below OPRF by e^1 at σ = 1"}},
      // d = 64 at σ = 0.1: low-discrepancy points no longer fill the space; neither Sobol
      // variant falls 100-fold from M = 8 to 256.
      {"teach-qmc-owen-scrambling",
       {{"d", "64"}, {"sigma", "0.1"}, {"repetitions", "20"}},
       {"Owen falls over 100-fold", "shifted Sobol falls over 100-fold"}},
      // d = 64: Ω_d(√d r) is close to e^{-r²/2}, bias² 160 times smaller (5.5·10⁻⁶), so the
      // fixed-norm MSE is still variance-dominated and stays at or below ORF's up to M = 1024.
      {"orf-fixed-norm-bias",
       {{"d", "64"}, {"trials", "0"}},
       {"fixed-norm variance 10-fold below ORF's", "fixed-norm MSE within 1% of bias² at M = 1024",
        "ORF below fixed norm from M = 128", "IID below fixed norm from M = 256"}},
      // The normal regime at d = 64: |x|² ≈ 64σ², sixteen times the sphere's σ², so OPRF's
      // optimised A is already far ahead of the Maclaurin features at σ = 0.25.
      {"maclaurin-vs-oprf",
       {{"regime", "normal"}, {"d", "64"}, {"sigma-steps", "5"}, {"pairs", "20"}},
       {"MaclaurinRF level with OPRF at σ = 0.25"}},
      // d = 64: a block's 32 coupled pairs are 64 of its 4032 ordered pairs, so coupling their
      // norms changes the MSE little: norm-coupled/ORF is 0.994 at v = 1.
      {"reid-norm-coupling",
       {{"d", "64"}, {"mc-points", "0"}},
       {"norm-coupled/ORF between 0.96 and 0.98 at v = 1"}},
      // σ = 0.05: a sharp kernel (the exact one classifies 72% right) whose values the features
      // barely reach; over 4 redraws the couplings' accuracies scatter by 0.03 at m = d.
      {"reid-norm-coupling-classification",
       {{"sigma", "0.05"}, {"repeats", "4"}},
       {"norm-coupled accuracy within 0.01 of ORF's"}},
  };
  return variations;
}

// Test names and failures read as the preset's id.
void PrintTo(const ClaimVariation& variation, std::ostream* out) {
  *out << variation.presetId;
}

// The preset's parameters with the variation's values on top: the preset with the values appended
// (a later value of a key replaces an earlier one), through presetParameters.
ParameterSet variationParameters(const Preset& preset, const Experiment& experiment,
                                 const std::vector<std::pair<std::string, std::string>>& values,
                                 std::vector<ParameterError>& errors) {
  Preset varied = preset;
  varied.values.insert(varied.values.end(), values.begin(), values.end());
  return presetParameters(varied, experiment, errors);
}

struct VariedRun {
  RunResult result;
  ClaimVerdict verdict;
};

VariedRun runVariation(const Preset& preset, const ClaimVariation& variation) {
  const Experiment* experiment = findExperiment(preset.experimentId);
  EXPECT_NE(experiment, nullptr) << preset.experimentId;
  if (!experiment) return {};
  std::vector<ParameterError> errors;
  const ParameterSet parameters =
      variationParameters(preset, *experiment, variation.values, errors);
  for (const auto& error : errors)
    ADD_FAILURE() << error.message;
  if (!errors.empty()) return {};
  test::CpuRunContext context;
  VariedRun run;
  run.result = experiment->run(parameters, context);
  run.verdict = checkClaim(preset.claim, run.result.table);
  return run;
}

std::string verdictText(const Preset& preset, const ClaimVerdict& verdict) {
  std::ostringstream out;
  for (std::size_t i = 0; i < verdict.assertions.size(); ++i)
    out << "\n  " << (verdict.assertions[i].holds ? "holds:      " : "DOES NOT:   ")
        << preset.claim.assertions[i].text << " — " << verdict.assertions[i].detail;
  return out.str();
}

class PresetClaimVariation : public ::testing::TestWithParam<ClaimVariation> {};

TEST_P(PresetClaimVariation, ClaimFails) {
  const ClaimVariation& variation = GetParam();
  const Preset* preset = findPreset(variation.presetId);
  ASSERT_NE(preset, nullptr) << variation.presetId;
  const VariedRun run = runVariation(*preset, variation);
  ASSERT_EQ(run.result.status, RunStatus::Completed);
  ASSERT_GT(run.result.table.rowCount(), 0u);
  ASSERT_EQ(run.verdict.assertions.size(), preset->claim.assertions.size());
  EXPECT_FALSE(run.verdict.holds) << preset->id << verdictText(*preset, run.verdict);
  for (const std::string& text : variation.failing) {
    std::size_t i = 0;
    while (i < preset->claim.assertions.size() && preset->claim.assertions[i].text != text)
      ++i;
    ASSERT_LT(i, preset->claim.assertions.size()) << preset->id << " claims no '" << text << "'";
    EXPECT_FALSE(run.verdict.assertions[i].holds)
        << preset->id << ": " << text << " — " << run.verdict.assertions[i].detail;
  }
}

INSTANTIATE_TEST_SUITE_P(All, PresetClaimVariation, ::testing::ValuesIn(claimVariations()),
                         [](const ::testing::TestParamInfo<ClaimVariation>& info) {
                           return test::testNameOf(info.param.presetId);
                         });

TEST(PresetClaimVariation, EveryPresetHasOne) {
  std::set<std::string> varied;
  for (const ClaimVariation& variation : claimVariations()) {
    EXPECT_NE(findPreset(variation.presetId), nullptr) << variation.presetId;
    EXPECT_TRUE(varied.insert(variation.presetId).second) << variation.presetId << " twice";
  }
  for (const Preset& preset : allPresets())
    EXPECT_TRUE(varied.count(preset.id)) << preset.id << " has no variation under which its claim "
                                         << "fails";
}

}  // namespace
}  // namespace rfscope
