// Kernel: the modelling and simulation classes under their Siconos names. Objects are held
// by std::shared_ptr (the Kernel's SP:: pointers), so a part stays alive as long as a model
// or a Python name refers to it. A simulation keeps its Model alive (keep_alive): the Kernel's
// Simulation holds a plain pointer to the Model that owns it.
#include <nsdyn/Kernel.hpp>

#include "bindings.hpp"

namespace nsdpy {
namespace {

using namespace nsdyn;

/// mass: a matrix, a vector (the diagonal) or a number times the identity of size n.
SimpleMatrix massOf(py::handle mass, std::size_t n, const std::string& arg) {
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

void setVector(SiconosVector& target, py::handle value, const std::string& arg) {
  target = toSiconosVector(value, arg, static_cast<py::ssize_t>(target.size()));
}

/// A Python function (q, v, t) -> vector of size n.
LagrangianDS::InternalForcesFunction qvtVector(py::function f, const std::string& arg,
                                               std::size_t n) {
  return [f, arg, n](const SiconosVector& q, const SiconosVector& v, double t) {
    py::gil_scoped_acquire gil;
    py::object r = f(toNumpy(q), toNumpy(v), t);
    return toSiconosVector(r, arg + " (value returned by the callable)",
                           static_cast<py::ssize_t>(n));
  };
}

LagrangianDS::JacobianFunction qvtMatrix(py::function f, const std::string& arg, std::size_t n) {
  return [f, arg, n](const SiconosVector& q, const SiconosVector& v, double t) {
    py::gil_scoped_acquire gil;
    py::object r = f(toNumpy(q), toNumpy(v), t);
    return toSimpleMatrix(r, arg + " (value returned by the callable)", static_cast<py::ssize_t>(n),
                          static_cast<py::ssize_t>(n), false);
  };
}

/// A Python function t -> matrix (rows x cols; -1: any) for the first-order A(t), C(t), ...
std::function<SimpleMatrix(double)> matrixOfTime(py::function f, const std::string& arg,
                                                 py::ssize_t rows, py::ssize_t cols) {
  return [f, arg, rows, cols](double t) {
    py::gil_scoped_acquire gil;
    return toSimpleMatrix(f(t), arg + " (value returned by the callable)", rows, cols, false);
  };
}

/// A Python function t -> vector of any size (e(t), u(t): the Kernel checks the size).
std::function<SiconosVector(double)> anyVectorOfTime(py::function f, const std::string& arg) {
  return [f, arg](double t) {
    py::gil_scoped_acquire gil;
    return toSiconosVector(f(t), arg + " (value returned by the callable)");
  };
}

bool isCallable(py::handle h) {
  return PyCallable_Check(h.ptr()) != 0;
}
py::function asFunction(py::handle h) {
  return py::reinterpret_borrow<py::function>(h);
}

/// The terms of a first-order linear relation given to its constructor or setters: each a
/// constant (matrix / vector) or a callable of t (FirstOrderLinearR only: @p allowFunctions).
void setD(FirstOrderLinearR& r, py::handle D, bool allowFunctions) {
  if (allowFunctions && isCallable(D))
    r.setD(FirstOrderLinearR::MatrixFunction(matrixOfTime(asFunction(D), "D", -1, -1)));
  else
    r.setD(toSimpleMatrix(D, "D"));
}
void setE(FirstOrderLinearR& r, py::handle e, bool allowFunctions) {
  if (allowFunctions && isCallable(e))
    r.sete(FirstOrderLinearR::VectorFunction(anyVectorOfTime(asFunction(e), "e")));
  else
    r.sete(toSiconosVector(e, "e"));
}
void setF(FirstOrderLinearR& r, py::handle F, py::handle u) {
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

py::dict statisticsDict(const StepStatistics& s) {
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
  return d;
}

/// The run loop exposed to Python: step after step until T (or @p steps steps), checking
/// for Ctrl-C (KeyboardInterrupt) between steps; @p callback(sim) after each step.
long long runSimulation(Simulation& sim, py::handle steps, py::handle callbackArg) {
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

void setOption(OneStepNSProblem& p, const std::string& key, py::handle value) {
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

}  // namespace

void initKernel(py::module_& m) {
  // ---- dynamical systems ---------------------------------------------------------------
  py::class_<DynamicalSystem, std::shared_ptr<DynamicalSystem>>(m, "DynamicalSystem")
      .def("number", &DynamicalSystem::number)
      .def("name", &DynamicalSystem::name)
      .def("className", &DynamicalSystem::className)
      .def("dimension", &DynamicalSystem::dimension)
      .def("getN", &DynamicalSystem::getN)
      .def("__repr__", [](const DynamicalSystem& d) {
        return "<nsdyn." + d.className() + " " + d.name() + ">";
      });

  py::class_<SecondOrderDS, DynamicalSystem, std::shared_ptr<SecondOrderDS>>(m, "SecondOrderDS")
      // state vectors: NumPy copies (the Kernel reassigns them at every step)
      .def(
          "q", [](const SecondOrderDS& d) { return toNumpy(d.q()); }, "position (a copy)")
      .def(
          "velocity", [](const SecondOrderDS& d) { return toNumpy(d.velocity()); },
          "velocity (a copy)")
      .def("v", [](const SecondOrderDS& d) { return toNumpy(d.velocity()); })
      .def(
          "p", [](const SecondOrderDS& d, int /*level*/) { return toNumpy(d.p()); },
          py::arg("level") = 1, "nonsmooth impulse of the last step")
      .def("q0", [](const SecondOrderDS& d) { return toNumpy(d.q0()); })
      .def("velocity0", [](const SecondOrderDS& d) { return toNumpy(d.velocity0()); })
      .def("qMemory", [](const SecondOrderDS& d) { return toNumpy(d.qMemory()); })
      .def("velocityMemory", [](const SecondOrderDS& d) { return toNumpy(d.velocityMemory()); })
      .def("forces", [](const SecondOrderDS& d) { return toNumpy(d.forces()); })
      .def("mass", [](const SecondOrderDS& d) { return toNumpy(d.mass()); })
      .def(
          "setQ", [](SecondOrderDS& d, py::handle v) { setVector(d.qMutable(), v, "q"); },
          py::arg("q"))
      .def(
          "setVelocity",
          [](SecondOrderDS& d, py::handle v) { setVector(d.velocityMutable(), v, "velocity"); },
          py::arg("velocity"))
      .def("kineticEnergy", &SecondOrderDS::kineticEnergy);

  py::class_<LagrangianDS, SecondOrderDS, std::shared_ptr<LagrangianDS>>(m, "LagrangianDS")
      .def(py::init([](py::handle q0, py::handle v0, py::handle mass) {
             SiconosVector q = toSiconosVector(q0, "q0");
             SiconosVector v = toSiconosVector(v0, "v0", static_cast<py::ssize_t>(q.size()));
             const std::size_t n = q.size();
             if (PyCallable_Check(mass.ptr())) {
               py::function f = py::reinterpret_borrow<py::function>(mass);
               return std::make_shared<LagrangianDS>(
                   q, v, LagrangianDS::MassFunction([f, n](const SiconosVector& x) {
                     py::gil_scoped_acquire gil;
                     return toSimpleMatrix(f(toNumpy(x)), "mass (value returned by the callable)",
                                           static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(n),
                                           false);
                   }));
             }
             return std::make_shared<LagrangianDS>(q, v, massOf(mass, n, "mass"));
           }),
           py::arg("q0"), py::arg("v0"), py::arg("mass"),
           "mass: (n, n) matrix, diagonal (n,), a number, or a callable q -> (n, n)")
      .def(
          "setFExt",
          [](LagrangianDS& d, py::handle f) {
            if (PyCallable_Check(f.ptr()))
              d.setFExt(LagrangianDS::ExternalForceFunction(
                  vectorOfTime(py::reinterpret_borrow<py::function>(f), "fExt", d.dimension())));
            else
              d.setFExt(toSiconosVector(f, "fExt", static_cast<py::ssize_t>(d.dimension())));
          },
          py::arg("fExt"), "constant (n,) vector or callable t -> (n,)")
      .def(
          "setFExtPtr",
          [](LagrangianDS& d, py::handle f) {
            d.setFExt(toSiconosVector(f, "fExt", static_cast<py::ssize_t>(d.dimension())));
          },
          py::arg("fExt"), "Siconos name of setFExt (a constant vector)")
      .def(
          "setFInt",
          [](LagrangianDS& d, py::function f) {
            d.setInternalForces(qvtVector(f, "fInt", d.dimension()));
          },
          py::arg("fInt"),
          "callable (q, v, t) -> (n,) internal forces (cost: one Python call per evaluation)")
      .def(
          "setJacobianFIntq",
          [](LagrangianDS& d, py::function f) {
            d.setJacobianFIntq(qvtMatrix(f, "jacobianFIntq", d.dimension()));
          },
          py::arg("jacobian"))
      .def(
          "setJacobianFIntv",
          [](LagrangianDS& d, py::function f) {
            d.setJacobianFIntv(qvtMatrix(f, "jacobianFIntv", d.dimension()));
          },
          py::arg("jacobian"))
      .def(
          "fExt", [](const LagrangianDS& d, double t) { return toNumpy(d.computeFExt(t)); },
          py::arg("t") = 0.0);

  py::class_<LagrangianLinearTIDS, LagrangianDS, std::shared_ptr<LagrangianLinearTIDS>>(
      m, "LagrangianLinearTIDS")
      .def(py::init([](py::handle q0, py::handle v0, py::handle mass, py::object K, py::object C) {
             SiconosVector q = toSiconosVector(q0, "q0");
             SiconosVector v = toSiconosVector(v0, "v0", static_cast<py::ssize_t>(q.size()));
             const auto n = static_cast<py::ssize_t>(q.size());
             auto ds = std::make_shared<LagrangianLinearTIDS>(q, v, massOf(mass, q.size(), "mass"));
             if (!K.is_none()) ds->setK(toSimpleMatrix(K, "K", n, n, false));
             if (!C.is_none()) ds->setC(toSimpleMatrix(C, "C", n, n, false));
             return ds;
           }),
           py::arg("q0"), py::arg("v0"), py::arg("mass"), py::arg("K") = py::none(),
           py::arg("C") = py::none())
      .def("setK",
           [](LagrangianLinearTIDS& d, py::handle K) {
             const auto n = static_cast<py::ssize_t>(d.dimension());
             d.setK(toSimpleMatrix(K, "K", n, n, false));
           })
      .def("setC", [](LagrangianLinearTIDS& d, py::handle C) {
        const auto n = static_cast<py::ssize_t>(d.dimension());
        d.setC(toSimpleMatrix(C, "C", n, n, false));
      });

  py::class_<NewtonEulerDS, SecondOrderDS, std::shared_ptr<NewtonEulerDS>>(m, "NewtonEulerDS")
      .def(py::init([](py::handle q0, py::handle v0, double mass, py::handle inertia) {
             SimpleMatrix I = massOf(inertia, 3, "inertia");
             return std::make_shared<NewtonEulerDS>(toSiconosVector(q0, "q0", 7),
                                                    toSiconosVector(v0, "v0", 6), mass, I);
           }),
           py::arg("q0"), py::arg("v0"), py::arg("mass"), py::arg("inertia"),
           "q0 = (x, y, z, quaternion w, x, y, z), v0 = (linear, angular) velocity; inertia (3, 3) "
           "or (3,)")
      .def(
          "setFExt",
          [](NewtonEulerDS& d, py::handle f) {
            if (PyCallable_Check(f.ptr()))
              d.setFExt(NewtonEulerDS::VectorFunction(
                  vectorOfTime(py::reinterpret_borrow<py::function>(f), "fExt", 3)));
            else
              d.setFExt(toSiconosVector(f, "fExt", 3));
          },
          py::arg("fExt"), "world-frame force: (3,) or callable t -> (3,)")
      .def(
          "setMExt",
          [](NewtonEulerDS& d, py::handle f) {
            if (PyCallable_Check(f.ptr()))
              d.setMExt(NewtonEulerDS::VectorFunction(
                  vectorOfTime(py::reinterpret_borrow<py::function>(f), "mExt", 3)));
            else
              d.setMExt(toSiconosVector(f, "mExt", 3));
          },
          py::arg("mExt"), "body-frame moment: (3,) or callable t -> (3,)")
      .def("scalarMass", &NewtonEulerDS::scalarMass)
      .def("inertia", [](const NewtonEulerDS& d) { return toNumpy(d.inertia()); })
      .def("position", [](const NewtonEulerDS& d) { return toNumpy(d.position()); })
      .def("rotationMatrix", [](const NewtonEulerDS& d) { return toNumpy(d.rotationMatrix()); })
      .def("angularVelocityWorld",
           [](const NewtonEulerDS& d) { return toNumpy(d.angularVelocityWorld()); })
      .def("potentialEnergy", &NewtonEulerDS::potentialEnergy, py::arg("t") = 0.0)
      .def("setGyroscopic", &NewtonEulerDS::setGyroscopic);

  // first order (the electrical door): x' = A(t) x + b(t) + r
  py::class_<FirstOrderLinearDS, DynamicalSystem, std::shared_ptr<FirstOrderLinearDS>>(
      m, "FirstOrderLinearDS")
      .def(py::init([](py::handle x0, py::handle A, py::object b) {
             SiconosVector x = toSiconosVector(x0, "x0");
             const auto n = static_cast<py::ssize_t>(x.size());
             std::shared_ptr<FirstOrderLinearDS> ds;
             if (isCallable(A))
               ds = std::make_shared<FirstOrderLinearDS>(
                   x, FirstOrderLinearDS::MatrixFunction(matrixOfTime(asFunction(A), "A", n, n)));
             else
               ds = std::make_shared<FirstOrderLinearDS>(x, toSimpleMatrix(A, "A", n, n, false));
             if (!b.is_none()) {
               if (isCallable(b))
                 ds->setb(FirstOrderLinearDS::VectorFunction(
                     vectorOfTime(asFunction(b), "b", x.size())));
               else
                 ds->setb(toSiconosVector(b, "b", n));
             }
             return ds;
           }),
           py::arg("x0"), py::arg("A"), py::arg("b") = py::none(),
           "x' = A(t) x + b(t) + r; A: (n, n) or callable t -> (n, n), b: (n,) or callable t -> "
           "(n,)")
      .def(
          "x", [](const FirstOrderLinearDS& d) { return toNumpy(d.x()); }, "state (a copy)")
      .def("x0", [](const FirstOrderLinearDS& d) { return toNumpy(d.x0()); })
      .def(
          "xMemory", [](const FirstOrderLinearDS& d) { return toNumpy(d.xMemory()); },
          "x at the start of the step")
      .def(
          "r", [](const FirstOrderLinearDS& d) { return toNumpy(d.r()); },
          "nonsmooth input r = B lambda of the step")
      .def(
          "setX", [](FirstOrderLinearDS& d, py::handle v) { setVector(d.xMutable(), v, "x"); },
          py::arg("x"))
      .def(
          "A", [](const FirstOrderLinearDS& d, double t) { return toNumpy(d.computeA(t)); },
          py::arg("t") = 0.0, "A(t) (the constant A when time invariant)")
      .def(
          "b", [](const FirstOrderLinearDS& d, double t) { return toNumpy(d.computeb(t)); },
          py::arg("t") = 0.0, "b(t) (zeros when there is no b)")
      .def("hasb", &FirstOrderLinearDS::hasb)
      .def(
          "setA",
          [](FirstOrderLinearDS& d, py::handle A) {
            const auto n = static_cast<py::ssize_t>(d.dimension());
            if (isCallable(A))
              d.setA(FirstOrderLinearDS::MatrixFunction(matrixOfTime(asFunction(A), "A", n, n)));
            else
              d.setA(toSimpleMatrix(A, "A", n, n, false));
          },
          py::arg("A"))
      .def(
          "setb",
          [](FirstOrderLinearDS& d, py::handle b) {
            if (isCallable(b))
              d.setb(FirstOrderLinearDS::VectorFunction(
                  vectorOfTime(asFunction(b), "b", d.dimension())));
            else
              d.setb(toSiconosVector(b, "b", static_cast<py::ssize_t>(d.dimension())));
          },
          py::arg("b"));
  py::class_<FirstOrderLinearTIDS, FirstOrderLinearDS, std::shared_ptr<FirstOrderLinearTIDS>>(
      m, "FirstOrderLinearTIDS")
      .def(py::init([](py::handle x0, py::handle A, py::object b) {
             SiconosVector x = toSiconosVector(x0, "x0");
             const auto n = static_cast<py::ssize_t>(x.size());
             SimpleMatrix a = toSimpleMatrix(A, "A", n, n, false);
             if (b.is_none()) return std::make_shared<FirstOrderLinearTIDS>(x, a);
             return std::make_shared<FirstOrderLinearTIDS>(x, a, toSiconosVector(b, "b", n));
           }),
           py::arg("x0"), py::arg("A"), py::arg("b") = py::none(),
           "x' = A x + b + r (constant A, b)");

  // ---- laws, relations, interactions -----------------------------------------------------
  py::class_<NonSmoothLaw, std::shared_ptr<NonSmoothLaw>>(m, "NonSmoothLaw")
      .def("size", &NonSmoothLaw::size)
      .def("className", &NonSmoothLaw::className);
  py::class_<NewtonImpactNSL, NonSmoothLaw, std::shared_ptr<NewtonImpactNSL>>(m, "NewtonImpactNSL")
      .def(py::init([](py::handle e, py::handle size) {
             return std::make_shared<NewtonImpactNSL>(
                 toReal(e, "NewtonImpactNSL: e"),
                 static_cast<std::size_t>(toInteger(size, "NewtonImpactNSL: size", 1, 1 << 20)));
           }),
           py::arg("e"), py::arg("size") = 1)
      .def("e", &NewtonImpactNSL::e);
  py::class_<NewtonImpactFrictionNSL, NonSmoothLaw, std::shared_ptr<NewtonImpactFrictionNSL>>(
      m, "NewtonImpactFrictionNSL")
      .def(py::init([](py::handle en, py::handle et, py::handle mu, py::handle dim) {
             return std::make_shared<NewtonImpactFrictionNSL>(
                 toReal(en, "NewtonImpactFrictionNSL: en"),
                 toReal(et, "NewtonImpactFrictionNSL: et"),
                 toReal(mu, "NewtonImpactFrictionNSL: mu"),
                 static_cast<std::size_t>(toInteger(dim, "NewtonImpactFrictionNSL: dim", 2, 3)));
           }),
           py::arg("en"), py::arg("et"), py::arg("mu"), py::arg("dim") = 3)
      .def("en", &NewtonImpactFrictionNSL::en)
      .def("et", &NewtonImpactFrictionNSL::et)
      .def("mu", &NewtonImpactFrictionNSL::mu);

  py::class_<ComplementarityConditionNSL, NonSmoothLaw,
             std::shared_ptr<ComplementarityConditionNSL>>(
      m, "ComplementarityConditionNSL", "0 <= y _|_ lambda >= 0 on `size` rows (LCP, MLCP)")
      .def(py::init([](py::handle size) {
             return std::make_shared<ComplementarityConditionNSL>(static_cast<std::size_t>(
                 toInteger(size, "ComplementarityConditionNSL: size", 1, 1LL << 40)));
           }),
           py::arg("size"));
  py::class_<EqualityConditionNSL, NonSmoothLaw, std::shared_ptr<EqualityConditionNSL>>(
      m, "EqualityConditionNSL", "y = 0, lambda free, on `size` rows (MLCP; the joints)")
      .def(py::init([](py::handle size) {
             return std::make_shared<EqualityConditionNSL>(static_cast<std::size_t>(
                 toInteger(size, "EqualityConditionNSL: size", 1, 1LL << 40)));
           }),
           py::arg("size"));
  py::class_<MixedComplementarityConditionNSL, NonSmoothLaw,
             std::shared_ptr<MixedComplementarityConditionNSL>>(
      m, "MixedComplementarityConditionNSL",
      "n_eq equality rows, then n_comp complementarity rows (MLCP)")
      .def(py::init([](py::handle nEq, py::handle nComp) {
             const char* f = "MixedComplementarityConditionNSL: ";
             return std::make_shared<MixedComplementarityConditionNSL>(
                 static_cast<std::size_t>(toInteger(nEq, std::string(f) + "n_eq", 0, 1LL << 40)),
                 static_cast<std::size_t>(
                     toInteger(nComp, std::string(f) + "n_comp", 0, 1LL << 40)));
           }),
           py::arg("n_eq"), py::arg("n_comp"))
      .def("equalitySize", &MixedComplementarityConditionNSL::equalitySize)
      .def("complementaritySize", &MixedComplementarityConditionNSL::complementaritySize);
  py::class_<RelayNSL, NonSmoothLaw, std::shared_ptr<RelayNSL>>(
      m, "RelayNSL", "-y in N_[lb, ub](lambda) on `size` rows (Relay)")
      .def(py::init([](std::size_t size, double lb, double ub) {
             if (!(lb < ub))
               throw py::value_error("lb, ub: expected lb < ub, found " + std::to_string(lb) +
                                     ", " + std::to_string(ub));
             return std::make_shared<RelayNSL>(size, lb, ub);
           }),
           py::arg("size"), py::arg("lb") = -1.0, py::arg("ub") = 1.0)
      .def("lb", &RelayNSL::lb)
      .def("ub", &RelayNSL::ub);

  py::class_<Relation, std::shared_ptr<Relation>>(m, "Relation")
      .def("className", &Relation::className);
  py::class_<LagrangianR, Relation, std::shared_ptr<LagrangianR>>(m, "LagrangianR");
  py::class_<LagrangianLinearTIR, LagrangianR, std::shared_ptr<LagrangianLinearTIR>>(
      m, "LagrangianLinearTIR")
      .def(py::init([](py::handle H, py::object b) {
             SimpleMatrix h = toSimpleMatrix(H, "H");
             if (b.is_none()) return std::make_shared<LagrangianLinearTIR>(h);
             return std::make_shared<LagrangianLinearTIR>(
                 h, toSiconosVector(b, "b", static_cast<py::ssize_t>(h.rows())));
           }),
           py::arg("H"), py::arg("b") = py::none(), "y = H q + b")
      .def("H", [](const LagrangianLinearTIR& r) { return toNumpy(r.H()); })
      .def("b", [](const LagrangianLinearTIR& r) { return toNumpy(r.b()); });

  // first order: y = C x + D lambda + F u + e, r = B lambda
  py::class_<FirstOrderLinearR, Relation, std::shared_ptr<FirstOrderLinearR>>(m,
                                                                              "FirstOrderLinearR")
      .def(py::init([](py::handle C, py::handle B, py::object D, py::object e, py::object F,
                       py::object u) {
             std::shared_ptr<FirstOrderLinearR> r;
             if (isCallable(C) || isCallable(B)) {
               if (!isCallable(C) || !isCallable(B))
                 throw py::type_error("C, B: expected both matrices or both callables t -> matrix");
               r = std::make_shared<FirstOrderLinearR>(
                   FirstOrderLinearR::MatrixFunction(matrixOfTime(asFunction(C), "C", -1, -1)),
                   FirstOrderLinearR::MatrixFunction(matrixOfTime(asFunction(B), "B", -1, -1)));
             } else {
               r = std::make_shared<FirstOrderLinearR>(toSimpleMatrix(C, "C"),
                                                       toSimpleMatrix(B, "B", -1, -1, false));
             }
             if (!D.is_none()) setD(*r, D, true);
             if (!e.is_none()) setE(*r, e, true);
             if (F.is_none() != u.is_none()) throw py::type_error("F, u: expected both or neither");
             if (!F.is_none()) setF(*r, F, u);
             return r;
           }),
           py::arg("C"), py::arg("B"), py::arg("D") = py::none(), py::arg("e") = py::none(),
           py::arg("F") = py::none(), py::arg("u") = py::none(),
           "y = C(t) x + D(t) lambda + F u(t) + e(t), r = B(t) lambda; each term a constant or a "
           "callable of t")
      .def(
          "setCPtr",
          [](FirstOrderLinearR& r, py::handle C) {
            if (isCallable(C))
              r.setC(FirstOrderLinearR::MatrixFunction(matrixOfTime(asFunction(C), "C", -1, -1)));
            else
              r.setC(toSimpleMatrix(C, "C"));
          },
          py::arg("C"))
      .def(
          "setBPtr",
          [](FirstOrderLinearR& r, py::handle B) {
            if (isCallable(B))
              r.setB(FirstOrderLinearR::MatrixFunction(matrixOfTime(asFunction(B), "B", -1, -1)));
            else
              r.setB(toSimpleMatrix(B, "B", -1, -1, false));
          },
          py::arg("B"))
      .def(
          "setDPtr", [](FirstOrderLinearR& r, py::handle D) { setD(r, D, true); }, py::arg("D"))
      .def(
          "setePtr", [](FirstOrderLinearR& r, py::handle e) { setE(r, e, true); }, py::arg("e"))
      .def(
          "setFPtr", [](FirstOrderLinearR& r, py::handle F, py::handle u) { setF(r, F, u); },
          py::arg("F"), py::arg("u"), "the F u term: F constant, u a vector or a callable of t")
      .def(
          "C", [](const FirstOrderLinearR& r, double t) { return toNumpy(r.computeC(t)); },
          py::arg("t") = 0.0)
      .def(
          "B", [](const FirstOrderLinearR& r, double t) { return toNumpy(r.computeB(t)); },
          py::arg("t") = 0.0)
      .def(
          "D",
          [](const FirstOrderLinearR& r, double t) {
            return toNumpy(r.computeD(t, r.computeC(t).rows()));
          },
          py::arg("t") = 0.0, "D(t) (zeros when there is none)")
      .def(
          "e",
          [](const FirstOrderLinearR& r, double t) {
            return toNumpy(r.computee(t, r.computeC(t).rows()));
          },
          py::arg("t") = 0.0, "e(t) (zeros when there is none)")
      .def("hasD", &FirstOrderLinearR::hasD)
      .def("hasE", &FirstOrderLinearR::hasE)
      .def("hasF", &FirstOrderLinearR::hasF)
      .def("isTimeInvariant", &FirstOrderLinearR::isTimeInvariant);
  py::class_<FirstOrderLinearTIR, FirstOrderLinearR, std::shared_ptr<FirstOrderLinearTIR>>(
      m, "FirstOrderLinearTIR")
      .def(py::init([](py::handle C, py::handle B, py::object D, py::object e) {
             auto r = std::make_shared<FirstOrderLinearTIR>(toSimpleMatrix(C, "C"),
                                                            toSimpleMatrix(B, "B", -1, -1, false));
             if (!D.is_none()) setD(*r, D, false);
             if (!e.is_none()) setE(*r, e, false);
             return r;
           }),
           py::arg("C"), py::arg("B"), py::arg("D") = py::none(), py::arg("e") = py::none(),
           "y = C x + D lambda + e, r = B lambda (constants; Siconos: FirstOrderLinearTIR(C, B) "
           "then setDPtr(D))");

  py::class_<Interaction, std::shared_ptr<Interaction>>(m, "Interaction")
      .def(py::init<SP::NonSmoothLaw, SP::Relation>(), py::arg("nsl"), py::arg("relation"))
      .def("number", &Interaction::number)
      .def("name", &Interaction::name)
      .def("getSizeOfY", &Interaction::size)
      .def("size", &Interaction::size)
      .def(
          "y",
          [](const Interaction& i, py::handle levelArg) {
            const auto level = static_cast<unsigned>(
                toInteger(levelArg, "Interaction.y: level", 0, Interaction::kLevels - 1));
            return toNumpy(i.y(level));
          },
          py::arg("level"))
      .def(
          "lambda_",
          [](const Interaction& i, py::handle levelArg) {
            const auto level = static_cast<unsigned>(
                toInteger(levelArg, "Interaction.lambda_: level", 0, Interaction::kLevels - 1));
            return toNumpy(i.lambda(level));
          },
          py::arg("level"), "lambda(level) (Siconos: inter.lambda_(1))")
      .def("nonSmoothLaw", &Interaction::nonSmoothLawPtr)
      .def("relation", &Interaction::relationPtr)
      .def("dynamicalSystems", &Interaction::dynamicalSystems);

  py::class_<NonSmoothDynamicalSystem, std::shared_ptr<NonSmoothDynamicalSystem>>(
      m, "NonSmoothDynamicalSystem")
      .def(py::init<>())
      .def("insertDynamicalSystem", &NonSmoothDynamicalSystem::insertDynamicalSystem, py::arg("ds"))
      .def("link", &NonSmoothDynamicalSystem::link, py::arg("inter"), py::arg("ds1"),
           py::arg("ds2") = nullptr)
      .def("insertInteraction", &NonSmoothDynamicalSystem::insertInteraction)
      .def("removeInteraction", &NonSmoothDynamicalSystem::removeInteraction)
      .def("numberOfDynamicalSystems", &NonSmoothDynamicalSystem::numberOfDynamicalSystems)
      .def("numberOfInteractions", &NonSmoothDynamicalSystem::numberOfInteractions)
      .def("dynamicalSystems", &NonSmoothDynamicalSystem::dynamicalSystems)
      .def("interactions", &NonSmoothDynamicalSystem::interactions);

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
