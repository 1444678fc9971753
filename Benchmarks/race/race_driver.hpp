// race_driver.hpp: what every driver of the race shares: its options, the loop that times
// the steps (wall clock, one thread) and hands the bodies after each step to the shared
// Tracker (race_quality.hpp), and the CSV row.
//
//   DRIVER --scene NAME [--state FILE] [--quick] [--steps K] --budgets B1,B2,.. [--csv FILE]
//          [--series-dir DIR] [--solver S] [engine options]
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "race_quality.hpp"
#include "race_scenes.hpp"

namespace race {

struct Args {
  std::map<std::string, std::string> kv;
  bool quick = false;
  Args(int argc, char** argv, const std::vector<std::string>& known, const char* usage) {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--quick") {
        quick = true;
        continue;
      }
      if (a.rfind("--", 0) != 0 || i + 1 >= argc ||
          std::find(known.begin(), known.end(), a.substr(2)) == known.end()) {
        std::fprintf(stderr, "%s: bad option '%s'\n%s", argv[0], a.c_str(), usage);
        std::exit(2);
      }
      kv[a.substr(2)] = argv[++i];
    }
  }
  std::string get(const std::string& k, const std::string& dflt) const {
    auto it = kv.find(k);
    return it == kv.end() ? dflt : it->second;
  }
  std::vector<double> list(const std::string& k, const std::string& dflt) const {
    std::vector<double> out;
    std::stringstream in(get(k, dflt));
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(std::atof(item.c_str()));
    return out;
  }
};

/// The common options of every driver.
inline const std::vector<std::string>& commonOptions() {
  static const std::vector<std::string> o{"scene", "state",      "steps", "budgets",
                                          "csv",   "series-dir", "solver"};
  return o;
}

struct LoopResult {
  double msStep = 0;
  Measures m;
};

/// Runs @p s.steps steps: step() (timed; returns the Siconos error of the step or -1) then
/// read(bodies) (untimed: the poses and velocities after the step into the scene's bodies).
template <class StepFn, class ReadFn>
LoopResult runLoop(const Scene& s, const std::string& seriesPath, StepFn step, ReadFn read) {
  Tracker t(s.planes, s.planes.empty() ? 0.0 : s.planes.front().d, s.driftFrom, seriesPath);
  t.setFixed(s.fixed);
  std::vector<Body> bodies = s.bodies;
  t.start(bodies);
  double seconds = 0.0;
  for (long k = 0; k < s.steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    const double err = step();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    read(bodies);
    t.step(bodies, (k + 1) * s.h, err);
  }
  LoopResult r;
  r.msStep = 1e3 * seconds / static_cast<double>(std::max<long>(s.steps, 1));
  r.m = t.finish();
  return r;
}

/// The series file of one run under --series-dir (empty: none).
inline std::string seriesPath(const Args& a, const std::string& scene, const std::string& engine,
                              const std::string& solver, double budget) {
  const std::string dir = a.get("series-dir", "");
  if (dir.empty()) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", budget);
  return dir + "/" + scene + "_" + engine + "_" + solver + "_" + buf + ".csv";
}

}  // namespace race
