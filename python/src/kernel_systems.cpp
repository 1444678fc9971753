// Kernel bindings: the dynamical systems (Lagrangian, Newton-Euler, first order).
#include "kernel_helpers.hpp"

namespace nsdpy {

using namespace nsdyn;
using namespace kernel_detail;

void initKernelSystems(py::module_& m) {
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
}

}  // namespace nsdpy
