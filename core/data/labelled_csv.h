#pragma once
// Users' own labelled data in a CSV (or tab-, semicolon- or space-separated) text file: one point
// per record, the class label in a chosen column, every other column a feature (numbers, or
// categories coded as delimited_dataset.h describes) unless ignored. The header row is optional.
//
//   LabelledCsvOptions options;
//   options.label = ColumnChoice::parse("species");  // or "5", or "last" (the default)
//   LabelledDataset data = readLabelledCsv("iris.csv", options);

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/delimited_dataset.h"
#include "core/data/labelled_dataset.h"

namespace rfscope {

// Files larger than this are refused before reading (as for the csv regime's vector files).
inline constexpr std::uint64_t kMaxLabelledCsvBytes = std::uint64_t{256} << 20;

struct LabelledCsvOptions {
  ColumnChoice label = ColumnChoice::last();
  std::vector<ColumnChoice> ignored = {};  // e.g. an identifier column
  HeaderRow header = HeaderRow::Auto;
  std::optional<FieldSeparator> separator = {};  // none: detectSeparator()
  CategoricalEncoding encoding = CategoricalEncoding::IntegerCodes;
};

// Parses text already in memory; `name` (the quoted file name) prefixes error messages.
LabelledDataset parseLabelledCsv(std::string_view text, const LabelledCsvOptions& options,
                                 const std::string& name);

// Reads a regular file of at most kMaxLabelledCsvBytes and parses it, cached per file and options
// (dataset_cache.h). Throws DataError naming the file and the problem.
LabelledDataset readLabelledCsv(const std::filesystem::path& path,
                                const LabelledCsvOptions& options = {});

}  // namespace rfscope
