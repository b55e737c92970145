#include "core/math/pair_geometry.h"

#include <cassert>

namespace rfscope {

PairGeometry PairGeometry::fromVectors(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  assert(x.size() == y.size());
  // Accumulated in long double: |x - y|² and |x + y|² of ~1e5 feed logs that must hold 1e-10
  // absolute, and d up to 1024 terms would otherwise cost ~√d ulps.
  long double xx = 0, yy = 0, xy = 0, diff = 0, sum = 0;
  for (Eigen::Index l = 0; l < x.size(); ++l) {
    const long double a = x[l], b = y[l];
    xx += a * a;
    yy += b * b;
    xy += a * b;
    const long double m = x[l] - y[l], p = x[l] + y[l];  // differences exact in long double
    diff += m * m;
    sum += p * p;
  }
  PairGeometry g;
  g.dimension = static_cast<int>(x.size());
  g.xNormSquared = static_cast<double>(xx);
  g.yNormSquared = static_cast<double>(yy);
  g.dot = static_cast<double>(xy);
  g.diffNormSquared = static_cast<double>(diff);
  g.sumNormSquared = static_cast<double>(sum);
  return g;
}

PairGeometry PairGeometry::scaled(double sigma) const {
  const double factor = sigma * sigma;
  PairGeometry g = *this;
  g.xNormSquared *= factor;
  g.yNormSquared *= factor;
  g.dot *= factor;
  g.diffNormSquared *= factor;
  g.sumNormSquared *= factor;
  return g;
}

}  // namespace rfscope
