// race_measure: the race's quality code (race_quality.hpp) for engines run outside a C++
// driver (race_siconos.py): writes a scene for them, then measures the positions they wrote
// after each step, the same way every C++ driver is measured, into the same CSV.
//
//   race_measure --scene NAME [--state FILE] [--quick] [--steps K] --dump-scene FILE
//   race_measure --scene NAME [--state FILE] [--quick] [--steps K] --positions FILE
//                --engine E --solver S --budget-kind iterations|tolerance --budget B
//                [--failed-steps F] [--settings TEXT] [--csv FILE] [--series-dir DIR]
//
// Formats: race_positions.hpp. Exit status: 0 done, 2 usage, 3 bad input (a scene, state or
// positions file: the message names the file and line), 4 a file not writable.
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "race_positions.hpp"

namespace {

constexpr const char* kUsage =
    "usage: race_measure --scene NAME [--state FILE] [--quick] [--steps K] --dump-scene FILE\n"
    "       race_measure --scene NAME [--state FILE] [--quick] [--steps K] --positions FILE\n"
    "                    --engine E --solver S --budget-kind iterations|tolerance --budget B\n"
    "                    [--failed-steps F] [--settings TEXT] [--csv FILE] [--series-dir DIR]\n";

struct Unwritable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> known = race::commonOptions();
  known.insert(known.end(), {"dump-scene", "positions", "engine", "budget-kind", "budget",
                             "failed-steps", "settings"});
  const race::Args a(argc, argv, known, kUsage);
  const std::string dump = a.get("dump-scene", ""), positions = a.get("positions", "");
  if (a.get("scene", "").empty() || dump.empty() == positions.empty()) {
    std::fprintf(stderr, "race_measure: --scene and one of --dump-scene, --positions\n%s", kUsage);
    return 2;
  }
  const std::string kind = a.get("budget-kind", "");
  if (!positions.empty() && (a.get("engine", "").empty() || a.get("budget", "").empty() ||
                             (kind != "iterations" && kind != "tolerance"))) {
    std::fprintf(stderr,
                 "race_measure: --positions needs --engine, --budget and --budget-kind "
                 "iterations|tolerance\n%s",
                 kUsage);
    return 2;
  }
  try {
    const race::Scene s = race::makeScene(a.get("scene", ""), a.get("state", ""), a.quick,
                                          std::atol(a.get("steps", "0").c_str()));
    if (!dump.empty()) {
      const std::string part = dump + ".part";
      {
        std::ofstream out(part);
        race::writeScene(s, out);
        out.flush();
        if (!out) throw Unwritable("cannot write " + part);
      }
      if (std::rename(part.c_str(), dump.c_str()) != 0) throw Unwritable("cannot write " + dump);
      return 0;
    }
    const std::string engine = a.get("engine", ""), solver = a.get("solver", "");
    const double budget = std::atof(a.get("budget", "0").c_str());
    const race::PositionsResult r =
        race::measurePositions(s, positions, race::seriesPath(a, s.name, engine, solver, budget));
    race::Row row;
    row.scene = s.name;
    row.engine = engine;
    row.solver = solver;
    row.budgetKind = kind;
    row.budget = budget;
    row.bodies = s.bodies.size();
    row.h = s.h;
    row.msStep = r.loop.msStep;
    row.iterationsMean = r.iterationsMean;
    row.failedSteps = std::atol(a.get("failed-steps", "-1").c_str());
    row.m = r.loop.m;
    row.settings = a.get("settings", "");
    try {
      race::writeRow(a.get("csv", "race.csv"), row);
    } catch (const std::runtime_error& e) {
      throw Unwritable(e.what());
    }
    return 0;
  } catch (const Unwritable& e) {
    std::fprintf(stderr, "race_measure: %s\n", e.what());
    return 4;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "race_measure: %s\n", e.what());
    return 3;
  }
}
