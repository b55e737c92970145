#pragma once
// A labelled dataset from numeric arrays: features n × d (row-major, as NumPy stores C-order
// arrays) and n labels. This is the seam for NumPy input: a features .npy file and a labels .npy
// file, once read by the project's .npy reader, go through labelledDatasetFromArrays, which checks
// them and codes the labels; no .npy parsing happens here.

#include <cstdint>
#include <string>
#include <vector>

#include "core/data/labelled_dataset.h"

namespace rfscope {

// `featureValues` holds rows × columns values, row after row; `labelValues` one label per row
// (any numbers: classes are the distinct values in numeric order, named by their shortest decimal
// form, "0", "1", "2.5"). `name` prefixes error messages. Throws DataError for mismatched sizes,
// a non-finite feature or label (naming its row and column, 1-based), no features, fewer than two
// classes or more than kMaxClassCount.
LabelledDataset labelledDatasetFromArrays(std::uint64_t rows, std::uint64_t columns,
                                          const std::vector<double>& featureValues,
                                          const std::vector<double>& labelValues,
                                          const std::string& name);

}  // namespace rfscope
