#include "core/data/uci_datasets.h"

#include <fstream>
#include <sstream>

#include "core/data/data_directory.h"
#include "core/data/data_error.h"
#include "core/data/dataset_cache.h"

namespace rfscope {
namespace {

std::vector<ColumnChoice> positions(std::initializer_list<int> oneBased) {
  std::vector<ColumnChoice> columns;
  for (const int p : oneBased)
    columns.push_back(ColumnChoice::at(p));
  return columns;
}

UciDatasetInfo dataset(std::string id, std::string file, std::string title, int records,
                       int classes, FieldSeparator separator, std::vector<std::string> columnNames,
                       std::vector<ColumnChoice> categorical,
                       std::vector<ColumnChoice> ignored = {}) {
  UciDatasetInfo info{std::move(id), std::move(file), std::move(title), records, classes, {}};
  info.layout.separator = separator;
  info.layout.header = HeaderRow::Absent;
  info.layout.label = ColumnChoice::last();
  info.layout.columnNames = std::move(columnNames);
  info.layout.categorical = std::move(categorical);
  info.layout.ignored = std::move(ignored);
  info.layout.detectCategorical = false;  // a stray text cell in a number column is an error
  return info;
}

std::vector<UciDatasetInfo> makeDatasets() {
  // Column names as the UCI repository documents them; the label is the last column.
  const auto comma = FieldSeparator::Comma;
  return {
      dataset("abalone", "abalone.data", "Abalone", 4177, 28, comma,
              {"sex", "length", "diameter", "height", "whole weight", "shucked weight",
               "viscera weight", "shell weight", "rings"},
              positions({1})),
      dataset("banknote", "banknote.txt", "Banknote authentication", 1372, 2, comma,
              {"variance", "skewness", "curtosis", "entropy", "class"}, {}),
      dataset("car", "car.data", "Car evaluation", 1728, 4, comma,
              {"buying", "maint", "doors", "persons", "lug_boot", "safety", "class"},
              positions({1, 2, 3, 4, 5, 6})),
      dataset("yeast", "yeast.data", "Yeast", 1484, 10, FieldSeparator::Whitespace,
              {"sequence name", "mcg", "gvh", "alm", "mit", "erl", "pox", "vac", "nuc",
               "localization site"},
              {}, positions({1})),
      dataset("cmc", "cmc.data", "Contraceptive method choice", 1473, 3, comma,
              {"wife's age", "wife's education", "husband's education", "children",
               "wife's religion", "wife working", "husband's occupation", "standard of living",
               "media exposure", "contraceptive method"},
              {}),
      dataset("nursery", "nursery.data", "Nursery", 12960, 5, comma,
              {"parents", "has_nurs", "form", "children", "housing", "finance", "social", "health",
               "class"},
              positions({1, 2, 3, 4, 5, 6, 7, 8})),
      dataset("wifi", "wifi.txt", "Wireless indoor localization", 2000, 4, FieldSeparator::Tab,
              {"signal 1", "signal 2", "signal 3", "signal 4", "signal 5", "signal 6", "signal 7",
               "room"},
              {}),
      dataset("chess", "chess.data", "Chess (king-rook vs. king)", 28056, 18, comma,
              {"white king file", "white king rank", "white rook file", "white rook rank",
               "black king file", "black king rank", "depth of win"},
              positions({1, 2, 3, 4, 5, 6})),
  };
}

std::string knownIds() {
  std::string ids;
  for (const auto& info : uciDatasets())
    ids += (ids.empty() ? "" : ", ") + info.id;
  return ids;
}

std::string readWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError("'" + path.string() + "': cannot open (missing or unreadable)");
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw DataError("'" + path.string() + "': read error");
  return content.str();
}

}  // namespace

const std::vector<UciDatasetInfo>& uciDatasets() {
  static const std::vector<UciDatasetInfo> datasets = makeDatasets();
  return datasets;
}

const UciDatasetInfo* findUciDataset(std::string_view id) {
  for (const auto& info : uciDatasets())
    if (info.id == id) return &info;
  return nullptr;
}

LabelledDataset parseUciDataset(const UciDatasetInfo& info, std::string_view text,
                                CategoricalEncoding encoding) {
  DelimitedLayout layout = info.layout;
  layout.encoding = encoding;
  return parseDelimitedDataset(text, layout, info.id);
}

LabelledDataset loadUciDataset(std::string_view id, CategoricalEncoding encoding) {
  const UciDatasetInfo* info = findUciDataset(id);
  if (!info)
    throw DataError("unknown dataset '" + std::string(id) + "'; the UCI datasets are " +
                        knownIds() + " (or give a file of your own)",
                    "dataset");
  const std::filesystem::path relative = std::filesystem::path("uci") / info->file;
  const std::filesystem::path path = findDataFile(relative);
  if (path.empty())
    throw DataError("the " + info->id + " dataset (" + relative.string() +
                        ") is not in any data folder; set RFSCOPE_DATA_DIR to the folder holding "
                        "uci/, or reinstall RFScope",
                    "dataset");
  const std::string kind =
      "uci-" + std::string(encoding == CategoricalEncoding::OneHot ? "one-hot" : "codes");
  try {
    return *DatasetCache::instance().get<LabelledDataset>(path, kind, [&] {
      return std::make_shared<const LabelledDataset>(
          parseUciDataset(*info, readWholeFile(path), encoding));
    });
  } catch (const DataError& e) {
    throw DataError(std::string(e.what()) + " (file '" + path.string() + "')", "dataset");
  }
}

LabelledDataset loadAbaloneRegression() {
  return regressionView(loadUciDataset("abalone"));
}

}  // namespace rfscope
