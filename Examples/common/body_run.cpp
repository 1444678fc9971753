// The time loop and the closing lines shared by the rigid-body examples.
#include "body_run.hpp"

#include <algorithm>
#include <cstdio>

#include "nsdyn/MoreauJeanOSI.hpp"
#include "nsdyn/TimeDiscretisation.hpp"

namespace nsdyn::examples {

SP::TimeStepping makeMoreauJeanNewton(Model& model, const MoreauJeanNewton& scheme,
                                      const SP::OneStepNSProblem& problem) {
  auto osi = std::make_shared<MoreauJeanOSI>(scheme.theta);
  osi->setConstraintsAtMidpoint(scheme.midpointConstraints);
  auto sim = std::make_shared<TimeStepping>(
      std::make_shared<TimeDiscretisation>(scheme.t0, scheme.h), osi, problem);
  sim->setNewtonTolerance(scheme.tolerance);
  sim->setNewtonMaxIteration(scheme.maxIterations);
  model.initialize(sim);
  return sim;
}

RunStatistics runSteps(Simulation& sim, long steps, const ExampleOptions& opt, BodyVtkWriter& vtk,
                       const StepCallback& onStep) {
  vtk.frame(sim.startingTime());
  RunStatistics run;
  WallClock clock;
  Progress progress(steps, opt.quiet);
  for (long k = 0; k < steps; ++k) {
    sim.computeOneStep();
    const double t = sim.nextTime();
    const StepStatistics& st = sim.lastStatistics();
    run.newtonMin = std::min(run.newtonMin, st.newtonIterations);
    run.newtonMax = std::max(run.newtonMax, st.newtonIterations);
    if (!st.newtonConverged) ++run.newtonStopped;
    onStep(t, st);
    if ((k + 1) % 10 == 0) vtk.frame(t);
    sim.nextStep();
    progress.update(k + 1);
  }
  progress.finish();
  run.wallSeconds = clock.seconds();
  return run;
}

void printNewtonRange(const RunStatistics& run, bool countStopped) {
  if (countStopped)
    std::printf("  Newton iterations/step:  %d to %d (%d steps stopped at the maximum)\n",
                run.newtonMin, run.newtonMax, run.newtonStopped);
  else
    std::printf("  Newton iterations/step:  %d to %d\n", run.newtonMin, run.newtonMax);
}

void printRunFooter(const ExampleOptions& opt, const std::string& name, const CsvWriter& csv,
                    BodyVtkWriter& vtk, const PlotSpec& plot) {
  std::printf("  csv:                     %s (%zu rows)\n", csv.path().c_str(), csv.rows());
  const std::string pvd = vtk.finish();
  std::printf("  vtk:                     %s (%zu frames)\n", pvd.c_str(), vtk.frames());
  if (!opt.plot) return;
  const std::string png = joinPath(opt.outputDir, name + ".png");
  const bool ok = gnuplotPng(csv.path(), png, plot.title, plot.curves, plot.panels);
  std::printf("  plot:                    %s\n",
              ok ? png.c_str() : "not drawn (is gnuplot installed?)");
}

}  // namespace nsdyn::examples
