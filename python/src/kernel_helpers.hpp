// Helpers shared by the Kernel bindings (kernel*.cpp): argument conversion with named errors,
// statistics as dicts, the run loop with its callback, options by name. Internal to the module.
#ifndef NSDPY_KERNEL_HELPERS_HPP
#define NSDPY_KERNEL_HELPERS_HPP

#include <nsdyn/Kernel.hpp>

#include "bindings.hpp"

namespace nsdpy {

/// The Kernel bindings in registration order (bases before derived classes).
void initKernelSystems(py::module_& m);
void initKernelRelations(py::module_& m);
void initKernelSimulation(py::module_& m);

namespace kernel_detail {

using namespace nsdyn;

/// mass: a matrix, a vector (the diagonal) or a number times the identity of size n.
inline SimpleMatrix massOf(py::handle mass, std::size_t n, const std::string& arg) {
  if (py::isinstance<py::float_>(mass) || py::isinstance<py::int_>(mass)) {
    SimpleMatrix m = SimpleMatrix::identity(n);
    m *= mass.cast<double>();
    return m;
  }
  Array a = readArray(mass, arg);
  if (a.shape.size() == 1)
    return SimpleMatrix::diagonal(toSiconosVector(mass, arg, static_cast<py::ssize_t>(n)));
  return toSimpleMatrix(mass, arg, static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(n), false);
}

inline void setVector(SiconosVector& target, py::handle value, const std::string& arg) {
  target = toSiconosVector(value, arg, static_cast<py::ssize_t>(target.size()));
}

/// A Python function (q, v, t) -> vector of size n.
inline LagrangianDS::InternalForcesFunction qvtVector(py::function f, const std::string& arg,
                                                      std::size_t n) {
  return [f, arg, n](const SiconosVector& q, const SiconosVector& v, double t) {
    py::gil_scoped_acquire gil;
    py::object r = f(toNumpy(q), toNumpy(v), t);
    return toSiconosVector(r, arg + " (value returned by the callable)",
                           static_cast<py::ssize_t>(n));
  };
}

inline LagrangianDS::JacobianFunction qvtMatrix(py::function f, const std::string& arg,
                                                std::size_t n) {
  return [f, arg, n](const SiconosVector& q, const SiconosVector& v, double t) {
    py::gil_scoped_acquire gil;
    py::object r = f(toNumpy(q), toNumpy(v), t);
    return toSimpleMatrix(r, arg + " (value returned by the callable)", static_cast<py::ssize_t>(n),
                          static_cast<py::ssize_t>(n), false);
  };
}

/// A Python function t -> matrix (rows x cols; -1: any) for the first-order A(t), C(t), ...
inline std::function<SimpleMatrix(double)> matrixOfTime(py::function f, const std::string& arg,
                                                        py::ssize_t rows, py::ssize_t cols) {
  return [f, arg, rows, cols](double t) {
    py::gil_scoped_acquire gil;
    return toSimpleMatrix(f(t), arg + " (value returned by the callable)", rows, cols, false);
  };
}

/// A Python function t -> vector of any size (e(t), u(t): the Kernel checks the size).
inline std::function<SiconosVector(double)> anyVectorOfTime(py::function f,
                                                            const std::string& arg) {
  return [f, arg](double t) {
    py::gil_scoped_acquire gil;
    return toSiconosVector(f(t), arg + " (value returned by the callable)");
  };
}

inline bool isCallable(py::handle h) {
  return PyCallable_Check(h.ptr()) != 0;
}
inline py::function asFunction(py::handle h) {
  return py::reinterpret_borrow<py::function>(h);
}

/// The terms of a first-order linear relation given to its constructor or setters: each a
/// constant (matrix / vector) or a callable of t (FirstOrderLinearR only: @p allowFunctions).
inline void setD(FirstOrderLinearR& r, py::handle D, bool allowFunctions) {
  if (allowFunctions && isCallable(D))
    r.setD(FirstOrderLinearR::MatrixFunction(matrixOfTime(asFunction(D), "D", -1, -1)));
  else
    r.setD(toSimpleMatrix(D, "D"));
}
inline void setE(FirstOrderLinearR& r, py::handle e, bool allowFunctions) {
  if (allowFunctions && isCallable(e))
    r.sete(FirstOrderLinearR::VectorFunction(anyVectorOfTime(asFunction(e), "e")));
  else
    r.sete(toSiconosVector(e, "e"));
}
inline void setF(FirstOrderLinearR& r, py::handle F, py::handle u) {
  if (isCallable(u))
    r.setF(toSimpleMatrix(F, "F"),
           FirstOrderLinearR::VectorFunction(anyVectorOfTime(asFunction(u), "u")));
  else
    r.setF(toSimpleMatrix(F, "F"), toSiconosVector(u, "u"));
}

/// Steps whose statistics a simulation made in Python keeps (Simulation::setStatisticsHistory):
/// the last 1000 (at most 2000 held, ~0.5 MB), so that a long run's memory does not grow with
/// its steps (`nsdyn run` keeps 1). 0 keeps every step.
constexpr long long kDefaultHistory = 1000;
constexpr long long kMaxHistory = 1LL << 40;

inline py::dict statisticsDict(const StepStatistics& s) {
  py::dict d;
  d["step"] = s.step;
  d["time"] = s.time;
  d["active_relations"] = s.activeRelations;
  d["problem_size"] = s.problemSize;
  d["solved"] = s.solved;
  d["status"] = std::string(nsd_status_name(s.status));
  d["iterations"] = s.iterations;
  d["residual"] = s.residual;
  d["seconds"] = s.seconds;
  d["solver"] = s.solver;
  d["message"] = s.message;
  d["newton_iterations"] = s.newtonIterations;
  d["newton_converged"] = s.newtonConverged;
  d["detected_contacts"] = s.detectedContacts;
  d["above_tolerance"] = s.aboveTolerance;
  d["projection_iterations"] = s.projectionIterations;
  d["cold_restarts"] = s.coldRestarts;
  d["fallbacks"] = s.fallbacks;
  py::dict work;  // StepStatistics::Work: the step's impulses' work by kind (J)
  work["motors"] = s.work.motors;
  work["joints"] = s.work.joints;
  work["unilateral"] = s.work.unilateral;
  work["contacts"] = s.work.contacts;
  work["total"] = s.work.total();
  d["work"] = work;
  return d;
}

/// The run loop exposed to Python: step after step until T (or @p steps steps), checking
/// for Ctrl-C (KeyboardInterrupt) between steps; @p callback(sim) after each step.
inline long long runSimulation(Simulation& sim, py::handle steps, py::handle callbackArg) {
  const long long maxSteps = toSteps(steps, "Simulation.run: steps");
  const py::object callback = toCallback(callbackArg, "Simulation.run: callback");
  if (!sim.isInitialized())
    throw Error("Simulation.run", "model.initialize(simulation) before the first step",
                "a simulation not initialised");
  long long done = 0;
  while ((maxSteps < 0 || done < maxSteps) && sim.hasNextEvent()) {
    sim.computeOneStep();
    if (!callback.is_none()) {
      try {
        callback();
      } catch (py::error_already_set&) {
        sim.nextStep();  // the step is finished before the exception goes up
        throw;
      }
    }
    sim.nextStep();
    ++done;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  return done;
}

inline void setOption(OneStepNSProblem& p, const std::string& key, py::handle value) {
  std::string name = key;
  for (std::size_t k; (k = name.find("__")) != std::string::npos;) name.replace(k, 2, ".");
  std::string text;
  if (py::isinstance<py::bool_>(value))
    text = value.cast<bool>() ? "true" : "false";
  else if (py::isinstance<py::float_>(value)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", value.cast<double>());
    text = buf;
  } else
    text = py::str(value);
  NsdReport rep{};
  const NsdSolverEntry* e = nsd_solver_find(p.numericsKind(), p.solverName().c_str());
  const NsdStatus s =
      e ? nsd_solver_option_set(e, &p.optionsMutable(), name.c_str(), text.c_str(), &rep)
        : nsd_option_set(&p.optionsMutable(), name.c_str(), text.c_str(), &rep);
  if (s != NSD_OK) badInput(rep.message);
}

}  // namespace kernel_detail
}  // namespace nsdpy

#endif
