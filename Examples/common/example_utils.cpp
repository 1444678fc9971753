// Helpers of the C++ examples.
#include "example_utils.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

#include "nsdyn/Error.hpp"

namespace nsdyn::examples {

ExampleOptions parseArguments(int argc, char** argv, const char* name, const char* description) {
  ExampleOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--output" && i + 1 < argc) {
      options.outputDir = argv[++i];
    } else if (arg == "--no-plot") {
      options.plot = false;
    } else if (arg == "--quiet") {
      options.quiet = true;
    } else if (arg == "--help" || arg == "-h") {
      std::printf(
          "%s: %s\n\nusage: %s [--output DIR] [--no-plot] [--quiet]\n"
          "  --output DIR  write %s.csv (and %s.png) into DIR (default: current directory)\n"
          "  --no-plot     do not call gnuplot\n"
          "  --quiet       no progress output\n",
          name, description, name, name, name);
      std::exit(0);
    } else {
      std::fprintf(stderr, "%s: unknown argument '%s' (try --help)\n", name, arg.c_str());
      std::exit(2);
    }
  }
  if (mkdir(options.outputDir.c_str(), 0755) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "%s: cannot create output directory %s: %s\n", name,
                 options.outputDir.c_str(), std::strerror(errno));
    std::exit(4);  // README "Exit status": an output that cannot be written
  }
  return options;
}

ExtraOption switchOption(const char* flag, bool& on) {
  return {flag, "", [&on](const char*) {
            on = true;
            return true;
          }};
}

namespace {

/// @p flag with a value @p x accepted in (0, @p max]; @p what as in "a time step in (0, MAX]" + @p
/// unit.
ExtraOption positiveUpTo(const char* flag, const char* what, const char* unit, double& x,
                         double max) {
  char wants[64];
  std::snprintf(wants, sizeof wants, "%s in (0, %g]%s", what, max, unit);
  return {flag, wants, [&x, max](const char* value) {
            x = std::atof(value);
            return x > 0.0 && x <= max;
          }};
}

}  // namespace

ExtraOption stepOption(double& h, double maxStep) {
  return positiveUpTo("--step", "a time step", "", h, maxStep);
}

ExtraOption timeOption(double& T, double maxTime) {
  return positiveUpTo("--time", "a duration", " s", T, maxTime);
}

ExtraOption numberOption(const char* flag, const char* wants, double& x, double lo, double hi) {
  return {flag, wants, [&x, lo, hi](const char* v) {
            char* end = nullptr;
            x = std::strtod(v, &end);
            return end != v && *end == '\0' && x > lo && x <= hi;
          }};
}

ExtraOption countOption(const char* flag, const char* wants, int& n, int lo, int hi) {
  return {flag, wants, [&n, lo, hi](const char* v) {
            n = std::atoi(v);
            return n >= lo && n <= hi;
          }};
}

ExampleOptions parseArguments(int argc, char** argv, const char* name, const char* description,
                              const std::vector<ExtraOption>& extras, const char* extraHelp) {
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const auto extra = std::find_if(extras.begin(), extras.end(), [&](const ExtraOption& o) {
      return o.flag == argv[i] && (o.wants.empty() || i + 1 < argc);
    });
    if (extra == extras.end()) {
      rest.push_back(argv[i]);
      if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
        std::printf("%s\n", extraHelp);
      continue;
    }
    const char* value = extra->wants.empty() ? "" : argv[++i];
    if (!extra->accept(value)) {
      std::fprintf(stderr, "%s: %s wants %s, not '%s'\n", name, extra->flag.c_str(),
                   extra->wants.c_str(), value);
      std::exit(2);
    }
  }
  return parseArguments(static_cast<int>(rest.size()), rest.data(), name, description);
}

std::string joinPath(const std::string& dir, const std::string& file) {
  if (dir.empty() || dir == ".") return file;
  return dir.back() == '/' ? dir + file : dir + "/" + file;
}

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns)
    : file_(std::fopen(path.c_str(), "w")), path_(path), columns_(columns.size()) {
  if (!file_) throw Error("CsvWriter", "a writable file", path + " (" + std::strerror(errno) + ")");
  for (std::size_t i = 0; i < columns.size(); ++i)
    std::fprintf(file_, "%s%s", i ? "," : "", columns[i].c_str());
  std::fputc('\n', file_);
}

CsvWriter::~CsvWriter() {
  if (file_) std::fclose(file_);
}

void CsvWriter::row(const std::vector<double>& values) {
  if (values.size() != columns_)
    throw Error("CsvWriter " + path_, std::to_string(columns_) + " values per row",
                std::to_string(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    std::fprintf(file_, "%s%.17g", i ? "," : "", values[i]);
  std::fputc('\n', file_);
  ++rows_;
}

bool gnuplotPng(const std::string& csvPath, const std::string& pngPath, const std::string& title,
                const std::vector<PlotCurve>& curves, const std::vector<std::string>& panelLabels) {
  const std::string script = pngPath + ".gp";
  std::FILE* gp = std::fopen(script.c_str(), "w");
  if (!gp) return false;
  const int panels = static_cast<int>(panelLabels.size());
  std::fprintf(gp, "set terminal pngcairo size 1000,%d noenhanced\n", 300 * std::max(panels, 1));
  std::fprintf(gp, "set output '%s'\nset datafile separator ','\nset key autotitle columnhead\n",
               pngPath.c_str());
  std::fprintf(gp, "set multiplot layout %d,1 title '%s'\nset grid\n", std::max(panels, 1),
               title.c_str());
  for (int p = 0; p < panels; ++p) {
    std::fprintf(gp, "set ylabel '%s'\n", panelLabels[p].c_str());
    if (p == panels - 1) std::fprintf(gp, "set xlabel 'time (s)'\n");
    std::string plot = "plot ";
    bool first = true;
    for (const PlotCurve& c : curves) {
      if (c.panel != p) continue;
      plot += (first ? "" : ", ") + std::string("'") + csvPath +
              "' using 1:" + std::to_string(c.column) + " with lines title '" + c.title + "'";
      first = false;
    }
    std::fprintf(gp, "%s\n", plot.c_str());
  }
  std::fprintf(gp, "unset multiplot\n");
  std::fclose(gp);
  const std::string cmd = "gnuplot '" + script + "' > /dev/null 2>&1";
  const bool ok = std::system(cmd.c_str()) == 0;
  std::remove(script.c_str());
  return ok;
}

Progress::Progress(long total, bool quiet)
    : total_(total), active_(!quiet), terminal_(isatty(STDERR_FILENO) != 0) {}

void Progress::update(long done) {
  if (!active_ || total_ <= 0) return;
  const int decile = static_cast<int>(10 * done / total_);
  if (decile == lastDecile_) return;
  lastDecile_ = decile;
  // on a terminal one line rewritten in place, in a log one line per 10 %
  std::fprintf(
      stderr,
      terminal_ ? "\r  progress %3d%% (%ld/%ld steps)" : "  progress %3d%% (%ld/%ld steps)\n",
      10 * decile, done, total_);
  std::fflush(stderr);
}

void Progress::finish() {
  if (active_ && terminal_) std::fprintf(stderr, "\r%50s\r", "");
}

double WallClock::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

namespace {
long failedSolvesSeen = 0;  // by the last printSummary, for exitStatus()
}  // namespace

int exitStatus() {
  return failedSolvesSeen > 0 ? 1 : 0;
}

void printSummary(const char* name, const Simulation& simulation, double wallSeconds,
                  const char* activeLabel) {
  long active = 0, failed = 0, iterations = 0, calls = 0;
  const StepStatistics* first = nullptr;
  int maxIterations = 0;
  std::size_t maxActive = 0;
  double maxResidual = 0.0;
  for (const StepStatistics& s : simulation.statistics()) {
    if (s.activeRelations > 0) ++active;
    if (s.solved) ++calls;
    if (s.solved && s.status != NSD_OK) {
      if (!first) first = &s;
      ++failed;
    }
    iterations += s.iterations;
    maxIterations = std::max(maxIterations, s.iterations);
    maxActive = std::max(maxActive, s.activeRelations);
    maxResidual = std::max(maxResidual, s.residual);
  }
  std::printf("%s summary\n", name);
  std::printf("  steps:                   %zu\n", simulation.statistics().size());
  std::printf("  %-24s %ld\n", (std::string(activeLabel) + ":").c_str(), active);
  std::printf("  solver calls:            %ld\n", calls);
  std::printf("  total solver iterations: %ld\n", iterations);
  std::printf("  max iterations per call: %d\n", maxIterations);
  std::printf("  max active relations:    %zu\n", maxActive);
  std::printf("  max solver residual:     %.3g\n", maxResidual);
  std::printf("  failed solves:           %ld\n", failed);
  std::printf("  wall time:               %.3f s\n", wallSeconds);
  failedSolvesSeen = failed;
  if (first)
    std::fprintf(stderr, "%s: %ld failed solves; the first at step %ld (t = %g): %s\n", name,
                 failed, first->step, first->time,
                 first->message.empty() ? "not converged" : first->message.c_str());
}

}  // namespace nsdyn::examples
