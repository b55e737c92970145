#pragma once
// Drawing the frequencies of one estimate: the M × n matrix Ω whose rows are ω_1..ω_M, for every
// coupling, from a trial's random stream. This is the one place that turns a coupling into
// numbers for whole vectors (the Monte Carlo full path, the feature maps, the conformity
// estimates); the Monte Carlo fast path samples only the projections it needs, from the same
// block geometry (block_geometry.h).
//
// Stream consumption, which the Monte Carlo full path and the feature maps share (a trial of one
// and a draw of the other from the same stream see the same ω):
//   iid:    M rows of n normals, row by row;
//   blocks: ⌈M/n⌉ blocks of n rows, each drawn whole (drawFullBlock) and the last one cut to the
//           M - n⌊M/n⌋ rows still needed (orf-norm-coupled: the rotation's normals, then ⌈n/2⌉
//           uniforms for the norms, norm_coupling.h);
//   qmc:    the randomisation first (qmc-sobol: d random 64-bit words, one digital shift per
//           coordinate; qmc-halton: d uniforms, one shift mod 1 per coordinate; qmc-sobol-owen:
//           per coordinate in turn, the words of its nested scramble, OwenScramble::draw), then
//           the M points, which are the same for every estimate (drawQuasiMonteCarlo).
// n = frequencyDimension(coupling, d): d, or d padded to a power of two for the structured
// couplings (the extra coordinates multiply the zero padding of the inputs).

#include <algorithm>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "core/couplings/coupling.h"
#include "core/couplings/owen_scrambling.h"
#include "core/random/trial_stream.h"

namespace rfscope {

inline constexpr int kDefaultSimplexPlusIterations = 3;

// Memory one thread reuses across draws.
struct FrequencyScratch {
  Eigen::MatrixXd gaussian, rotation;
  Eigen::MatrixXd omega;  // the block drawFullBlock drew, one frequency per row
  Eigen::VectorXd row;    // the i.i.d. frequency being visited
  // The unrandomised quasi-Monte Carlo points of the last (coupling, d, M), kept for the next draw.
  Coupling qmcCoupling = Coupling::Iid;
  int qmcDimension = 0;
  std::int64_t qmcCount = 0;
  std::vector<std::uint64_t> sobolPoints;  // M × d, row-major, 64-bit fractions
  Eigen::MatrixXd haltonPoints;            // M × d
  OwenScramble owen;                       // qmc-sobol-owen: the coordinate being scrambled
};

// M randomised quasi-Monte Carlo frequencies (rows of scratch.omega, M × d) for qmc-sobol,
// qmc-halton or qmc-sobol-owen: points 0 … M-1 of the sequence (Sobol: the origin, then
// Boost.Random's points; Halton: bases the first d primes), randomised (Sobol: XOR of each
// coordinate's 64 bits with a random word, which keeps the net's structure; Halton: a uniform
// shift mod 1 per coordinate, Cranley–Patterson; Sobol–Owen: nested uniform scrambling of each
// coordinate, owen_scrambling.h, which keeps the net's structure too), so that every ω_j is exactly
// N(0, I) (unbiased estimates) while the M of one estimate stay evenly spread; then ω = Φ⁻¹(u)
// coordinate-wise. Throws InvalidParameter("coupling") for a Sobol dimension above
// kMaxSobolDimension.
void drawQuasiMonteCarlo(Coupling coupling, int d, std::int64_t count, TrialStream& rng,
                         FrequencyScratch& scratch);

// d χ_d variates, each the norm of a fresh Gaussian vector of R^d (d normals each, in order).
Eigen::VectorXd gaussianVectorNorms(TrialStream& rng, int d);

// One block of d frequencies in full (rows of scratch.omega): i.i.d. Gaussian rows, or D R, D S R,
// D S R rearranged by SimRF eq. (17) — R Haar by QR with sign correction (or the structured
// rotation), D χ_d norms of fresh Gaussian vectors (orf-fixed-norm: √d R, no norms drawn;
// orf-norm-coupled: antithetic pairs of χ_d quantiles, norm_coupling.h); quasi-Monte Carlo: the
// first d points.
// Structured couplings need d = frequencyDimension(coupling, d), a power of two (asserted).
void drawFullBlock(Coupling coupling, int d, int simplexPlusIterations, TrialStream& rng,
                   FrequencyScratch& scratch);

// Calls visit(ω) for ω_1..ω_M in order (ω an Eigen column-vector expression of size n), drawing
// them as described above. Visiting instead of filling a matrix keeps the full Monte Carlo path
// free of an M × n copy.
template <class Visit>
void forEachFrequency(Coupling coupling, int d, std::int64_t count, int simplexPlusIterations,
                      TrialStream& rng, FrequencyScratch& scratch, Visit&& visit) {
  const int n = frequencyDimension(coupling, d);
  if (isQuasiMonteCarlo(coupling)) {
    drawQuasiMonteCarlo(coupling, d, count, rng, scratch);
    for (std::int64_t j = 0; j < count; ++j)
      visit(scratch.omega.row(j).transpose());
    return;
  }
  if (coupling == Coupling::Iid) {
    scratch.row.resize(n);
    PairedNormals<TrialStream> normals(rng);
    for (std::int64_t j = 0; j < count; ++j) {
      for (int i = 0; i < n; ++i)
        scratch.row[i] = normals.next();
      visit(scratch.row);
    }
    return;
  }
  for (std::int64_t start = 0; start < count; start += n) {
    drawFullBlock(coupling, n, simplexPlusIterations, rng, scratch);
    const std::int64_t rows = std::min<std::int64_t>(n, count - start);
    for (std::int64_t i = 0; i < rows; ++i)
      visit(scratch.omega.row(i).transpose());
  }
}

// Ω (M × n, one frequency per row) into `omega`.
void frequencies(Coupling coupling, int d, std::int64_t count, TrialStream& rng,
                 FrequencyScratch& scratch, Eigen::MatrixXd& omega,
                 int simplexPlusIterations = kDefaultSimplexPlusIterations);
Eigen::MatrixXd frequencies(Coupling coupling, int d, std::int64_t count, TrialStream& rng,
                            int simplexPlusIterations = kDefaultSimplexPlusIterations);

}  // namespace rfscope
