// Kernel bindings: nonsmooth laws, relations, interactions, the nonsmooth dynamical system.
#include "kernel_helpers.hpp"

namespace nsdpy {

using namespace nsdyn;
using namespace kernel_detail;

void initKernelRelations(py::module_& m) {
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
}

}  // namespace nsdpy
