#include "core/analytic/pair_geometry.h"

#include <cassert>

namespace rfscope {

PairGeometry PairGeometry::fromVectors(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  assert(x.size() == y.size());
  PairGeometry g;
  g.dimension = static_cast<int>(x.size());
  g.xNormSquared = x.squaredNorm();
  g.yNormSquared = y.squaredNorm();
  g.dot = x.dot(y);
  g.diffNormSquared = (x - y).squaredNorm();
  g.sumNormSquared = (x + y).squaredNorm();
  return g;
}

}  // namespace rfscope
