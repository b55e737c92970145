#pragma once
// Shared by the DERF and SADERF reference tests: reading the generators' JSON (numbers written as
// 40-digit strings, arrays possibly as the text of JSON) and the sample moments of one feature
// product f⁽¹⁾(ω, x) f⁽²⁾(ω, y) over drawn frequencies.

#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/mechanisms/dense_exponential.h"
#include "core/random/trial_stream.h"
#include "tests/analytic/reference_data.h"

namespace rfscope::test {

// A value stored as JSON or as the text of JSON (arrays) or of a number.
inline nlohmann::json referenceJsonValue(const nlohmann::json& v) {
  if (v.is_string() && !v.get<std::string>().empty() && v.get<std::string>()[0] == '[')
    return nlohmann::json::parse(v.get<std::string>());
  return v;
}
inline double referenceNumber(const nlohmann::json& v) {
  return v.is_string() ? referenceValue(v) : v.get<double>();
}
inline Eigen::VectorXd referenceVector(const nlohmann::json& v) {
  const nlohmann::json j = referenceJsonValue(v);
  Eigen::VectorXd out(static_cast<Eigen::Index>(j.size()));
  for (std::size_t i = 0; i < j.size(); ++i)
    out[static_cast<Eigen::Index>(i)] = referenceNumber(j[i]);
  return out;
}
inline Eigen::MatrixXd referenceMatrix(const nlohmann::json& v) {
  const nlohmann::json j = referenceJsonValue(v);
  Eigen::MatrixXd out(j.size(), j[0].size());
  for (std::size_t i = 0; i < j.size(); ++i)
    for (std::size_t k = 0; k < j[i].size(); ++k)
      out(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) = referenceNumber(j[i][k]);
  return out;
}
// The rows of a matrix as points.
inline std::vector<Eigen::VectorXd> referenceRows(const nlohmann::json& v) {
  const Eigen::MatrixXd m = referenceMatrix(v);
  std::vector<Eigen::VectorXd> out;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    out.push_back(m.row(i).transpose());
  return out;
}

// draws × d standard normal frequencies from the stream.
inline Eigen::MatrixXd normalFrequencies(TrialStream& rng, int draws, int d) {
  Eigen::MatrixXd omega(draws, d);
  for (int k = 0; k < draws; ++k)
    for (int l = 0; l < d; ++l)
      omega(k, l) = rng.normal();
  return omega;
}

// Sample mean and variance of Z = f⁽¹⁾(ω, x) f⁽²⁾(ω, y) over the rows ω of omega, and the
// standard error of that variance (from the sample fourth moment).
struct DerfSampleMoments {
  double mean = 0, variance = 0, varianceError = 0;
};
inline DerfSampleMoments derfSampleMoments(const DerfParameters& p, const Eigen::MatrixXd& omega,
                                           const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  const Eigen::ArrayXd z = (derfLogFeatures(p, omega, x.transpose(), true).row(0) +
                            derfLogFeatures(p, omega, y.transpose(), false).row(0))
                               .array()
                               .exp()
                               .transpose();
  const auto draws = static_cast<double>(omega.rows());
  DerfSampleMoments out;
  out.mean = z.mean();
  const Eigen::ArrayXd centred = z - out.mean;
  out.variance = centred.square().sum() / (draws - 1);
  out.varianceError = std::sqrt((centred.pow(4).mean() - out.variance * out.variance) / draws);
  return out;
}

}  // namespace rfscope::test
