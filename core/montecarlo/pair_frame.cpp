#include "core/montecarlo/pair_frame.h"

#include <cassert>
#include <cmath>

namespace rfscope {
namespace {

// Coordinates of (longer, other) in a frame whose first axis is `longer`'s direction.
void frameCoordinates(const Eigen::VectorXd& longer, const Eigen::VectorXd& other, double& long1,
                      double& other1, double& other2, Eigen::VectorXd* axis1,
                      Eigen::VectorXd* axis2) {
  long1 = longer.norm();
  if (axis1) axis1->setZero(longer.size());
  if (axis2) axis2->setZero(longer.size());
  if (long1 == 0) {
    other1 = other.norm();  // longer = 0, so other = 0 too
    other2 = 0;
    return;
  }
  const Eigen::VectorXd axis = longer / long1;
  if (axis1) *axis1 = axis;
  other1 = axis.dot(other);
  Eigen::VectorXd residual = other - other1 * axis;
  const double correction = axis.dot(residual);  // second Gram–Schmidt pass
  residual -= correction * axis;
  other1 += correction;
  other2 = residual.norm();
  if (axis2 && other2 > 0) *axis2 = residual / other2;
}

}  // namespace

PairFrame PairFrame::fromVectors(const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                                 Eigen::VectorXd* axis1, Eigen::VectorXd* axis2, FrameAxis first) {
  assert(x.size() == y.size());
  PairFrame frame;
  frame.dimension = static_cast<int>(x.size());
  frame.xNormSquared = x.squaredNorm();
  frame.yNormSquared = y.squaredNorm();
  const Eigen::VectorXd sum = x + y;
  const Eigen::VectorXd difference = x - y;
  const bool alongSum =
      first == FrameAxis::Sum ||
      (first == FrameAxis::Longer && sum.squaredNorm() >= difference.squaredNorm()) ||
      (first == FrameAxis::Difference && difference.squaredNorm() == 0);
  if (alongSum) {
    frameCoordinates(sum, difference, frame.sum1, frame.diff1, frame.diff2, axis1, axis2);
  } else {
    frameCoordinates(difference, sum, frame.diff1, frame.sum1, frame.sum2, axis1, axis2);
  }
  return frame;
}

}  // namespace rfscope
