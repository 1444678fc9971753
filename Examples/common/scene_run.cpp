// The time loop, outputs and summary shared by the rigid-body scene examples.
#include "scene_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/MoreauJeanOSI.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/TimeDiscretisation.hpp"
#include "nsdyn/io/SceneHdf5Writer.hpp"
#include "nsdyn/io/SceneVtkWriter.hpp"

namespace nsdyn::examples {

Scene::Scene(double T, double h, const std::string& solver, double tolerance, const ContactManager::Options& options) {
  model = std::make_shared<Model>(0.0, T);
  problem = std::make_shared<FrictionContact>(3, solver);
  problem->optionsMutable().tolerance = tolerance;
  simulation = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), problem);
  contacts = std::make_shared<ContactManager>(options);
  simulation->insertInteractionManager(contacts);
}

ShapeInstance instance(std::shared_ptr<const Shape> shape) {
  ShapeInstance i;
  i.shape = std::move(shape);
  return i;
}

BodyShapes groundPlane() {
  return makeStaticBody({instance(std::make_shared<HalfSpaceShape>(Shape::Vec3{0.0, 0.0, 1.0}, 0.0))});
}

Scene::Scene(double T, double h, const SolverChoice& solver, const ContactManager::Options& options)
    : Scene(T, h, solver.solver, solver.tolerance, options) {
  applySolverChoice(solver, *problem);
}

std::vector<ExtraOption> solverOptions(SolverChoice& choice, const SolverFlags& flags) {
  std::vector<ExtraOption> options{{"--solver", "a friction solver name (nsgs, apgd, psor, newton_ac, ...)",
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
    options.push_back({flags.iterations,
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
  return options;
}

namespace {

/// The shortest %e form of @p x that reads back as @p x, without the exponent's
/// leading zeros (1e-4, 2.5e-3); %g from 0.01 to 10^6 (1000, 0.5).
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
  return helpLine("--threads N", "detection and solver threads (default " + std::to_string(threads) +
                                     (threads == 0 ? ": OpenMP default)" : "; 0: OpenMP default)"));
}

std::string solverHelp(const SolverChoice& defaults, const SolverFlags& flags) {
  std::string help = helpLine("--solver NAME", "friction solver (default " + defaults.solver + ")");
  if (flags.tolerance)
    help += helpLine("--tolerance E",
                     "solver tolerance on the Siconos error (default " + shortNumber(defaults.tolerance) + ")");
  if (!flags.iterations.empty())
    help += helpLine(flags.iterations + " N",
                     "solver iteration cap (default " + std::to_string(defaults.iterations) + ")");
  if (flags.shuffle) help += helpLine("--shuffle", "NSGS visits the contacts in a new random order each sweep");
  help += helpLine("--fallback NAME", "solver run from the first one's answer when it stops short (default " +
                                          (defaults.fallback.empty() ? std::string("none") : defaults.fallback) + ")");
  return help;
}

void applySolverChoice(const SolverChoice& choice, FrictionContact& problem) {
  problem.setSolverName(choice.solver);
  NsdSolverOptions& options = problem.optionsMutable();
  options.tolerance = choice.tolerance;
  options.max_iterations = choice.iterations;
  options.nsgs.shuffle = choice.shuffle ? 1 : 0;
  problem.setFallbackSolver(choice.fallback);
}

std::size_t Scene::addBody(BodyShapes body, int group) {
  if (!body.isStatic()) body.body()->setFExt(SiconosVector({0.0, 0.0, -body.body()->scalarMass() * gravity}));
  return contacts->addBody(*model->nonSmoothDynamicalSystem(), std::move(body), group);
}

std::size_t Scene::addParts(std::vector<scenes::StaticPart> parts, int group) {
  for (scenes::StaticPart& part : parts) addBody(std::move(part.body), group);
  return parts.size();
}

void Scene::setThreads(int threads) {
  problem->optionsMutable().threads = threads;
  contacts->setThreads(threads);
}

void Scene::initialize() { model->initialize(simulation); }

namespace {

struct Energy {
  double kinetic = 0.0, potential = 0.0;
};

Energy energyOf(const ContactManager& contacts, double t) {
  Energy e;
  for (const BodyShapes& b : contacts.bodies()) {
    if (b.isStatic()) continue;
    e.kinetic += b.body()->kineticEnergy();
    e.potential += b.body()->potentialEnergy(t);
  }
  return e;
}

}  // namespace

SceneRunResult runScene(Scene& scene, long steps, const ExampleOptions& opt, const std::string& name,
                        const SceneColumns& extra, int vtkEvery) {
  TimeStepping& sim = *scene.simulation;
  ContactManager& contacts = *scene.contacts;
  std::vector<std::string> columns{"t",        "kinetic", "potential",  "contact_work", "energy",
                                   "contacts", "active",  "iterations", "residual"};
  columns.insert(columns.end(), extra.names.begin(), extra.names.end());
  CsvWriter csv(joinPath(opt.outputDir, name + ".csv"), columns);
  io::SceneVtkWriter vtk(opt.outputDir, name);
  io::SceneHdf5Writer hdf5(joinPath(opt.outputDir, name + ".hdf5"), sim.timeStep());
  const double h = sim.timeStep();

  double work = 0.0;
  auto row = [&](double t, const StepStatistics* st) {
    const Energy e = energyOf(contacts, t);
    std::vector<double> r{t,
                          e.kinetic,
                          e.potential,
                          work,
                          e.kinetic + e.potential,
                          static_cast<double>(contacts.contacts().size()),
                          static_cast<double>(st ? st->activeRelations : 0),
                          static_cast<double>(st ? st->iterations : 0),
                          st ? st->residual : 0.0};
    if (extra.values) {
      const std::vector<double> more = extra.values();
      r.insert(r.end(), more.begin(), more.end());
    }
    csv.row(r);
    return e;
  };
  auto frame = [&](double t, const StepStatistics* st, const Energy& e) {
    vtk.writeFrame(t, h, contacts.bodies(), contacts.contacts());
    hdf5.writeStep(t, contacts.bodies(), contacts.contacts());
    hdf5.writeSolver(t, st ? st->iterations : 0, st ? st->residual : 0.0);
    hdf5.writeEnergy(t, e.kinetic, e.potential, work, e.kinetic + e.potential);
  };

  SceneRunResult run;
  const Energy e0 = row(sim.startingTime(), nullptr);
  frame(sim.startingTime(), nullptr, e0);
  WallClock clock;
  const bool progress = !opt.quiet;
  const bool terminal = isatty(fileno(stderr)) != 0;
  double lastReport = 0.0;
  for (long k = 0; k < steps; ++k) {
    sim.computeOneStep();
    const double t = sim.nextTime();
    const StepStatistics& st = sim.lastStatistics();
    work += contacts.statistics().contactWork;
    run.steps = k + 1;
    run.maxContacts = std::max(run.maxContacts, contacts.contacts().size());
    run.detectionSeconds += contacts.statistics().detectionSeconds;
    run.solverSeconds += st.seconds;
    run.solverIterations += st.iterations;
    run.maxResidual = std::max(run.maxResidual, st.residual);
    run.fallbackSteps += st.fallbacks;
    if (st.solved && st.status != NSD_OK) {
      if (run.failedSteps == 0) {
        run.firstFailedStep = st.step;
        run.firstFailure = st.message;
      }
      ++run.failedSteps;
    }
    const Energy e = row(t, &st);
    if ((k + 1) % vtkEvery == 0 || k + 1 == steps) frame(t, &st, e);
    sim.nextStep();
    const double now = clock.seconds();
    if (progress && (now - lastReport >= 1.0 || k + 1 == steps)) {
      lastReport = now;
      std::fprintf(stderr, "%s%s: step %ld/%ld  t = %.4g  %.1f steps/s  contacts %zu (active %zu)  iterations %d%s",
                   terminal ? "\r" : "", name.c_str(), k + 1, steps, t, (k + 1) / std::max(now, 1e-9),
                   contacts.contacts().size(), st.activeRelations, st.iterations, terminal ? "   " : "\n");
    }
  }
  if (progress && terminal) std::fprintf(stderr, "\n");
  run.wallSeconds = clock.seconds();
  vtk.finish();
  hdf5.close();
  return run;
}

int finishScene(const Scene& scene, const SceneRunResult& run, const ExampleOptions& opt, const std::string& name,
                const std::string& plotTitle, const std::vector<PlotCurve>& curves,
                const std::vector<std::string>& panels) {
  const ContactManager& contacts = *scene.contacts;
  std::size_t dynamic = 0;
  for (const BodyShapes& b : contacts.bodies()) dynamic += b.isStatic() ? 0 : 1;
  std::printf("%s: %zu bodies (%zu static), %ld steps of h = %g with %s\n", name.c_str(), contacts.bodies().size(),
              contacts.bodies().size() - dynamic, run.steps, scene.simulation->timeStep(),
              scene.problem->solverName().c_str());
  std::printf("  contacts:                at most %zu, last step %zu\n", run.maxContacts, contacts.contacts().size());
  std::printf("  solver:                  %ld iterations in all, max residual %.3g, %ld failed steps%s\n",
              run.solverIterations, run.maxResidual, run.failedSteps,
              run.fallbackSteps > 0 ? (", " + std::to_string(run.fallbackSteps) + " solved by the fallback").c_str() : "");
  const double perStep = run.steps > 0 ? run.wallSeconds / run.steps : 0.0;
  std::printf("  time:                    %.3f s (%.3g ms/step; detection %.0f%%, solver %.0f%%)\n", run.wallSeconds,
              1e3 * perStep, run.wallSeconds > 0 ? 100.0 * run.detectionSeconds / run.wallSeconds : 0.0,
              run.wallSeconds > 0 ? 100.0 * run.solverSeconds / run.wallSeconds : 0.0);
  const std::string csv = joinPath(opt.outputDir, name + ".csv");
  std::printf("  csv:                     %s\n", csv.c_str());
  std::printf("  hdf5:                    %s\n", joinPath(opt.outputDir, name + ".hdf5").c_str());
  std::printf("  vtk:                     %s, %s\n", joinPath(opt.outputDir, name + "_bodies.pvd").c_str(),
              joinPath(opt.outputDir, name + "_contacts.pvd").c_str());
  if (opt.plot) {
    const std::string png = joinPath(opt.outputDir, name + ".png");
    const bool ok = gnuplotPng(csv, png, plotTitle, curves, panels);
    std::printf("  plot:                    %s\n", ok ? png.c_str() : "not drawn (gnuplot missing or failed)");
  }
  if (run.failedSteps > 0) {
    std::fprintf(stderr, "%s: %ld of %ld friction solves did not converge, the first at step %ld: %s\n", name.c_str(),
                 run.failedSteps, run.steps, run.firstFailedStep, run.firstFailure.c_str());
    return 1;
  }
  return 0;
}

}  // namespace nsdyn::examples
