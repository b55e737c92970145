#pragma once
// Where the data shipped with RFScope (resources/: the MNIST digits, the UCI datasets) is found at
// run time, so that builds run from the build tree and installed or relocated copies work alike.
// Searched in order:
//   1. $RFSCOPE_DATA_DIR;
//   2. next to the file that holds RFScope's code — the executable, or the Python module's shared
//      library — then next to the executable: <dir>/data, then <dir>/../share/rfscope (installed
//      layout: bin/rfscope finds share/rfscope/, wherever the prefix or an extracted package lies);
//   3. the source tree's resources/ folder (compiled in), only for code inside the build tree (the
//      module in build/…/app/python included): an installed copy must find its own data, never
//      silently the build machine's.

#include <filesystem>
#include <vector>

namespace rfscope {

// The candidate folders, in search order (whether or not they exist).
std::vector<std::filesystem::path> dataDirectories();

// The first <folder>/<relativePath> that exists, or an empty path when none does.
std::filesystem::path findDataFile(const std::filesystem::path& relativePath);

}  // namespace rfscope
