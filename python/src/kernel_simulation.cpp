// Kernel bindings: time discretisation, integrators, one-step problems, simulations, Model.
#include "kernel_helpers.hpp"

namespace nsdpy {

using namespace nsdyn;
using namespace kernel_detail;

void initKernelSimulation(py::module_& m) {
  // ---- simulation ------------------------------------------------------------------------
  py::class_<TimeDiscretisation, std::shared_ptr<TimeDiscretisation>>(m, "TimeDiscretisation")
      .def(py::init([](py::handle t0, py::handle h) {
             return std::make_shared<TimeDiscretisation>(toReal(t0, "TimeDiscretisation: t0"),
                                                         toReal(h, "TimeDiscretisation: h"));
           }),
           py::arg("t0"), py::arg("h"))
      .def("t0", &TimeDiscretisation::t0)
      .def("h", &TimeDiscretisation::h)
      .def("currentTimeStep", &TimeDiscretisation::currentTimeStep);

  py::class_<OneStepIntegrator, std::shared_ptr<OneStepIntegrator>>(m, "OneStepIntegrator")
      .def("className", &OneStepIntegrator::className)
      .def("theta", &OneStepIntegrator::theta)
      .def("setTheta", &OneStepIntegrator::setTheta)
      .def("insertDynamicalSystem", &OneStepIntegrator::insertDynamicalSystem);
  py::class_<MoreauJeanOSI, OneStepIntegrator, std::shared_ptr<MoreauJeanOSI>>(m, "MoreauJeanOSI")
      .def(py::init([](py::handle theta) {
             return std::make_shared<MoreauJeanOSI>(toReal(theta, "MoreauJeanOSI: theta"));
           }),
           py::arg("theta") = 0.5)
      .def("setConstraintsAtMidpoint", &MoreauJeanOSI::setConstraintsAtMidpoint);
  py::class_<EulerMoreauOSI, OneStepIntegrator, std::shared_ptr<EulerMoreauOSI>>(m,
                                                                                 "EulerMoreauOSI")
      .def(py::init([](py::handle theta) {
             return std::make_shared<EulerMoreauOSI>(toReal(theta, "EulerMoreauOSI: theta"));
           }),
           py::arg("theta") = 0.5);
  py::class_<CvodeOSI, OneStepIntegrator, std::shared_ptr<CvodeOSI>>(m, "CvodeOSI")
      .def(py::init<>());
  m.attr("LsodarOSI") = m.attr("CvodeOSI");

  py::class_<OneStepNSProblem, std::shared_ptr<OneStepNSProblem>>(m, "OneStepNSProblem")
      .def("className", &OneStepNSProblem::className)
      .def("solverName", &OneStepNSProblem::solverName)
      .def("setSolverName",
           [](OneStepNSProblem& p, const std::string& name) {
             if (!nsd_solver_find(p.numericsKind(), name.c_str()))
               badInput("solver: no solver '" + name + "' for " + nsd_kind_name(p.numericsKind()) +
                        " problems");
             p.setSolverName(name);
           })
      .def("setTolerance",
           [](OneStepNSProblem& p, double t) { setOption(p, "tolerance", py::float_(t)); })
      .def("setTol",
           [](OneStepNSProblem& p, double t) { setOption(p, "tolerance", py::float_(t)); })
      .def("setMaxIter",
           [](OneStepNSProblem& p, int n) { setOption(p, "max_iterations", py::int_(n)); })
      .def("setOption", &setOption, py::arg("name"), py::arg("value"),
           "an option of the option table, checked against the solver (nsd_solver_option_set)")
      .def("setOptions",
           [](OneStepNSProblem& p, py::kwargs kw) {
             for (auto item : kw) setOption(p, py::str(item.first), item.second);
           })
      .def("option",
           [](const OneStepNSProblem& p, const std::string& name) {
             const NsdOptionEntry* e = nsd_option_find(name.c_str());
             if (!e) badInput("option: no option named '" + name + "'");
             return nsd_option_value(&p.options(), e);
           })
      .def("setWarmStart", &OneStepNSProblem::setWarmStart)
      .def("lastLambda", [](const OneStepNSProblem& p) { return toNumpy(p.lastLambda()); })
      .def("lastW", [](const OneStepNSProblem& p) { return toNumpy(p.lastW()); })
      .def("lastQ", [](const OneStepNSProblem& p) { return toNumpy(p.lastQ()); })
      .def("lastMatrix", [](const OneStepNSProblem& p) { return toNumpy(p.lastMatrix()); });
  py::class_<LCP, OneStepNSProblem, std::shared_ptr<LCP>>(m, "LCP").def(
      py::init([](const std::string& solver) {
        if (!nsd_solver_find(NSD_KIND_LCP, solver.c_str()))
          badInput("solver: no LCP solver '" + solver + "'");
        return std::make_shared<LCP>(solver);
      }),
      py::arg("solver") = "lemke");
  py::class_<MLCP, OneStepNSProblem, std::shared_ptr<MLCP>>(m, "MLCP").def(
      py::init(
          [](py::handle solver) { return std::make_shared<MLCP>(toText(solver, "MLCP: solver")); }),
      py::arg("solver") = "lemke");
  py::class_<Relay, OneStepNSProblem, std::shared_ptr<Relay>>(
      m, "Relay", "relay problem (RelayNSL), solved as an LCP")
      .def(py::init([](const std::string& solver) {
             if (!nsd_solver_find(NSD_KIND_LCP, solver.c_str()))
               badInput("solver: no LCP solver '" + solver + "'");
             return std::make_shared<Relay>(solver);
           }),
           py::arg("solver") = "lemke",
           "solver: the LCP solver of the reformulation (nsdyn.solvers('lcp'))");
  py::class_<FrictionContact, OneStepNSProblem, std::shared_ptr<FrictionContact>>(m,
                                                                                  "FrictionContact")
      .def(py::init([](py::handle dim, py::handle solver) {
             return std::make_shared<FrictionContact>(
                 static_cast<int>(toInteger(dim, "FrictionContact: dim", 2, 3)),
                 toText(solver, "FrictionContact: solver"));
           }),
           py::arg("dim") = 3, py::arg("solver") = "")
      .def("dim", &FrictionContact::dim);
  py::class_<RollingFrictionContact, OneStepNSProblem, std::shared_ptr<RollingFrictionContact>>(
      m, "RollingFrictionContact",
      "friction contact with rolling resistance over a ContactManager's contacts (Numerics "
      "rfc3d; the material's rolling length bounds the rolling moment)")
      .def(py::init([](py::handle solver) {
             const std::string name = toText(solver, "RollingFrictionContact: solver");
             if (!name.empty() && !nsd_solver_find(NSD_KIND_RFC3D, name.c_str()))
               badInput("RollingFrictionContact: solver: no rfc3d solver '" + name + "'");
             return std::make_shared<RollingFrictionContact>(name);
           }),
           py::arg("solver") = "", "solver: empty (nsgs) or a name of nsdyn.solvers('rfc3d')");

  py::class_<Simulation, std::shared_ptr<Simulation>>(m, "Simulation")
      .def("insertIntegrator", &Simulation::insertIntegrator)
      .def("insertNonSmoothProblem", &Simulation::insertNonSmoothProblem)
      .def("oneStepNSProblem", &Simulation::oneStepNSProblem)
      .def("integrators", &Simulation::integrators)
      .def("currentStep", &Simulation::currentStep)
      .def("startingTime", &Simulation::startingTime)
      .def("nextTime", &Simulation::nextTime)
      .def("currentTime", &Simulation::currentTime)
      .def("timeStep", &Simulation::timeStep)
      .def("hasNextEvent", &Simulation::hasNextEvent)
      .def("computeOneStep", &Simulation::computeOneStep)
      .def("nextStep", &Simulation::nextStep)
      .def("run", &runSimulation, py::arg("steps") = py::none(), py::arg("callback") = py::none(),
           "steps until T (steps=None) or `steps` steps (an integer >= 0), callback() after each; "
           "Ctrl-C stops between steps; nsdyn.Error before model.initialize(simulation)")
      .def("lastStatistics", [](const Simulation& s) { return statisticsDict(s.lastStatistics()); })
      .def(
          "statistics",
          [](const Simulation& s) {
            py::list out;
            for (const StepStatistics& st : s.statistics()) out.append(statisticsDict(st));
            return out;
          },
          "the statistics kept of the last steps, oldest first (statisticsHistory())")
      .def(
          "setStatisticsHistory",
          [](Simulation& s, py::handle steps) {
            s.setStatisticsHistory(static_cast<std::size_t>(
                toInteger(steps, "Simulation.setStatisticsHistory: steps", 0, kMaxHistory)));
          },
          py::arg("steps"),
          "how many steps statistics() keeps: the last `steps` (at most twice that between "
          "trims); 0: every step, memory growing with the run (default 1000)")
      .def("statisticsHistory", &Simulation::statisticsHistory)
      .def("isInitialized", &Simulation::isInitialized);
  py::class_<TimeStepping, Simulation, std::shared_ptr<TimeStepping>>(m, "TimeStepping")
      .def(py::init([](SP::TimeDiscretisation td, SP::OneStepIntegrator osi,
                       SP::OneStepNSProblem problem, py::handle history) {
             if (!td) throw py::type_error("td: expected a TimeDiscretisation, found None");
             const auto keep = static_cast<std::size_t>(
                 toInteger(history, "TimeStepping: statistics_history", 0, kMaxHistory));
             std::shared_ptr<TimeStepping> ts;
             if (osi && problem) {
               ts = std::make_shared<TimeStepping>(td, osi, problem);
             } else {
               ts = std::make_shared<TimeStepping>(td);
               if (osi) ts->insertIntegrator(osi);
               if (problem) ts->insertNonSmoothProblem(problem);
             }
             ts->setStatisticsHistory(keep);
             return ts;
           }),
           py::arg("td"), py::arg("osi") = nullptr, py::arg("problem") = nullptr, py::kw_only(),
           py::arg("statistics_history") = kDefaultHistory,
           "statistics_history: steps whose statistics are kept (statistics(); 0: all)")
      .def("setNewtonTolerance", &TimeStepping::setNewtonTolerance)
      .def("setNewtonMaxIteration", &TimeStepping::setNewtonMaxIteration);
  py::class_<EventDriven, Simulation, std::shared_ptr<EventDriven>>(m, "EventDriven")
      .def(py::init([](SP::TimeDiscretisation td, SP::OneStepIntegrator osi,
                       SP::OneStepNSProblem impact, SP::OneStepNSProblem acceleration,
                       py::handle history) {
             if (!td) throw py::type_error("td: expected a TimeDiscretisation, found None");
             const auto keep = static_cast<std::size_t>(
                 toInteger(history, "EventDriven: statistics_history", 0, kMaxHistory));
             auto ed = osi ? std::make_shared<EventDriven>(td, osi, impact, acceleration)
                           : std::make_shared<EventDriven>(td);
             ed->setStatisticsHistory(keep);
             return ed;
           }),
           py::arg("td"), py::arg("osi") = nullptr, py::arg("impact") = nullptr,
           py::arg("acceleration") = nullptr, py::kw_only(),
           py::arg("statistics_history") = kDefaultHistory,
           "statistics_history: steps whose statistics are kept (statistics(); 0: all)")
      .def("setImpactProblem", &EventDriven::setImpactProblem)
      .def("setAccelerationProblem", &EventDriven::setAccelerationProblem)
      .def("numberOfEvents", &EventDriven::numberOfEvents)
      .def("numberOfImpacts", &EventDriven::numberOfImpacts)
      .def("statusMessage", &EventDriven::statusMessage);

  py::class_<Model, std::shared_ptr<Model>>(m, "Model")
      .def(py::init([](py::handle t0, py::handle T) {
             return std::make_shared<Model>(toReal(t0, "Model: t0"), toReal(T, "Model: T"));
           }),
           py::arg("t0"), py::arg("T"))
      .def("nonSmoothDynamicalSystem", &Model::nonSmoothDynamicalSystem)
      .def("t0", &Model::t0)
      .def("finalT", &Model::finalT)
      .def("setFinalT", &Model::setFinalT)
      .def("currentTime", &Model::currentTime)
      .def("simulation", &Model::simulation, py::keep_alive<0, 1>())
      // the simulation refers to its model by a plain pointer: it keeps the model alive
      .def("setSimulation", &Model::setSimulation, py::arg("simulation"), py::keep_alive<2, 1>())
      .def("initialize", py::overload_cast<>(&Model::initialize))
      .def("initialize", py::overload_cast<std::shared_ptr<Simulation>>(&Model::initialize),
           py::arg("simulation"), py::keep_alive<2, 1>());
}

}  // namespace nsdpy
