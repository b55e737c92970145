#pragma once
// A fixture for the layering check (tests/core/CMakeLists.txt): a "mechanisms" header that includes
// a module above it and oneTBB. Never compiled.

#include <tbb/parallel_for.h>

#include "core/analytic/analytic_variance.h"
