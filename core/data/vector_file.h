#pragma once
// Text files of vectors, one vector per row: values separated by commas and/or whitespace, '#'
// starts a comment, blank lines are skipped, and a first row without a single number is taken as a
// header and skipped.

#include <filesystem>
#include <string>
#include <string_view>

#include <Eigen/Core>

namespace rfscope {

// Parses `text`; `name` (usually the file name) prefixes error messages. Returns one vector per
// column (dimension × count). Throws DataError with the line number for a value that is not a
// finite number, an empty value, a row whose length differs from the first row, or no rows at all.
Eigen::MatrixXd parseVectors(std::string_view text, const std::string& name);

// Reads and parses a file: a regular file of at most kMaxVectorFileBytes (input_file.h); throws
// DataError when it cannot be read.
Eigen::MatrixXd readVectorFile(const std::filesystem::path& path);

}  // namespace rfscope
