// The command-line options shared by the rigid-body scene examples.
#include "scene_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/HalfSpaceShape.hpp"

namespace nsdyn::examples {

ShapeInstance instance(std::shared_ptr<const Shape> shape) {
  ShapeInstance i;
  i.shape = std::move(shape);
  return i;
}

BodyShapes groundPlane() {
  return makeStaticBody(
      {instance(std::make_shared<HalfSpaceShape>(Shape::Vec3{0.0, 0.0, 1.0}, 0.0))});
}

std::string shortNumber(double x) {
  char buf[64];
  const double ax = std::fabs(x);
  if (ax >= 0.01 && ax < 1e6) {
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
  }
  for (int digits = 0; digits < 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*e", digits, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  std::string s = buf;
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string exponent = s.substr(e + 1);
  const std::string sign = exponent[0] == '-' ? "-" : "";
  exponent.erase(0, exponent.find_first_not_of("+-"));
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return s.substr(0, e) + "e" + sign + exponent;
}

namespace {

/// One help line: "  FLAG" padded to 21 columns, then the text.
std::string helpLine(const std::string& flag, const std::string& text) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-18s %s\n", flag.c_str(), text.c_str());
  return buf;
}

}  // namespace

ExtraOption threadsOption(int& threads) {
  return {"--threads", "a thread count in [0, 1024]", [&threads](const char* v) {
            threads = std::atoi(v);
            return threads >= 0 && threads <= 1024;
          }};
}

std::string threadsHelp(int threads) {
  return helpLine("--threads N", "detection and solver threads (default " +
                                     std::to_string(threads) +
                                     (threads == 0 ? ": OpenMP default)" : "; 0: OpenMP default)"));
}

std::vector<ExtraOption> solverOptions(SolverChoice& choice, const SolverFlags& flags) {
  std::vector<ExtraOption> options{{"--solver",
                                    "a friction solver name (nsgs, apgd, psor, newton_ac, ...)",
                                    [&choice](const char* v) {
                                      choice.solver = v;
                                      return *v != 0;
                                    }}};
  if (flags.tolerance)
    options.push_back({"--tolerance", "a solver tolerance in (0, 1)", [&choice](const char* v) {
                         choice.tolerance = std::atof(v);
                         return choice.tolerance > 0.0 && choice.tolerance < 1.0;
                       }});
  if (!flags.iterations.empty()) {
    const int lo = flags.minIterations, hi = flags.maxIterations;
    options.push_back(
        {flags.iterations,
         "a solver iteration cap in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
         [&choice, lo, hi](const char* v) {
           choice.iterations = std::atoi(v);
           return choice.iterations >= lo && choice.iterations <= hi;
         }});
  }
  if (flags.shuffle) options.push_back(switchOption("--shuffle", choice.shuffle));
  options.push_back({"--fallback", "a friction solver name, or none", [&choice](const char* v) {
                       choice.fallback = std::string(v) == "none" ? "" : v;
                       return *v != 0;
                     }});
  options.push_back({"--mode", "tolerance or budget", [&choice](const char* v) {
                       const std::string mode = v;
                       choice.budget = mode == "budget";
                       return mode == "budget" || mode == "tolerance";
                     }});
  options.push_back({"--check-every", "a number of sweeps in [1, 1000]", [&choice](const char* v) {
                       choice.checkEvery = std::atoi(v);
                       return choice.checkEvery >= 1 && choice.checkEvery <= 1000;
                     }});
  options.push_back({"--anderson", "a number of differences in [0, 64]", [&choice](const char* v) {
                       char* end = nullptr;
                       const long m = std::strtol(v, &end, 10);
                       choice.anderson = static_cast<int>(m);
                       return end != v && *end == 0 && m >= 0 && m <= 64;
                     }});
  options.push_back({"--recovery", "on or off", [&choice](const char* v) {
                       const std::string on = v;
                       choice.recovery = on == "on";
                       return on == "on" || on == "off";
                     }});
  options.push_back({"--speculative", "on or off", [&choice](const char* v) {
                       const std::string on = v;
                       choice.speculative = on == "on";
                       return on == "on" || on == "off";
                     }});
  options.push_back(
      {"--recovery-iterations", "a number of sweeps in [1, 100000]", [&choice](const char* v) {
         choice.recoveryIterations = std::atoi(v);
         return choice.recoveryIterations >= 1 && choice.recoveryIterations <= 100000;
       }});
  options.push_back({"--recovery-tolerance", "a number in (0, 1]", [&choice](const char* v) {
                       char* end = nullptr;
                       choice.recoveryTolerance = std::strtod(v, &end);
                       return end != v && *end == 0 && choice.recoveryTolerance > 0.0 &&
                              choice.recoveryTolerance <= 1.0;
                     }});
  return options;
}

std::string solverHelp(const SolverChoice& defaults, const SolverFlags& flags) {
  std::string help = helpLine("--solver NAME", "friction solver (default " + defaults.solver + ")");
  if (flags.tolerance)
    help += helpLine("--tolerance E", "solver tolerance on the Siconos error (default " +
                                          shortNumber(defaults.tolerance) + ")");
  if (!flags.iterations.empty())
    help += helpLine(flags.iterations + " N",
                     "solver iteration cap (default " + std::to_string(defaults.iterations) + ")");
  if (flags.shuffle)
    help += helpLine("--shuffle", "NSGS visits the contacts in a new random order each sweep");
  help += helpLine("--fallback NAME",
                   "solver run from the first one's answer when it stops short (default " +
                       (defaults.fallback.empty() ? std::string("none") : defaults.fallback) + ")");
  help += helpLine("--mode M", std::string("tolerance (a step short of it fails) or budget (the "
                                           "cap is the step's budget, its residual reported; "
                                           "no fallback) (default ") +
                                   (defaults.budget ? "budget" : "tolerance") + ")");
  help += helpLine("--check-every K", "NSGS: the Siconos error every K sweeps (default " +
                                          std::to_string(defaults.checkEvery) + ")");
  help += helpLine("--anderson M",
                   "NSGS: Anderson acceleration of the sweeps over M differences, "
                   "0 off (default " +
                       std::to_string(defaults.anderson) + ")");
  help += helpLine("--recovery on|off", std::string("overlap recovery after each step (default ") +
                                            (defaults.recovery ? "on" : "off") + ")");
  help += helpLine("--speculative on|off",
                   std::string("speculative contacts: landings stop at the surface (default ") +
                       (defaults.speculative ? "on" : "off") + ")");
  help += helpLine("--recovery-iterations N",
                   "overlap recovery: Gauss-Seidel sweeps per step at most (default " +
                       std::to_string(defaults.recoveryIterations) + ")");
  help += helpLine("--recovery-tolerance E",
                   "overlap recovery: their stopping test on the Siconos error (default " +
                       shortNumber(defaults.recoveryTolerance) + ")");
  return help;
}

}  // namespace nsdyn::examples
