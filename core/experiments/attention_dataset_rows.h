#pragma once
// Rows of real data as the queries, keys and values of an attention problem: L query rows and L
// key rows drawn without replacement (distinct from each other where the data have 2L rows) by a
// seeded permutation, standardised with the statistics of the drawn rows (each entry of unit
// variance, as the synthetic inputs' N(0, 1) before their input scale). The values are the key
// rows themselves (standardised), so d_v = d.
//   uci:   the rows of a shipped UCI dataset (uci_datasets.h), d = its number of features;
//   mnist: p × p patches (d = p², p ≤ 28) at uniform positions of uniformly drawn images of the
//          shipped MNIST digits, pixels in [0, 1] before standardisation.
// Every failure (unknown or missing data, too few rows, d not a square for MNIST) is a DataError
// naming `parameter`.

#include <cstdint>
#include <string>

#include <Eigen/Core>

namespace rfscope {

struct AttentionRows {
  Eigen::MatrixXd queries, keys, values;  // raw-scale rows: standardised, not yet scaled
};

AttentionRows uciAttentionRows(const std::string& datasetId, Eigen::Index length,
                               std::uint64_t seed, const char* parameter);

AttentionRows mnistPatchRows(int dimension, Eigen::Index length, std::uint64_t seed,
                             const char* parameter);

}  // namespace rfscope
