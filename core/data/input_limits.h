#pragma once
// The limits on what users hand RFScope, in one place (the README's "Limits and errors" lists
// them). Inputs beyond them are refused with a message naming the parameter or file, before any
// work starts, instead of exhausting memory, hanging or overflowing into NaN.

#include <cstdint>

namespace rfscope {

// File sizes, checked before reading (input_file.h). IDX data also counts decompressed.
inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kMaxVectorFileBytes = 256 * kMiB;  // csv regime text files
inline constexpr std::uint64_t kMaxIdxFileBytes = 1024 * kMiB;    // IDX file, and its data
inline constexpr std::uint64_t kMaxNpyFileBytes = 1024 * kMiB;    // NPY file
inline constexpr std::uint64_t kMaxSessionFileBytes = 8 * kMiB;   // sessions, result included
inline constexpr int kMaxSessionNesting = 32;                     // JSON nesting of a session
inline constexpr std::uint64_t kMaxResultFileBytes = 64 * kMiB;   // saved results (JSON tables)
inline constexpr int kMaxResultNesting = 32;                      // JSON nesting of a result

// Entries of x and y (rfscope-cli --x/--y, rows of csv files). The closed forms multiply up to four
// entries (PoisRF's Σ(x_l y_l)², d <= 1024) and experiments scale pairs by σ <= 20: beyond ±1e60
// a double would overflow to inf and the answers to NaN.
inline constexpr double kMaxDataMagnitude = 1e60;

// The input dimension d of the experiments' pairs (their parameter "d").
inline constexpr int kMaxExperimentDimension = 1024;

// rfscope-cli mc (experiments declare their own bounds in their parameter specs).
inline constexpr std::int64_t kMaxCliFeatures = 100000;    // M
inline constexpr std::int64_t kMinCliTrials = 128;         // two 64-trial batches: a 95% interval
inline constexpr std::int64_t kMaxCliTrials = 1000000000;  // 1e9

// Plots and the app's window: pixels a side.
inline constexpr int kMaxPlotSide = 20000;

// PNG export: width × height × (dpi/96)² pixels (a 10,000 × 10,000 image takes 400 MB to render).
inline constexpr double kMaxPngPixels = 100e6;

}  // namespace rfscope
