#pragma once
// The fast path's trials computed a SIMD vector at a time: lane k runs trial first + k on its own
// Philox stream, with the scalar trial's arithmetic (fast_trial.h) operation for operation, so each
// lane's value equals runFastTrial's to the last bit, on every instruction set. Google Highway
// compiles the kernels for SSE4, AVX2 and AVX-512 and picks the best one the CPU has at run time
// (a portable fallback runs anywhere else).
// Covered: i.i.d. and ORF/SimRF block trials of the exponential mechanisms whose features need no
// cosine (pos, pos-hyp, real GERF and OPRF). Other plans keep the scalar trial.

#include <cstdint>
#include <string>
#include <vector>

#include "core/math/signed_log.h"
#include "core/montecarlo/fast_trial_plan.h"

namespace rfscope {

// Whether runFastTrialsSimd computes this plan's trials.
bool simdComputesTrials(const FastTrialPlan& plan);

// values[i] = the value of trial first + i (i < count), equal to runFastTrial's. scratch: reused
// across calls (grown as needed).
void runFastTrialsSimd(const FastTrialPlan& plan, std::uint64_t first, int count, SignedLog* values,
                       std::vector<double>& scratch);

// The instruction set the SIMD kernels run with on this CPU, after RFSCOPE_SIMD's cap
// (simd_target.h): Highway's bit for it, and its name ("AVX3" is AVX-512).
std::int64_t simdTargetBits();
std::string simdTargetName();

// The CPU's throughput ceiling for a plan, the counterpart of the GPU's bound kernel: per trial,
// only the trial's random numbers (its normals, and the first uniform of each χ² variate) and
// one e^x per feature, vectorised like the trials and summed. Returns the sum (a checksum).
// `normals`: the trials' own (Box–Muller), or none (a word's uniform stands in for each normal:
// Philox and e^x alone, what the normal transform costs).
enum class CeilingNormals { BoxMuller, None };
double simdCeilingKernel(const FastTrialPlan& plan, std::uint64_t first, std::int64_t trials,
                         CeilingNormals normals = CeilingNormals::BoxMuller);

}  // namespace rfscope
