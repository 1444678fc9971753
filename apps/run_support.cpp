// The arguments of `nsdyn run` (apps/run_support.hpp).
#include "run_support.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "commands.hpp"

namespace nsdyn::cli {

static bool parseLong(const char* text, long minimum, long* out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno || end == text || *end || v < minimum) return false;
  *out = v;
  return true;
}

// A count written as an integer or in floating notation (1e9): integer-valued, >= 1
// and held by a 64-bit integer.
static bool parseCount(const char* text, long* out) {
  long v = 0;
  if (parseLong(text, 1, &v)) {
    *out = v;
    return true;
  }
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(text, &end);
  if (errno || end == text || *end || !(d >= 1.0) || d != std::floor(d) || !(d < 9.2e18))
    return false;
  *out = static_cast<long>(d);
  return true;
}

// "1,5,10-20" (a list of steps and ranges, steps >= 1) into sorted distinct steps.
static bool parseSteps(const std::string& text, std::vector<long>* out) {
  constexpr long kMaxDumps = 100000;  // a range of a million FCLIB files is a mistake
  std::vector<long> steps;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const std::size_t dash = item.find('-');
    long a = 0, b = 0;
    if (dash == std::string::npos) {
      if (!parseLong(item.c_str(), 1, &a)) return false;
      b = a;
    } else if (!parseLong(item.substr(0, dash).c_str(), 1, &a) ||
               !parseLong(item.substr(dash + 1).c_str(), 1, &b) || b < a) {
      return false;
    }
    if (b - a >= kMaxDumps) return false;
    for (long k = a; k <= b; ++k) steps.push_back(k);
    if (steps.size() > static_cast<std::size_t>(kMaxDumps)) return false;
    start = comma + 1;
  }
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  *out = std::move(steps);
  return !out->empty();
}

bool parseRunArgs(int argc, char** argv, RunArgs* a) {
  for (int i = 0; i < argc; ++i) {
    const std::string opt = argv[i];
    auto value = [&](const char** out) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "nsdyn run: %s needs a value\n", opt.c_str());
        return false;
      }
      *out = argv[++i];
      return true;
    };
    const char* v = nullptr;
    if (opt == "--output") {
      if (!value(&v)) return false;
      a->outputDir = v;
    } else if (opt == "--format") {
      if (!value(&v)) return false;
      a->format = v;
      if (a->format != "csv" && a->format != "hdf5") {
        std::fprintf(stderr, "nsdyn run: --format %s: expected csv or hdf5\n", v);
        return false;
      }
    } else if (opt == "--vtk") {
      a->vtk = true;
    } else if (opt == "--no-plot") {
      a->plot = false;
    } else if (opt == "--quiet") {
      a->quiet = true;
    } else if (opt == "--checkpoint-every") {
      if (!value(&v)) return false;
      if (!parseLong(v, 1, &a->checkpointEvery)) {
        std::fprintf(stderr, "nsdyn run: --checkpoint-every %s: expected a number of steps >= 1\n",
                     v);
        return false;
      }
    } else if (opt == "--checkpoint-format") {
      if (!value(&v)) return false;
      if (!std::strcmp(v, "binary"))
        a->checkpointFormat = io::ArchiveFormat::Binary;
      else if (!std::strcmp(v, "xml"))
        a->checkpointFormat = io::ArchiveFormat::Xml;
      else {
        std::fprintf(stderr, "nsdyn run: --checkpoint-format %s: expected binary or xml\n", v);
        return false;
      }
    } else if (opt == "--restart") {
      if (!value(&v)) return false;
      a->restart = v;
    } else if (opt == "--force-restart") {
      a->forceRestart = true;
    } else if (opt == "--stop-after") {
      if (!value(&v)) return false;
      if (!parseLong(v, 1, &a->stopAfter)) {
        std::fprintf(stderr, "nsdyn run: --stop-after %s: expected a step number >= 1\n", v);
        return false;
      }
    } else if (opt == "--on-failure") {
      if (!value(&v)) return false;
      a->onFailureGiven = true;
      if (!std::strcmp(v, "stop"))
        a->stopOnFailure = true;
      else if (!std::strcmp(v, "continue"))
        a->stopOnFailure = false;
      else {
        std::fprintf(stderr, "nsdyn run: --on-failure %s: expected stop or continue\n", v);
        return false;
      }
    } else if (opt == "--max-steps") {
      if (!value(&v)) return false;
      if (!parseCount(v, &a->maxSteps)) {
        std::fprintf(stderr,
                     "nsdyn run: --max-steps %s: expected a number of steps >= 1 that fits in "
                     "64 bits\n",
                     v);
        return false;
      }
    } else if (opt == "--output-window") {
      if (!value(&v)) return false;
      if (!parseLong(v, 1, &a->outputWindow)) {
        std::fprintf(stderr, "nsdyn run: --output-window %s: expected a number of rows >= 1\n", v);
        return false;
      }
    } else if (opt == "--rebalance-every") {
      if (!value(&v)) return false;
      if (!parseLong(v, 1, &a->rebalanceEvery)) {
        std::fprintf(stderr, "nsdyn run: --rebalance-every %s: expected a number of steps >= 1\n",
                     v);
        return false;
      }
    } else if (opt == "--dump-problems") {
      if (!value(&v)) return false;
      if (!parseSteps(v, &a->dumpSteps)) {
        std::fprintf(
            stderr,
            "nsdyn run: --dump-problems %s: expected steps >= 1 and ranges, e.g. 1,5,10-20 "
            "(at most 100000 steps)\n",
            v);
        return false;
      }
    } else if (opt == "--set") {
      if (!value(&v)) return false;
      const char* eq = std::strchr(v, '=');
      io::ParameterOverride o;
      if (eq) {
        o.name = std::string(v, static_cast<std::size_t>(eq - v));
        o.value = eq + 1;
      }
      if (!eq || o.name.empty() || o.value.empty()) {
        std::fprintf(stderr, "nsdyn run: --set %s: expected NAME=VALUE (a <parameter> name)\n", v);
        return false;
      }
      for (const io::ParameterOverride& seen : a->overrides)
        if (seen.name == o.name) {
          std::fprintf(stderr, "nsdyn run: --set %s: %s is already set (--set %s=%s)\n", v,
                       o.name.c_str(), seen.name.c_str(), seen.value.c_str());
          return false;
        }
      a->overrides.push_back(std::move(o));
    } else if (!opt.empty() && opt[0] == '-') {
      std::fprintf(stderr, "nsdyn run: unknown option %s\n%s", opt.c_str(), runUsage());
      return false;
    } else if (a->model.empty()) {
      a->model = opt;
    } else {
      std::fprintf(stderr, "nsdyn run: more than one MODEL (%s, %s)\n", a->model.c_str(),
                   opt.c_str());
      return false;
    }
  }
  if (a->model.empty()) {
    std::fprintf(stderr, "nsdyn run: no MODEL.xml given\n%s", runUsage());
    return false;
  }
  return true;
}

std::string duration(double seconds) {
  char buf[48];
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  else if (seconds < 3600)
    std::snprintf(buf, sizeof buf, "%d min %02d s", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
  else
    std::snprintf(buf, sizeof buf, "%d h %02d min", static_cast<int>(seconds) / 3600,
                  (static_cast<int>(seconds) / 60) % 60);
  return buf;
}

// The parameters set by --set, as loaded: "  parameters set:   T = 0.2 (file: 2), ...".
void printOverrides(const io::LoadedModel& run) {
  if (run.overrides.empty()) return;
  std::string list;
  for (const io::ParameterOverride& o : run.overrides) {
    char number[32];
    for (int digits = 6; digits <= 17; ++digits) {  // the shortest text of the same double
      std::snprintf(number, sizeof number, "%.*g", digits, o.number);
      if (std::strtod(number, nullptr) == o.number) break;
    }
    list += (list.empty() ? "" : ", ") + o.name + " = " + number;
    if (o.value != number) list += " ('" + o.value + "')";
    list += " (file: " + o.fileValue + ")";
  }
  std::printf("  parameters set (--set):  %s\n", list.c_str());
}

int mpiLauncherSize() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"}) {
    const char* v = std::getenv(name);
    if (!v) continue;
    const long n = std::strtol(v, nullptr, 10);
    return n > 0 ? static_cast<int>(n) : 1;
  }
  return std::getenv("PMIX_RANK") ? 1 : 0;
}

}  // namespace nsdyn::cli
