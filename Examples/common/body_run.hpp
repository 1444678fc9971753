/// @file body_run.hpp
/// @brief The time loop and the closing lines shared by the rigid-body examples.
#ifndef NSDYN_EXAMPLES_BODY_RUN_HPP
#define NSDYN_EXAMPLES_BODY_RUN_HPP

#include <functional>
#include <string>
#include <vector>

#include "body_vtk.hpp"
#include "example_utils.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/OneStepNSProblem.hpp"
#include "nsdyn/TimeStepping.hpp"

namespace nsdyn::examples {

/// The scheme of most rigid-body examples: MoreauJeanOSI(theta) on the grid
/// t0 + k h, Newton iterations to @p tolerance, at most @p maxIterations a step.
struct MoreauJeanNewton {
  double t0, h, theta;
  double tolerance;
  int maxIterations;
  bool midpointConstraints = false;  ///< MoreauJeanOSI::setConstraintsAtMidpoint
};

/// TimeStepping with @p scheme and @p problem (may be null); initialises @p model with it.
SP::TimeStepping makeMoreauJeanNewton(Model& model, const MoreauJeanNewton& scheme,
                                      const SP::OneStepNSProblem& problem);

/// What runSteps() measured.
struct RunStatistics {
  int newtonMin = 1 << 30, newtonMax = 0;
  int newtonStopped = 0;  ///< steps whose Newton loop stopped at its maximum
  double wallSeconds = 0.0;
};

/// Called after each step with t = nextTime() and the step's statistics: the CSV row.
using StepCallback = std::function<void(double t, const StepStatistics& statistics)>;

/// The time loop: a VTK frame of the initial state, then @p steps times
/// computeOneStep(), @p onStep, a VTK frame every 10th step, nextStep(), progress.
RunStatistics runSteps(Simulation& sim, long steps, const ExampleOptions& opt, BodyVtkWriter& vtk,
                       const StepCallback& onStep);

/// `Newton iterations/step: MIN to MAX`, with @p countStopped ` (N steps stopped at the maximum)`.
void printNewtonRange(const RunStatistics& run, bool countStopped = false);

/// The plot of an example: title, curves, panel labels (see gnuplotPng()).
struct PlotSpec {
  std::string title;
  std::vector<PlotCurve> curves;
  std::vector<std::string> panels;
};

/// The closing summary lines: the CSV and its rows, the VTK index (written
/// now) and its frames, and unless --no-plot the plot DIR/NAME.png drawn from the CSV.
void printRunFooter(const ExampleOptions& opt, const std::string& name, const CsvWriter& csv,
                    BodyVtkWriter& vtk, const PlotSpec& plot);

}  // namespace nsdyn::examples

#endif
