#pragma once
// The data parameters of the classification experiments: a shipped UCI dataset (uci_datasets.h)
// or the user's own labelled file (a CSV with a chosen label column, or a NumPy .npy array whose
// last column is the label unless a labels .npy is given), and the data scale σ ("auto" or a
// number).

#include <optional>
#include <string>
#include <vector>

#include "core/data/labelled_dataset.h"
#include "core/params/parameter_set.h"
#include "core/params/parameter_spec.h"

namespace rfscope {

inline constexpr const char* kUserDatasetId = "file";

// dataset, file, label-column, labels-file (group "Data").
std::vector<ParameterSpec> classificationDatasetParameters(const std::string& defaultDataset);
// The UCI ids in the papers' order.
std::vector<ParameterChoice> uciDatasetChoices();

// The data parameters' values.
struct DatasetChoice {
  std::string dataset;      // a UCI id, or kUserDatasetId
  std::string file;         // the user's file (CSV or .npy)
  std::string labelColumn;  // of a CSV: "last", "first", a name or a number
  std::string labelsFile;   // of a .npy: the labels, or empty (its last column)
};
DatasetChoice parseDatasetChoice(const ParameterSet& params);

// The chosen dataset, loaded (cached). Throws DataError naming the parameter to fix.
LabelledDataset loadClassificationDataset(const DatasetChoice& choice);
LabelledDataset loadClassificationDataset(const ParameterSet& params);

// sigma: "auto" (none: searched) or a number > 0. Throws InvalidParameter (key "sigma").
std::optional<double> parseSigmaChoice(const std::string& text);
ParameterSpec sigmaChoiceParameter(const std::string& defaultValue);

// A list of feature counts "1,2,4,10" (whole numbers ≥ 1, increasing after sorting, no
// duplicates). Throws InvalidParameter naming `key`.
std::vector<std::int64_t> parseFeatureList(const std::string& text, const std::string& key);

}  // namespace rfscope
