#include "core/experiments/classification_dataset.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include "core/data/data_error.h"
#include "core/data/labelled_arrays.h"
#include "core/data/labelled_csv.h"
#include "core/data/npy_file.h"
#include "core/data/regime.h"
#include "core/data/uci_datasets.h"

namespace rfscope {
namespace {

bool isNpy(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension == ".npy";
}

std::string trimmed(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

// Errors from a reader name the file; they are about the parameter `key` unless they say otherwise.
[[noreturn]] void rethrowFor(const DataError& error, const std::string& key) {
  throw DataError(error.what(), error.parameter().empty() ? key : error.parameter());
}

LabelledDataset loadNpyDataset(const std::filesystem::path& path,
                               const std::filesystem::path& labelsPath) {
  const NpyArray features = readNpyFile(path);
  const std::string name = "'" + path.filename().string() + "'";
  if (features.shape.size() != 2)
    throw DataError(name + ": a features array must have two dimensions (points × features)",
                    "file");
  if (!labelsPath.empty()) {
    NpyArray labels;
    try {
      labels = readNpyFile(labelsPath);
    } catch (const DataError& e) {
      rethrowFor(e, "labels-file");
    }
    if (labels.shape.size() != 1 && labels.columns() != 1)
      throw DataError("'" + labelsPath.filename().string() + "': labels must be one column",
                      "labels-file");
    if (labels.rows() != features.rows())
      throw DataError("'" + labelsPath.filename().string() + "' has " +
                          std::to_string(labels.rows()) + " labels for " +
                          std::to_string(features.rows()) + " points",
                      "labels-file");
    return labelledDatasetFromArrays(features.rows(), features.columns(), features.values,
                                     labels.values, name);
  }
  // The last column is the label.
  if (features.columns() < 2)
    throw DataError(name + ": needs at least one feature column and the label column", "file");
  const std::uint64_t d = features.columns() - 1;
  std::vector<double> values, labels;
  values.reserve(static_cast<std::size_t>(features.rows() * d));
  for (std::uint64_t r = 0; r < features.rows(); ++r) {
    for (std::uint64_t c = 0; c < d; ++c)
      values.push_back(features.at(r, c));
    labels.push_back(features.at(r, d));
  }
  return labelledDatasetFromArrays(features.rows(), d, values, labels, name);
}

}  // namespace

std::vector<ParameterChoice> uciDatasetChoices() {
  std::vector<ParameterChoice> choices;
  for (const UciDatasetInfo& info : uciDatasets())
    choices.push_back({info.id, info.title});
  return choices;
}

std::vector<ParameterSpec> classificationDatasetParameters(const std::string& defaultDataset) {
  auto choices = uciDatasetChoices();
  choices.push_back({kUserDatasetId, "Own file (CSV or .npy)"});
  auto dataset = choiceParameter("dataset", "Dataset", choices, defaultDataset,
                                 "a UCI dataset of the papers, or your own labelled file");
  auto file = fileParameter(
      "file", "Labelled data", "Labelled data (*.csv *.tsv *.txt *.data *.npy);;All files (*)",
      "CSV/text: one point per record; .npy: points × columns, the label last "
      "unless a labels file is given");
  auto label = textParameter("label-column", "Label column", "last",
                             "CSV only: 'last', a 1-based position or a header name");
  auto labels = fileParameter("labels-file", "Labels (.npy)", "NumPy arrays (*.npy);;All files (*)",
                              ".npy only: one label per point (empty: the last column)");
  std::vector<ParameterSpec> specs{dataset, file, label, labels};
  for (std::size_t i = 0; i < specs.size(); ++i) {
    specs[i].group = "Data";
    if (i > 0) {
      specs[i].visibleWhenKey = "dataset";
      specs[i].visibleWhenValues = {kUserDatasetId};
    }
  }
  return specs;
}

DatasetChoice parseDatasetChoice(const ParameterSet& params) {
  return {params.choice("dataset"), textParameter(params, "file"),
          textParameter(params, "label-column"), textParameter(params, "labels-file")};
}

LabelledDataset loadClassificationDataset(const DatasetChoice& choice) {
  if (choice.dataset != kUserDatasetId) {
    try {
      return loadUciDataset(choice.dataset);
    } catch (const DataError& e) {
      rethrowFor(e, "dataset");
    }
  }
  const std::filesystem::path path = choice.file;
  if (path.empty())
    throw DataError("dataset 'file' needs a labelled data file: set 'file'", "file");
  try {
    if (isNpy(path)) return loadNpyDataset(path, choice.labelsFile);
    LabelledCsvOptions options;
    options.label = ColumnChoice::parse(trimmed(choice.labelColumn));
    return readLabelledCsv(path, options);
  } catch (const DataError& e) {
    rethrowFor(e, "file");
  }
}

LabelledDataset loadClassificationDataset(const ParameterSet& params) {
  return loadClassificationDataset(parseDatasetChoice(params));
}

std::optional<double> parseSigmaChoice(const std::string& text) {
  const std::string value = trimmed(text);
  if (value == "auto") return std::nullopt;
  double sigma = 0;
  const auto result = std::from_chars(value.data(), value.data() + value.size(), sigma);
  if (result.ec != std::errc() || result.ptr != value.data() + value.size() ||
      !std::isfinite(sigma) || sigma <= 0 || sigma > 1000)
    throw InvalidParameter(
        "sigma", "parameter 'sigma': '" + text + "' is neither 'auto' nor a number in (0, 1000]");
  return sigma;
}

ParameterSpec sigmaChoiceParameter(const std::string& defaultValue) {
  auto spec = textParameter(
      "sigma", "σ", defaultValue,
      "data scale (inputs σ·o): a number, or 'auto' to search it on a validation split "
      "maximising IID PosRF accuracy (SimRF App. B.1)");
  spec.group = "Data";
  return spec;
}

std::vector<std::int64_t> parseFeatureList(const std::string& text, const std::string& key) {
  std::vector<std::int64_t> values;
  std::string_view rest = text;
  while (true) {
    const auto comma = rest.find(',');
    const std::string item = trimmed(rest.substr(0, comma));
    std::int64_t value = 0;
    const auto result = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || result.ec != std::errc() || result.ptr != item.data() + item.size() ||
        value < 1 || value > 100000)
      throw InvalidParameter(key, "parameter '" + key + "': '" + item +
                                      "' is not a whole number of features in 1..100000");
    values.push_back(value);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() > 50) throw InvalidParameter(key, "parameter '" + key + "': at most 50 values");
  return values;
}

}  // namespace rfscope
