#pragma once
// NumPy arrays as the core's inputs. The Python layer (rfscope/__init__.py) has already checked
// dtypes and shapes and made C-contiguous float64 arrays; here the values are checked as the
// command line checks --x/--y (finite, within ±1e60), naming the array and the row.

#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <Eigen/Core>

namespace rfscope::python {

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using DoubleArray =
    pybind11::array_t<double, pybind11::array::c_style | pybind11::array::forcecast>;

// The L × d points of a 2-d array (rows are points), a view of its memory.
Eigen::Map<const RowMajorMatrix> pointsOf(const DoubleArray& array);

// Throws InvalidParameter "x (row 3): entry 2, nan, is not a finite number" or the command
// line's out-of-range message for the first bad entry.
void checkPoints(const std::string& name, const Eigen::Map<const RowMajorMatrix>& points);

}  // namespace rfscope::python
