#pragma once
// Input regimes: how pairs (x, y) are drawn. Every regime of the papers is a base distribution
// scaled by σ (N(0, σ²I) = σ·N(0, I), σS^{d-1}, σ·MNIST image, ...), so a regime draws the base
// pair and experiments scale it. Drawing pairs once per seed and reusing them for every σ (common
// random numbers) makes curves smooth in σ and keeps the pairs fixed when only the σ grid changes.
//
// Regimes that read files (mnist, csv) load and check them once, in prepare(), before a run: the
// PairSampler it returns holds the data, and bad data is a DataError there, never a crash later.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "core/params/parameter_set.h"

namespace rfscope {

struct RegimeInfo {
  std::string id;           // "normal"
  std::string name;         // "normal"
  std::string description;  // one line, with σ
};

// A regime ready to draw: data loaded and checked, dimension fixed. Immutable and thread-safe.
class PairSampler {
 public:
  virtual ~PairSampler() = default;
  virtual int dimension() const = 0;
  // Pair number pairIndex of the base (σ = 1) distribution under seed; depends only on
  // (seed, pairIndex) and the prepared data, never on threads or on which pairs were drawn before.
  virtual void sampleBasePair(std::uint64_t seed, std::uint64_t pairIndex, Eigen::VectorXd& x,
                              Eigen::VectorXd& y) const = 0;
};

class Regime {
 public:
  virtual ~Regime() = default;
  virtual const RegimeInfo& info() const = 0;
  // Parameters this regime reads (file paths), declared by experiments that offer regimes. Keys are
  // prefixed with the regime id ("mnist-images"), so all regimes' parameters can coexist in a set.
  virtual std::vector<ParameterSpec> parameters() const { return {}; }
  // Why the regime cannot produce vectors of this dimension ("" when it can), checkable without
  // reading any file (mnist needs d = k²).
  virtual std::string dimensionError(int dimension) const;
  // Loads and checks the data the parameters name. `params` may lack this regime's keys (their
  // defaults apply). Throws DataError naming the file and the problem, with the parameter's key.
  virtual std::shared_ptr<const PairSampler> prepare(int dimension,
                                                     const ParameterSet& params) const = 0;

  // Convenience for one pair with default parameters (prepares each call: use prepare() in loops).
  void sampleBasePair(int dimension, std::uint64_t seed, std::uint64_t pairIndex,
                      Eigen::VectorXd& x, Eigen::VectorXd& y) const;
};

// `count` single points of a regime (for experiments on point sets, e.g. Gram matrices), one per
// column: point 2p is x and point 2p + 1 is y of pair p (so heterogen alternates its two laws).
Eigen::MatrixXd samplePoints(const PairSampler& sampler, std::uint64_t seed, std::size_t count);

const std::vector<const Regime*>& allRegimes();  // normal, sphere, heterogen, mnist, csv
const Regime* findRegime(std::string_view id);

// The text of a parameter, or "" when the set lacks it (regime parameters are optional in sets of
// experiments that declare no file parameters).
std::string textParameter(const ParameterSet& params, const std::string& key);

// Pair streams are offset from the streams Monte Carlo uses (below 2^48), so data and features
// never share random numbers under the same seed: pair p uses stream kPairStreamBase + p.
inline constexpr std::uint64_t kPairStreamBase = std::uint64_t{1} << 48;

}  // namespace rfscope
