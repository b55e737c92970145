#pragma once
// The eight UCI classification datasets of CRT Table 1 and SimRF Fig. 8 / Table 2, shipped in
// resources/uci (see its README: sources, quirks, licence) and read as the papers preprocess them:
// every record kept (the SimRF authors' loader drops each file's last line, losing a record in all
// files but nursery.data; this one does not), the last column the class label, yeast's protein
// name dropped, text columns coded (category_coder.h: sorted, as NumPy's np.unique sorts them in
// the authors' loader). Features are returned raw; standardise them with training statistics
// (train_test_data.h).
//
//   dataset   records  features  classes  coded columns
//   abalone      4177     8 (10)      28  sex (F, I, M); label = rings as classes (1..29)
//   banknote     1372     4            2
//   car          1728     6 (21)       4  all six
//   chess       28056     6 (40)      18  all six (files a-h, ranks 1-8: codes = rank - 1)
//   cmc          1473     9            3  none (its ordinal codes are numbers already)
//   nursery     12960     8 (27)       5  all eight
//   wifi         2000     7            4
//   yeast        1484     8           10  (sequence name dropped)
// (features in brackets: with one-hot encoding, as the SimRF authors' published script does.)

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/delimited_dataset.h"
#include "core/data/labelled_dataset.h"

namespace rfscope {

struct UciDatasetInfo {
  std::string id;          // "abalone": the dataset parameter's value
  std::string file;        // "abalone.data", in the data folder's uci/
  std::string title;       // "Abalone"
  int records = 0;         // every non-blank line is a record
  int classes = 0;         // distinct labels
  DelimitedLayout layout;  // separator, column names, coded and dropped columns; label last
};

// The eight, in the papers' table order: abalone, banknote, car, yeast, cmc, nursery, wifi, chess.
const std::vector<UciDatasetInfo>& uciDatasets();
const UciDatasetInfo* findUciDataset(std::string_view id);  // null when unknown

// The dataset from the shipped file (data_directory.h), cached per file and encoding
// (dataset_cache.h). Throws DataError for an unknown id (listing the known ones) or a missing or
// malformed file.
LabelledDataset loadUciDataset(std::string_view id,
                               CategoricalEncoding encoding = CategoricalEncoding::IntegerCodes);

// The same from text already in memory (tests, other copies of the files).
LabelledDataset parseUciDataset(const UciDatasetInfo& info, std::string_view text,
                                CategoricalEncoding encoding = CategoricalEncoding::IntegerCodes);

// Abalone for regression: the same points, target = rings as a real number (age ≈ rings + 1.5).
LabelledDataset loadAbaloneRegression();

}  // namespace rfscope
