#include "core/data/labelled_csv.h"

#include <fstream>
#include <sstream>

#include "core/data/data_error.h"
#include "core/data/dataset_cache.h"

namespace rfscope {
namespace {

std::string readCappedFile(const std::filesystem::path& path, const std::string& name) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw DataError(name + ": is a folder, not a file");
  if (!std::filesystem::is_regular_file(path, error))
    throw DataError(name + ": cannot open (missing, unreadable or not a regular file)");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw DataError(name + ": cannot read its size");
  if (size > kMaxLabelledCsvBytes)
    throw DataError(name + ": " + std::to_string(size >> 20) + " MiB, more than the " +
                    std::to_string(kMaxLabelledCsvBytes >> 20) +
                    " MiB a labelled data file may have");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(name + ": cannot open (missing or unreadable)");
  std::string content(static_cast<std::size_t>(size), '\0');
  in.read(content.data(), static_cast<std::streamsize>(size));
  content.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw DataError(name + ": read error");
  return content;
}

// The options as a cache key: a different choice of columns is a different dataset.
std::string cacheKind(const LabelledCsvOptions& options) {
  std::ostringstream kind;
  const auto choice = [&kind](const ColumnChoice& c) {
    kind << static_cast<int>(c.kind) << ':' << c.position << ':' << c.name.size() << ':' << c.name
         << ';';
  };
  kind << "labelled-csv;";
  choice(options.label);
  for (const auto& c : options.ignored)
    choice(c);
  kind << static_cast<int>(options.header) << ';'
       << (options.separator ? static_cast<int>(*options.separator) : -1) << ';'
       << static_cast<int>(options.encoding);
  return kind.str();
}

}  // namespace

LabelledDataset parseLabelledCsv(std::string_view text, const LabelledCsvOptions& options,
                                 const std::string& name) {
  DelimitedLayout layout;
  layout.separator = options.separator ? *options.separator : detectSeparator(text);
  layout.header = options.header;
  layout.label = options.label;
  layout.ignored = options.ignored;
  layout.detectCategorical = true;
  layout.encoding = options.encoding;
  return parseDelimitedDataset(text, layout, name);
}

LabelledDataset readLabelledCsv(const std::filesystem::path& path,
                                const LabelledCsvOptions& options) {
  const std::string name = "'" + path.string() + "'";
  return *DatasetCache::instance().get<LabelledDataset>(path, cacheKind(options), [&] {
    return std::make_shared<const LabelledDataset>(
        parseLabelledCsv(readCappedFile(path, name), options, name));
  });
}

}  // namespace rfscope
