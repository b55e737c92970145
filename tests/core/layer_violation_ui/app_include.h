#pragma once
// Not compiled: ui/ reaching up into app/, which the layer check of ui/ must reject.

#include "app/cli/run_arguments.h"
#include "core/experiments/table.h"
