// What the two run loops of the scene examples write alike.
#include "scene_output.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace nsdyn::examples {

std::vector<std::string> sceneColumnNames(const SceneColumns& extra) {
  std::vector<std::string> columns{"t",        "kinetic", "potential",  "contact_work", "energy",
                                   "contacts", "active",  "iterations", "residual"};
  columns.insert(columns.end(), extra.names.begin(), extra.names.end());
  return columns;
}

std::vector<double> sceneRow(const std::vector<double>& shared, const SceneColumns& extra) {
  std::vector<double> row = shared;
  if (extra.values) {
    const std::vector<double> more = extra.values();
    row.insert(row.end(), more.begin(), more.end());
  }
  return row;
}

SceneProgress::SceneProgress(const std::string& name, long steps, bool quiet)
    : name_(name), steps_(steps), active_(!quiet), terminal_(isatty(fileno(stderr)) != 0) {}

void SceneProgress::update(long done, double t, double seconds, std::size_t contacts,
                           std::size_t active, int iterations) {
  if (!active_ || (seconds - last_ < 1.0 && done != steps_)) return;
  last_ = seconds;
  std::fprintf(stderr,
               "%s%s: step %ld/%ld  t = %.4g  %.1f steps/s  contacts %zu (active %zu)  "
               "iterations %d%s",
               terminal_ ? "\r" : "", name_.c_str(), done, steps_, t,
               static_cast<double>(done) / std::max(seconds, 1e-9), contacts, active, iterations,
               terminal_ ? "   " : "\n");
}

void SceneProgress::finish() {
  if (active_ && terminal_) std::fprintf(stderr, "\n");
}

int finishSceneFiles(const SceneRunResult& run, const ExampleOptions& opt, const std::string& name,
                     const std::string& plotTitle, const std::vector<PlotCurve>& curves,
                     const std::vector<std::string>& panels) {
  const std::string csv = joinPath(opt.outputDir, name + ".csv");
  std::printf("  csv:                     %s\n", csv.c_str());
  std::printf("  hdf5:                    %s\n", joinPath(opt.outputDir, name + ".hdf5").c_str());
  std::printf("  vtk:                     %s, %s\n",
              joinPath(opt.outputDir, name + "_bodies.pvd").c_str(),
              joinPath(opt.outputDir, name + "_contacts.pvd").c_str());
  if (opt.plot) {
    const std::string png = joinPath(opt.outputDir, name + ".png");
    const bool ok = gnuplotPng(csv, png, plotTitle, curves, panels);
    std::printf("  plot:                    %s\n",
                ok ? png.c_str() : "not drawn (gnuplot missing or failed)");
  }
  if (run.failedSteps > 0) {
    std::fprintf(
        stderr, "%s: %ld of %ld friction solves did not converge, the first at step %ld: %s\n",
        name.c_str(), run.failedSteps, run.steps, run.firstFailedStep, run.firstFailure.c_str());
    return 1;
  }
  return 0;
}

}  // namespace nsdyn::examples
