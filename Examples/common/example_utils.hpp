/// @file example_utils.hpp
/// @brief Helpers of the C++ examples: arguments, CSV output, gnuplot, progress, summary.
#ifndef NSDYN_EXAMPLES_EXAMPLE_UTILS_HPP
#define NSDYN_EXAMPLES_EXAMPLE_UTILS_HPP

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "nsdyn/Simulation.hpp"

namespace nsdyn::examples {

/// Command line shared by the examples: `--output DIR` (default: current
/// directory), `--no-plot`, `--quiet` (no progress), `--help`.
struct ExampleOptions {
  std::string outputDir = ".";
  bool plot = true;
  bool quiet = false;
};

/// Parse the arguments; prints usage and exits(0) on --help, exits(2) on an
/// unknown argument. Creates the output directory if needed.
ExampleOptions parseArguments(int argc, char** argv, const char* name, const char* description);

/// An option of one example, not of the shared parser: a switch
/// (`--diagnostics`) or an option with a value (`--step H`).
struct ExtraOption {
  std::string flag;
  /// Empty for a switch; otherwise what the value must be, for the refusal
  /// `NAME: FLAG wants WANTS, not 'VALUE'` (exit 2).
  std::string wants;
  /// Takes the value ("" for a switch); false refuses it.
  std::function<bool(const char* value)> accept;
};

/// The switch @p flag, setting @p on.
ExtraOption switchOption(const char* flag, bool& on);
/// `--step H`: the time step @p h, accepted in (0, @p maxStep].
ExtraOption stepOption(double& h, double maxStep);
/// `--time T`: the simulated duration @p T (s), accepted in (0, @p maxTime].
ExtraOption timeOption(double& T, double maxTime);
/// @p flag with a number @p x (the whole value read by strtod) accepted in (@p lo, @p hi];
/// @p wants as in ExtraOption.
ExtraOption numberOption(const char* flag, const char* wants, double& x, double lo, double hi);
/// @p flag with a whole number @p n (atoi) accepted in [@p lo, @p hi].
ExtraOption countOption(const char* flag, const char* wants, int& n, int lo, int hi);

/// parseArguments with the example's own options: these are taken out of the
/// arguments first (an option that wants a value and has none is left in, for
/// the shared parser to call unknown), @p extraHelp is printed for each --help
/// or -h, and the rest goes to the shared parser.
ExampleOptions parseArguments(int argc, char** argv, const char* name, const char* description,
                              const std::vector<ExtraOption>& extras, const char* extraHelp);

/// `dir/file`.
std::string joinPath(const std::string& dir, const std::string& file);

/// CSV file: a header line of comma-separated column names, then one row
/// per call to row(), values as %.17g.
class CsvWriter {
 public:
  /// Opens @p path for writing (nsdyn::Error if it cannot) and writes the header.
  CsvWriter(const std::string& path, const std::vector<std::string>& columns);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  /// One row; nsdyn::Error if its length differs from the header's.
  void row(const std::vector<double>& values);
  std::size_t rows() const { return rows_; }
  const std::string& path() const { return path_; }

 private:
  std::FILE* file_;
  std::string path_;
  std::size_t columns_;
  std::size_t rows_ = 0;
};

/// One curve of a plot: CSV column (1-based, as gnuplot counts) against column 1.
struct PlotCurve {
  int column;
  std::string title;
  int panel;  ///< 0-based panel (one panel per distinct value, stacked vertically)
};

/// Draw @p curves from @p csvPath into @p pngPath with gnuplot (pngcairo).
/// Returns false (and draws nothing) when gnuplot is missing or fails.
bool gnuplotPng(const std::string& csvPath, const std::string& pngPath, const std::string& title,
                const std::vector<PlotCurve>& curves, const std::vector<std::string>& panelLabels);

/// Progress on stderr, every 10 %, only when stderr is a terminal and not quiet.
class Progress {
 public:
  Progress(long total, bool quiet);
  void update(long done);
  void finish();

 private:
  long total_;
  bool active_;    // not quiet
  bool terminal_;  // stderr is a terminal: one rewritten line; otherwise plain lines
  int lastDecile_ = -1;
};

/// Wall clock for the summary.
class WallClock {
 public:
  WallClock() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const;

 private:
  std::chrono::steady_clock::time_point start_;
};

/// Print "steps, steps with an active nonsmooth problem, total solver
/// iterations, max residual, failed solves, wall time" from the simulation's statistics;
/// failed solves are also said on stderr (how many, the first one's step, time, message).
void printSummary(const char* name, const Simulation& simulation, double wallSeconds,
                  const char* activeLabel);
/// The program's exit status after printSummary: 1 if that run had failed solves, else 0
/// (README "Exit status").
int exitStatus();

}  // namespace nsdyn::examples

#endif
