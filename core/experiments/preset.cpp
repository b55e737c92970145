#include "core/experiments/preset.h"

#include "core/experiments/preset_claims.h"
#include "core/params/invalid_parameter.h"

namespace rfscope {

namespace {

std::vector<Preset> presetsWithoutClaims() {
  return {
      {"crt-fig2-normal",
       "CRT Fig. 2 — normal regime",
       "variance-vs-sigma",
       "Log-variance of TrigRF, PosRF and OPRF for x, y ~ N(0, σ²I), d = 64, 0.1 ≤ σ ≤ 1",
       {{"d", "64"},
        {"regime", "normal"},
        {"sigma-min", "0.1"},
        {"sigma-max", "1"},
        {"sigma-steps", "50"},
        {"pairs", "100"},
        {"mechanisms", "trig,pos,oprf"}},
       false},
      {"derf-vs-oprf",
       "FAVOR# — dense-exponential features beside OPRF and GERF",
       "variance-vs-sigma",
       "Normal regime, d = 64, relative to OPRF (per pair): SDERF and ADERF, with matrices from "
       "the pairs' second moments, below OPRF (about e^-2.6 and e^-3.3 at σ = 1); GERF on OPRF",
       {{"d", "64"},
        {"regime", "normal"},
        {"sigma-min", "0.1"},
        {"sigma-max", "1"},
        {"sigma-steps", "10"},
        {"pairs", "100"},
        {"mechanisms", "gerf,oprf,sderf,aderf"},
        {"reference", "oprf"}},
       false},
      {"crt-fig1-right",
       "CRT Fig. 1 (right) — OPRF vs PosRF variance ratio",
       "variance-ratio-vs-norm",
       "μ = log(Var OPRF / Var PosRF) vs ‖x+y‖²: below -60 at d = 64, ‖x+y‖² = 100",
       {{"dimensions", "16,32,64,128,256"},
        {"u-min", "0.01"},
        {"u-max", "200"},
        {"u-steps", "200"}},
       false},
      {"simrf-fig6",
       "SimRF Fig. 6 — MSE ratio of ORF and SimRF to IID",
       "mse-ratio-vs-v",
       "Coupled positive features at d = 64, M = d: SimRF < ORF < IID, most at small v (SimRF's "
       "small-v prefactor 0.0078)",
       {{"d", "64"},
        {"v-min", "0.05"},
        {"v-max", "3"},
        {"couplings", "orf,simrf"},
        {"mc-points", "8"}},
       false},
      {"simrf-fig4",
       "SimRF Fig. 4 — RF-conformity of one draw of norms",
       "conformity",
       "d = 6, v = 1: IID > ORF > SimRF, and SimRF+ and the numerical optimum only marginally "
       "below SimRF",
       {{"d", "6"}, {"v-min", "1"}, {"v-steps", "1"}, {"iid-arrangements", "100"}},
       false},
      {"simrf-fig5",
       "SimRF Fig. 5 — density of w_ij",
       "wij-density",
       "p(‖ω_i + ω_j‖) for IID, ORF and SimRF blocks: coupling trims the tail at large w_ij",
       {{"d", "6"}, {"couplings", "iid,orf,simrf"}, {"blocks", "20000"}},
       false},
      {"simrf-fig7",
       "SimRF Fig. 7 — Gram-matrix error vs features",
       "gram-frobenius",
       "N = 64 normal points, d = 64, σ = 0.1: the error falls with M, SimRF below ORF below IID",
       {{"d", "64"},
        {"regime", "normal"},
        {"sigma", "0.1"},
        {"points", "64"},
        {"couplings", "iid,orf,simrf"}},
       false,
       true,
       true},  // log-log: the 1/M fall is a straight line, the couplings' gaps constant ratios
      {"hrf-fig2-r1",
       "HRF Fig. 2 — pointwise softmax estimates, r = 1",
       "pointwise-softmax",
       "d = 64, ‖x‖ = ‖y‖ = 1: TrigRF fails near θ = π, FAVOR+ near θ = 0, the angular hybrid at "
       "neither",
       {{"d", "64"}, {"r", "1"}, {"features", "128"}, {"trials", "10000"}},
       false},
      {"hrf-fig2-r1.5",
       "HRF Fig. 2 — pointwise softmax estimates, r = 1.5",
       "pointwise-softmax",
       "d = 64, ‖x‖ = ‖y‖ = 1.5: the same picture with larger errors",
       {{"d", "64"}, {"r", "1.5"}, {"features", "128"}, {"trials", "10000"}},
       false},
      {"hrf-thm3.5",
       "HRF Lemma 3.4 / Thm 3.5 — max relative error on S(r)",
       "hybrid-relative-error",
       "TrigRF and FAVOR+ share the worst case W(r)/√(2m); the angular hybrid stays below its "
       "bound for r ≥ 1",
       {{"r-min", "0.25"}, {"r-max", "2.5"}, {"features", "128"}, {"n", "8"}},
       false},
      {"teach-positive-features-blow-up",
       "Teaching — why FAVOR+ needed FAVOR++",
       "variance-vs-sigma",
       "As inputs grow (σ on a log axis), PosRF's relative variance log(Var/K²) explodes and "
       "spreads across pairs, while OPRF's optimal A keeps it far lower (17 against 86 at "
       "σ = 1.66)",
       {{"d", "16"},
        {"sigma-min", "0.01"},
        {"sigma-max", "2"},
        {"sigma-steps", "200"},
        {"sigma-spacing", "log"},
        {"pairs", "200"},
        {"mechanisms", "pos,oprf"},
        {"quantity", "log-relative-variance"}},
       true},
      {"teach-convergence",
       "Teaching — Monte Carlo converges at 1/√n",
       "convergence",
       "PosRF at σ = 0.1, d = 64: the running variance estimate settles on the closed form; its "
       "band shrinks more slowly than the 1/√n envelope from its first band",
       {{"d", "64"},
        {"sigma", "0.1"},
        {"mechanism", "pos"},
        {"quantity", "variance"},
        {"trials", "200000"}},
       true},
      {"teach-heavy-tails",
       "Teaching — heavy tails never converge",
       "convergence",
       "PosRF at σ = 0.35, d = 64, on a log axis: the variance estimate stays orders of magnitude "
       "below the closed form (1) and jumps whenever a rare huge estimate arrives",
       {{"d", "64"},
        {"sigma", "0.35"},
        {"mechanism", "pos"},
        {"quantity", "variance"},
        {"trials", "1000000"}},
       true,
       std::nullopt,
       true},
      {"teach-heavy-tail-histogram",
       "Teaching — what a heavy tail looks like",
       "convergence-histogram",
       "PosRF at σ = 0.35, d = 64: ln K̂ spreads over more than 30 e-folds (log bins)",
       {{"d", "64"}, {"sigma", "0.35"}, {"mechanism", "pos"}, {"trials", "200000"}},
       true},
      {"teach-monte-carlo-vs-closed-form",
       "Teaching — Monte Carlo beside the closed forms",
       "variance-vs-sigma",
       "d = 64: sampled variances sit on the closed forms for small σ and fall far short once "
       "PosRF's and OPRF's tails grow heavy",
       {{"d", "64"},
        {"sigma-min", "0.05"},
        {"sigma-max", "0.6"},
        {"sigma-steps", "12"},
        {"pairs", "20"},
        {"mechanisms", "trig,pos,oprf"},
        {"method", "both"},
        {"trials", "4000"}},
       true},
      {"crt-table1",
       "CRT Table 1 — non-parametric classification, M = 128",
       "classification-table",
       "Eight UCI datasets × the eight CRT mechanisms, M = 128, 90% training, σ searched per "
       "dataset: GERF and OPRF ahead of PosRF on average; TrigRF close to the exact kernel but "
       "collapsing on car, whose searched σ is large",
       {{"datasets", "abalone,banknote,car,yeast,cmc,nursery,wifi,chess"},
        {"train-fraction", "0.9"},
        {"sigma", "auto"},
        {"features", "128"},
        {"features-unit", "absolute"},
        {"mechanisms", "trig,pos,gerf,pois,geom,oprf,pois-plus,geom-plus"},
        {"couplings", "iid"},
        {"repeats", "10"}},
       false},
      {"crt-table1-sigma",
       "CRT Table 1 — where TrigRF collapses (accuracy vs σ, wifi)",
       "classification-vs-sigma",
       "wifi, M = 128, σ from 0.05 to 5: TrigRF follows the exact kernel up to σ ≈ 0.5 and falls "
       "to chance beyond, PosRF earlier, OPRF holds",
       {{"dataset", "wifi"}},
       false},
      {"simrf-fig8",
       "SimRF Fig. 8 — classification accuracy vs m/d (wifi)",
       "classification",
       "wifi, 95% training, σ searched, m/d ∈ {1, 2, 4, 10}: SimRF above ORF above IID, all "
       "rising towards the exact kernel",
       {{"dataset", "wifi"},
        {"train-fraction", "0.95"},
        {"sigma", "auto"},
        {"features", "1,2,4,10"},
        {"features-unit", "per-dimension"},
        {"mechanisms", "pos"},
        {"couplings", "iid,orf,simrf"},
        {"repeats", "20"}},
       false},
      {"simrf-table2",
       "SimRF Table 2 — SimRF vs SimRF+ at m = d",
       "classification-table",
       "Eight UCI datasets, PosRF with m = d, 95% training, σ searched: SimRF+ at most marginally "
       "better than SimRF, both well above ORF and IID",
       {{"datasets", "abalone,banknote,car,yeast,cmc,nursery,wifi,chess"},
        {"train-fraction", "0.95"},
        {"sigma", "auto"},
        {"features", "1"},
        {"features-unit", "per-dimension"},
        {"mechanisms", "pos"},
        {"couplings", "iid,orf,simrf,simrf-plus"},
        {"repeats", "20"}},
       false},
      {"rff-regression-abalone",
       "RFF regression — test RMSE vs features (abalone)",
       "rff-regression",
       "GP regression of abalone rings with D random Fourier features: RMSE falls to the exact "
       "GP's as D grows; sin/cos pairs and random phases within noise of each other at equal "
       "budget",
       {{"task", "abalone"},
        {"sigma", "0.5"},
        {"noise", "0.7"},
        {"features", "4,8,16,32,64,128,256,512"},
        {"repeats", "10"}},
       false},
      {"teach-rff-posterior-band",
       "Teaching — the GP posterior band from random features",
       "rff-regression",
       "20 points of sin(1.5x): with D = 6 features the band is too narrow and wiggly away from "
       "the data; raise band-features to watch it approach the exact GP's",
       {{"task", "toy"}, {"band-features", "6"}, {"sigma", "1"}, {"noise", "0.1"}},
       true},
      {"teach-trig-small-inputs",
       "Teaching — TrigRF shines for close points",
       "variance-vs-sigma",
       "For small σ (log axis) the points are close, K ≈ 1 and TrigRF's variance ½(1-K²)² "
       "vanishes, far below PosRF's and OPRF's",
       {{"d", "64"},
        {"sigma-min", "0.001"},
        {"sigma-max", "1"},
        {"sigma-steps", "100"},
        {"sigma-spacing", "log"},
        {"mechanisms", "trig,pos,oprf"}},
       true},
      {"favor-plus-vs-plus-plus",
       "Performer attention — FAVOR+ vs FAVOR++ vs SimRF",
       "attention-error",
       "L = 1024, d = 64, input scale 0.5: OPRF (FAVOR++) below PosRF at every M, SimRF and ORF "
       "below IID from M = 64; the delta method's prediction beside the i.i.d. curves",
       {{"d", "64"},
        {"sequence-length", "1024"},
        {"value-dimension", "8"},
        {"input-scale", "0.5"},
        {"mechanisms", "pos,oprf"},
        {"couplings", "iid,orf,simrf"},
        {"features-min", "16"},
        {"features-max", "256"},
        {"features-steps", "3"},
        {"redraws", "8"},
        {"error-rows", "16"},
        {"prediction-rows", "8"}},
       false,
       true,
       true},
      {"favor-features-needed",
       "Performer attention — features needed, FAVOR+ vs FAVOR++ vs SimRF",
       "attention-features-needed",
       "d = 64, input scale 0.5 (as favor-plus-vs-plus-plus, L = 256): the M each mechanism × "
       "coupling needs for 25% output error, predicted (i.i.d.) and measured; OPRF needs fewer "
       "than PosRF under every coupling, ORF fewer than IID, SimRF fewer only for OPRF",
       {{"d", "64"},
        {"sequence-length", "256"},
        {"value-dimension", "8"},
        {"input-scale", "0.5"},
        {"mechanisms", "pos,oprf"},
        {"couplings", "iid,orf,simrf"},
        {"features-min", "128"},
        {"features-max", "2048"},
        {"features-steps", "5"},
        {"redraws", "6"},
        {"error-rows", "16"},
        {"prediction-rows", "16"},
        {"target-error", "0.25"}},
       false,
       std::nullopt,
       false},  // bars from zero: on a log axis their lengths would mean nothing
      {"attention-large-norms",
       "Performer attention — why the error stays high at large norms",
       "attention-error",
       "The usual regime (entries ~ N(0, 1), d = 64, |x| ≈ 2.8): both mechanisms' relative error "
       "stays above 1 (worse than predicting zero) up to M = 1024, OPRF no better than PosRF; "
       "the normaliser's spread rules the delta method out",
       {{"d", "64"},
        {"sequence-length", "256"},
        {"input-scale", "1"},
        {"mechanisms", "pos,oprf"},
        {"couplings", "iid"},
        {"features-min", "16"},
        {"features-max", "1024"},
        {"features-steps", "4"},
        {"redraws", "10"},
        {"error-rows", "32"},
        {"prediction-rows", "16"}},
       false,
       true,
       true},
      {"teach-attention-prediction",
       "Teaching — predicted and measured attention error",
       "attention-error",
       "Small inputs (scale 0.3): the delta method sits on the measured PosRF and OPRF curves, "
       "both falling like 1/√M; TrigRF's normaliser can be ≤ 0, compare its median",
       {{"sequence-length", "128"},
        {"input-scale", "0.3"},
        {"mechanisms", "trig,pos,oprf"},
        {"couplings", "iid"},
        {"features-min", "8"},
        {"features-max", "512"},
        {"features-steps", "4"},
        {"prediction-rows", "64"}},
       true,
       true,
       true},
      {"attention-precision-fp16-breaks",
       "Performer attention in float16 — where it breaks, which stabiliser fixes it",
       "attention-precision",
       "PosRF (FAVOR+), ORF, L = 256, d = 16, M = 64 in emulated float16 against float64: "
       "without a stabiliser D̂ overflows from input scale 1.4 and most rows are NaN at 4; "
       "Performer's max of ωᵀx makes it worse (the keys' features underflow, D̂ = 0); the whole "
       "exponent's max keeps every row finite up to scale 2 at float64's error",
       {{"mechanisms", "pos"},
        {"couplings", "orf"},
        {"precisions", "fp16,fp64"},
        {"stabilisers", "none,performer-max,exponent-max"},
        {"redraws", "4"},
        {"plot", "broken-rows"}},
       false,
       true,
       false},  // fractions of rows from 0 to 1: zeros shown
      {"attention-precision-eps-bias",
       "Performer attention — the bias of performer-pytorch's ε",
       "attention-precision",
       "performer-pytorch adds ε = 1e-4 to every feature after the max subtraction: at input "
       "scale 1 (L = 256, d = 16, M = 64) it shrinks the estimate towards uniform attention, "
       "trading the spread over redraws for bias; the error is smallest near ε = 1e-3",
       {{"mechanisms", "pos"},
        {"couplings", "orf"},
        {"precisions", "fp64"},
        {"stabilisers", "performer-max,performer"},
        {"sweep", "eps"},
        {"sweep-min", "1e-7"},
        {"sweep-max", "0.1"},
        {"sweep-steps", "13"},
        {"redraws", "16"}},
       false,
       true,
       true},
      {"attention-precision-oprf-fp16",
       "Performer attention in float16 — FAVOR++ (OPRF) against FAVOR+",
       "attention-precision",
       "Does OPRF's bounded feature survive float16 better? Here not: without a stabiliser every "
       "OPRF row is NaN from input scale 2 (PosRF: 0.3%), and with the exponent's max OPRF "
       "still loses rows from scale 2, PosRF only from 2.8",
       {{"mechanisms", "pos,oprf"},
        {"couplings", "orf"},
        {"precisions", "fp16,fp64"},
        {"stabilisers", "none,exponent-max"},
        {"redraws", "4"},
        {"plot", "broken-rows"}},
       false,
       true,
       false},  // fractions of rows from 0 to 1: zeros shown
      {"teach-trig-phase",
       "Teaching — sin/cos pairs against random phases",
       "variance-vs-sigma",
       "One frequency each: TrigRF's pair ½(1-K²)² against the random phase's 1 + ½K⁴ - K² "
       "(≥ ½): the gap exceeds ln 2 at every σ, so at an equal budget of numbers (the pair's "
       "variance doubled, +ln 2 on this axis) pairs are still never worse",
       {{"d", "16"},
        {"sigma-min", "0.01"},
        {"sigma-max", "1"},
        {"sigma-steps", "60"},
        {"sigma-spacing", "log"},
        {"pairs", "20"},
        {"mechanisms", "trig,trig-phase"}},
       true},
      {"teach-qmc-low-dimension",
       "Teaching — quasi-Monte Carlo frequencies in d = 2",
       "gram-frobenius",
       "Randomised Sobol and Halton frequencies in d = 2: from M = 8 to 256 the Gram-matrix error "
       "falls about 180-fold against i.i.d. frequencies' 37-fold (1/M): a steeper line on log "
       "axes",
       {{"d", "2"},
        {"sigma", "0.2"},
        {"points", "32"},
        {"couplings", "iid,qmc-sobol,qmc-halton"},
        {"features-min", "8"},
        {"features-max", "256"},
        {"features-steps", "6"},
        {"repetitions", "40"}},
       true,
       true,
       true},
      {"teach-qmc-high-dimension",
       "Teaching — quasi-Monte Carlo frequencies in d = 64",
       "gram-frobenius",
       "The same in d = 64, σ = 0.1: Sobol still helps (about 3 times below i.i.d. at M = 256) "
       "but falls at nearly the 1/M rate, and Halton, whose large prime bases bunch 256 points in "
       "part of a coordinate's range, is several times worse than i.i.d. frequencies",
       {{"d", "64"},
        {"sigma", "0.1"},
        {"points", "32"},
        {"couplings", "iid,qmc-sobol,qmc-halton"},
        {"features-min", "8"},
        {"features-max", "256"},
        {"features-steps", "6"},
        {"repetitions", "30"}},
       true,
       true,
       true},
      {"saderf-heterogen",
       "FAVOR# — SADERF's diagonal rescaling beside OPRF, SDERF and ADERF",
       "variance-vs-sigma",
       "Heterogeneous regime (keys shifted by σ per coordinate), d = 64, relative to OPRF (per "
       "pair): SADERF's per-coordinate Ψ, from O(Ld) statistics, lies below OPRF (about e^-1.7 "
       "at σ = 1), far above the dense SDERF and ADERF (about e^-11)",
       {{"d", "64"},
        {"regime", "heterogen"},
        {"sigma-min", "0.1"},
        {"sigma-max", "1"},
        {"sigma-steps", "10"},
        {"pairs", "100"},
        {"mechanisms", "oprf,saderf,sderf,aderf"},
        {"reference", "oprf"}},
       false},
      {"teach-qmc-owen-scrambling",
       "Teaching — Owen-scrambled Sobol frequencies in d = 2",
       "gram-frobenius",
       "Sobol frequencies in d = 2 under a digital shift and under Owen's nested scrambling, "
       "beside i.i.d. ones: from M = 8 to 256 the Gram-matrix error falls about 180-fold and "
       "780-fold against 32-fold (1/M), the scrambled points 5 times below the shifted ones",
       {{"d", "2"},
        {"sigma", "0.2"},
        {"points", "32"},
        {"couplings", "iid,qmc-sobol,qmc-sobol-owen"},
        {"features-min", "8"},
        {"features-max", "256"},
        {"features-steps", "6"},
        {"repetitions", "40"}},
       true,
       true,
       true},
      {"orf-fixed-norm-bias",
       "Demni & Kadri 2024 — fixed-norm orthogonal features are biased",
       "bias-variance-vs-features",
       "TrigRF at d = 4, ‖x - y‖ = 1: with every norm √d the variance is about 40 times below "
       "ORF's at every M, but the mean is a Bessel kernel, so the MSE levels off at bias² "
       "(8.9·10⁻⁴) while ORF's and even IID's fall as 1/M and pass below it (M ≥ 128, 256)",
       {{"d", "4"},
        {"distance", "1"},
        {"mechanisms", "trig"},
        {"couplings", "iid,orf,orf-fixed-norm"},
        {"features-min", "4"},
        {"features-max", "1024"},
        {"features-steps", "9"},
        {"trials", "4000"}},
       false,
       true,
       true},
  };
}

}  // namespace

const std::vector<Preset>& allPresets() {
  static const std::vector<Preset> presets = [] {
    std::vector<Preset> all = presetsWithoutClaims();
    for (Preset& preset : all)
      preset.claim = presetClaim(preset.id);
    return all;
  }();
  return presets;
}

const Preset* findPreset(std::string_view id) {
  for (const auto& preset : allPresets())
    if (preset.id == id) return &preset;
  return nullptr;
}

ParameterSet presetParameters(const Preset& preset, const Experiment& experiment,
                              std::vector<ParameterError>& errors) {
  const auto specs = experiment.parameters();
  ParameterSet set = ParameterSet::defaults(specs);
  for (const auto& [key, text] : preset.values) {
    const ParameterSpec* spec = findSpec(specs, key);
    if (!spec) {
      errors.push_back({key, "preset '" + preset.id + "': unknown parameter '" + key + "'"});
      continue;
    }
    try {
      set.set(key, parseParameterValue(*spec, text));
    } catch (const InvalidParameter& e) {
      errors.push_back({key, "preset '" + preset.id + "': " + e.what()});
    }
  }
  for (auto& e : experiment.validate(set))
    errors.push_back(std::move(e));
  return set;
}

}  // namespace rfscope
