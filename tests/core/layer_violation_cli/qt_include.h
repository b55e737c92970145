#pragma once
// Not compiled: the Qt-free part of app/ using Qt and ui/, which its layer check must reject.

#include <QString>

#include "core/io/plot_export_options.h"
#include "ui/plot_export.h"
