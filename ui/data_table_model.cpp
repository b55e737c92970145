#include "ui/data_table_model.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace rfscope::ui {
namespace {

// Whole numbers below this are written in digits (as the CSV export does).
constexpr double kLargestPlainInteger = 1e15;

QString fullText(double value) {
  if (std::isnan(value)) return {};
  if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  char buffer[32];
  const bool whole = std::abs(value) < kLargestPlainInteger && value == std::trunc(value);
  const auto result =
      whole ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<long long>(value))
            : std::to_chars(buffer, buffer + sizeof buffer, value);  // round-trips
  return QString::fromLatin1(buffer, static_cast<int>(result.ptr - buffer));
}

QString shownText(double value) {
  if (std::isnan(value)) return {};
  if (std::isinf(value)) return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
  return QString::number(value, 'g', 8);
}

}  // namespace

DataTableModel::DataTableModel(QObject* parent) : QAbstractTableModel(parent) {}

QVector<DataTableModel::ShownColumn> DataTableModel::shownColumns(const Table& table) {
  QVector<ShownColumn> shown;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    const Column& column = table.columns[c];
    const QString key = QString::fromStdString(column.key);
    const QString label = QString::fromStdString(column.label);
    shown.push_back({static_cast<int>(c), label.isEmpty() ? key : label, key});
    if (column.key == table.hints.xColumn && !table.hints.xValueNames.empty()) {
      const QString x = QString::fromStdString(table.hints.xLabel);
      shown.push_back({-1, (x.isEmpty() ? key : x) + tr(" (name)"), key + "-name"});
    }
  }
  return shown;
}

void DataTableModel::setTable(std::shared_ptr<const Table> table) {
  const QVector<ShownColumn> columns = table ? shownColumns(*table) : QVector<ShownColumn>();
  const bool sameColumns = columns.size() == columns_.size() &&
                           std::equal(columns.begin(), columns.end(), columns_.begin(),
                                      [](const ShownColumn& a, const ShownColumn& b) {
                                        return a.key == b.key && a.header == b.header;
                                      });
  if (!sameColumns || !table_ || !table) {
    beginResetModel();
    table_ = std::move(table);
    columns_ = columns;
    endResetModel();
    return;
  }
  // The same columns: rows change in place, added or removed at the end.
  const int before = rowCount(), after = static_cast<int>(table->rowCount());
  if (after > before) {
    beginInsertRows({}, before, after - 1);
    table_ = std::move(table);
    endInsertRows();
  } else if (after < before) {
    beginRemoveRows({}, after, before - 1);
    table_ = std::move(table);
    endRemoveRows();
  } else {
    table_ = std::move(table);
  }
  if (std::min(before, after) > 0 && !columns_.isEmpty())
    emit dataChanged(index(0, 0), index(std::min(before, after) - 1, columns_.size() - 1));
}

int DataTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !table_ ? 0 : static_cast<int>(table_->rowCount());
}

int DataTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

double DataTableModel::value(int row, const ShownColumn& column) const {
  if (column.source < 0) return std::numeric_limits<double>::quiet_NaN();
  const std::vector<double>& values = table_->columns[column.source].values;
  return row < static_cast<int>(values.size()) ? values[row]
                                               : std::numeric_limits<double>::quiet_NaN();
}

QString DataTableModel::xName(int row) const {
  const Column* x = table_->column(table_->hints.xColumn);
  if (!x || row >= static_cast<int>(x->values.size())) return {};
  for (const auto& [named, text] : table_->hints.xValueNames)
    if (named == x->values[row]) return QString::fromStdString(text);
  return {};
}

QVariant DataTableModel::data(const QModelIndex& index, int role) const {
  if (!table_ || !index.isValid() || index.column() >= columns_.size()) return {};
  const ShownColumn& column = columns_[index.column()];
  switch (role) {
    case Qt::DisplayRole:
      return column.source < 0 ? xName(index.row()) : shownText(value(index.row(), column));
    case Qt::ToolTipRole:
      return column.source < 0 ? QVariant() : QVariant(fullText(value(index.row(), column)));
    case Qt::TextAlignmentRole:
      return column.source < 0 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::UserRole:  // the value itself
      return column.source < 0 ? QVariant() : QVariant(value(index.row(), column));
    default:
      return {};
  }
}

QVariant DataTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Vertical)
    return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
  if (section < 0 || section >= columns_.size()) return {};
  if (role == Qt::DisplayRole) return columns_[section].header;
  if (role == Qt::ToolTipRole) return columns_[section].key;
  return {};
}

QString DataTableModel::copyText(int row, int column) const {
  if (!table_ || column < 0 || column >= columns_.size()) return {};
  const ShownColumn& shown = columns_[column];
  return shown.source < 0 ? xName(row) : fullText(value(row, shown));
}

QString DataTableModel::headerText(int column) const {
  return column >= 0 && column < columns_.size() ? columns_[column].header : QString();
}

}  // namespace rfscope::ui
