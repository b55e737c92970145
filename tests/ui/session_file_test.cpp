// Session files: bounded before they are parsed (issue 12, item 3: a session nested 100,000 deep
// overflowed the stack), read only when regular (item 6), strict about the version (item 13: 1.5,
// true and 4294967297 were read as 1), and reported by key, never as "[json.exception…]". A
// session may keep its result (issue 30, item 7): it reads back the same, a file without one (an
// earlier version's) still opens, a malformed one is refused by where it is, and one too large for
// a session file is left out of it.

#include <sys/stat.h>

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <string>

#include "core/data/input_limits.h"
#include "core/experiments/experiment_registry.h"
#include "ui/session.h"

using rfscope::ui::Session;
using rfscope::ui::sessionFromText;
using rfscope::ui::SessionResultSaved;
using rfscope::ui::sessionToText;

class SessionFileTest : public QObject {
  Q_OBJECT

  // The message of reading `text` as a session, or "" when it is accepted.
  static QString errorOf(const std::string& text) {
    try {
      sessionFromText(text);
    } catch (const std::exception& e) {
      const QString message = QString::fromUtf8(e.what());
      if (message.contains("json.exception")) qWarning() << "raw nlohmann text:" << message;
      return message;
    }
    return {};
  }

  static std::string session(const std::string& version, const std::string& rest) {
    return R"({"format":"rfscope-session","version":)" + version +
           R"(,"experiment":"variance-vs-sigma")" + rest + "}";
  }

 private slots:
  void aValidSessionIsRead() {
    const auto s =
        sessionFromText(session("1", R"(,"parameters":{"d":32},"view":{"y_log":false})"));
    QCOMPARE(s.parameters.integer("d"), 32);
    QCOMPARE(s.view.yLog, std::optional<bool>(false));
  }

  static Session sessionWithResult(std::size_t rows) {
    Session session;
    session.experimentId = "variance-vs-sigma";
    session.parameters =
        rfscope::ParameterSet::defaults(rfscope::findExperiment("variance-vs-sigma")->parameters());
    rfscope::ui::SessionResult result;
    std::vector<double> sigma, mean;
    for (std::size_t i = 0; i < rows; ++i) {
      sigma.push_back(0.01 * (i + 1));
      mean.push_back(i == 1 ? std::nan("") : -1.0 / (i + 3));
    }
    result.table.addColumn("sigma", "σ", sigma);
    result.table.addColumn("trig-mean", "TrigRF", mean);
    result.table.hints.xColumn = "sigma";
    result.table.hints.title = "Log-variance vs σ";
    rfscope::SeriesHint series;
    series.label = "TrigRF";
    series.yColumn = "trig-mean";
    series.colorKey = "trig";
    result.table.hints.series.push_back(series);
    result.warnings = {"heavy tails"};
    result.seconds = 0.5;
    session.result = result;
    return session;
  }

  void aResultReadsBackTheSame() {
    const Session saved = sessionWithResult(5);
    SessionResultSaved outcome = SessionResultSaved::None;
    const std::string text = sessionToText(saved, &outcome);
    QCOMPARE(outcome, SessionResultSaved::Kept);
    const Session read = sessionFromText(text);
    QVERIFY(read.result);
    const rfscope::Table& table = read.result->table;
    QCOMPARE(table.rowCount(), std::size_t{5});
    QCOMPARE(table.columns[1].values[2], -1.0 / 5);  // every bit
    QVERIFY(std::isnan(table.columns[1].values[1]));
    QCOMPARE(table.hints.series.front().colorKey, std::string("trig"));
    QCOMPARE(read.result->warnings, std::vector<std::string>{"heavy tails"});
    QCOMPARE(read.result->seconds, std::optional<double>(0.5));
    // Sessions of earlier versions have none, and open as before.
    QVERIFY(!sessionFromText(session("1", R"(,"parameters":{"d":32})")).result);
    QVERIFY(!sessionFromText(session("1", R"(,"result":null)")).result);
  }

  void theFuzzerSeedWithAResultIsASession() {
    const QString path = QFINDTESTDATA("../fuzz/corpus/session/with-result.json");
    QVERIFY(!path.isEmpty());
    const Session read = rfscope::ui::loadSession(path);
    QVERIFY(read.result);
    QCOMPARE(read.result->table.hints.series.at(1).style, rfscope::SeriesStyle::Points);
  }

  void aMalformedResultIsNamedByWhereItIs() {
    std::string text = sessionToText(sessionWithResult(3));
    text.replace(text.find("\"trig-mean\",\n"), 11, "\"sigma\"");
    QVERIFY2(errorOf(text).contains("result.table.columns[1].key: repeats the column \"sigma\""),
             qPrintable(errorOf(text)));
    QVERIFY(errorOf(session("1", R"(,"result":[1])")).contains("\"result\" must be an object"));
    QVERIFY(errorOf(session("1", R"(,"result":{})")).contains("result.table is missing"));
    QVERIFY(errorOf(session("1", R"(,"result":{"warnings":"x","table":{}})"))
                .contains("result.warnings must be a list"));
  }

  void aResultTooLargeForASessionIsLeftOut() {
    SessionResultSaved outcome = SessionResultSaved::None;
    const std::string text = sessionToText(sessionWithResult(400000), &outcome);
    QCOMPARE(outcome, SessionResultSaved::TooLarge);
    QVERIFY(text.size() <= rfscope::kMaxSessionFileBytes);
    const Session read = sessionFromText(text);
    QVERIFY(!read.result);
    QCOMPARE(read.experimentId, std::string("variance-vs-sigma"));
  }

  void deepNestingIsRefusedBeforeItIsBuilt() {
    for (const std::string key : {"parameters", "view"}) {
      // 100,000 levels: ~200 KB, the file of the report. Parsing it whole would build a value that
      // crashes when copied or destroyed (recursively).
      const std::string deep = std::string(100000, '[') + std::string(100000, ']');
      const QString message = errorOf(session("1", ",\"" + key + "\":{\"d\":" + deep + "}"));
      QVERIFY2(message.contains("nested more than 32 levels deep"), qPrintable(message));
    }
    const std::string objects = [] {
      std::string text;
      for (int i = 0; i < 50000; ++i)
        text += "{\"a\":";
      return text + "1" + std::string(50000, '}');
    }();
    QVERIFY(errorOf(objects).contains("nested more than 32"));
    // Just within the limit is only a type error, named by its key.
    const std::string shallow = std::string(29, '[') + "1" + std::string(29, ']');
    const QString message = errorOf(session("1", R"(,"parameters":{"d":)" + shallow + "}"));
    QVERIFY2(message.contains("parameter 'd'"), qPrintable(message));
  }

  void oversizedSessionsAreRefused() {
    const std::string padded = session("1", "") + std::string(rfscope::kMaxSessionFileBytes, ' ');
    QVERIFY(errorOf(padded).contains("at most 8 MiB"));
  }

  void onlyVersionOneItself() {
    for (const char* version :
         {"1.5", "true", "4294967297", "\"1\"", "18446744073709551617", "0", "-1", "1.0", "null"}) {
      const QString message = errorOf(session(version, ""));
      QVERIFY2(message.contains("unsupported session \"version\""), qPrintable(message));
    }
    QVERIFY(errorOf(R"({"format":"rfscope-session","experiment":"variance-vs-sigma"})")
                .contains("\"version\" is missing"));
  }

  void wrongTypesNameTheKey() {
    const std::vector<std::pair<std::string, QString>> cases{
        {R"({"format":5})", "not an RFScope session"},
        {"[1,2]", "not an RFScope session"},
        {session("1", "").replace(session("1", "").find("\"variance-vs-sigma\""), 19, "7"),
         "\"experiment\" must be an experiment id (a string), not 7"},
        {session("1", R"(,"view":[1])"), "\"view\" must be an object"},
        {session("1", R"(,"view":{"x_log":"yes"})"), "view.x_log must be true, false or null"},
        {session("1", R"(,"view":{"x_range":[1]})"), "view.x_range must be [lower, upper]"},
        {session("1", R"(,"view":{"hidden_series":[1]})"), "view.hidden_series"},
        {session("1", R"(,"parameters":[1])"), "parameters must be a JSON object"},
        {session("1", R"(,"parameters":{"d":{"x":1}})"), "parameter 'd': unsupported JSON value"},
        {session("1", R"(,"parameters":{"d":18446744073709551615})"),
         "parameter 'd': '18446744073709551615' is not an integer"},  // was read as -1
        {session("1", R"(,"parameters":{"d":1e999})"), "not valid JSON"},
        {"{not json", "not valid JSON: parse error at line 1, column 3"},
    };
    for (const auto& [text, expected] : cases) {
      const QString message = errorOf(text);
      QVERIFY2(message.contains(expected),
               qPrintable(message + " ← " + QString::fromStdString(text)));
      QVERIFY2(!message.contains("json.exception"), qPrintable(message));
    }
  }

  void onlyRegularFilesAreRead() {
    QTemporaryDir dir;
    const QString fifo = dir.filePath("fifo.json");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    try {
      rfscope::ui::loadSession(fifo);  // returns at once: no writer is waited for
      QFAIL("no error");
    } catch (const std::exception& e) {
      QVERIFY2(QString(e.what()).contains("is a FIFO (named pipe), not a regular file"), e.what());
    }
    QVERIFY_THROWS_EXCEPTION(std::exception, rfscope::ui::loadSession("/dev/zero"));
  }
};

QTEST_GUILESS_MAIN(SessionFileTest)
#include "session_file_test.moc"
