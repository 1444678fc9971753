// <systems>: LagrangianDS, LagrangianLinearTIDS, NewtonEulerDS (with <boundaryCondition>),
// FirstOrderLinearDS, FirstOrderLinearTIDS.

#include "Loader.hpp"

namespace nsdyn::io::xml {

void Loader::systems(const Node& n) {
  static const std::vector<std::string> kinds = {"LagrangianDS", "LagrangianLinearTIDS",
                                                 "NewtonEulerDS", "FirstOrderLinearDS",
                                                 "FirstOrderLinearTIDS"};
  check(n, {schema::allowed("systems"), kinds});
  for (Node s : n.children()) {
    if (s.type() != pugi::node_element) continue;
    const std::string name = requiredAttribute(s, "name", "system name");
    validName(s, name);
    if (systemNamed(name))
      fail(s, "expected a new system name, found '" + name + "' a second time");
    SP::DynamicalSystem ds;
    try {
      const std::string kind = s.name();
      if (kind == "LagrangianDS" || kind == "LagrangianLinearTIDS")
        ds = lagrangian(s);
      else if (kind == "NewtonEulerDS")
        ds = newtonEuler(s);
      else
        ds = firstOrder(s);
    } catch (const LoadError&) {
      throw;
    } catch (const nsdyn::Error& e) {
      fail(s, e.what());
    }
    // every system is simulated, linked to an interaction or not
    model_->nonSmoothDynamicalSystem()->insertDynamicalSystem(ds);
    addSystem(name, ds);
  }
  if (out_->systems.empty()) fail(n, "expected at least one system, found none");
}

SP::DynamicalSystem Loader::lagrangian(const Node& s) {
  const bool linear = std::strcmp(s.name(), "LagrangianLinearTIDS") == 0;
  if (linear)
    check(s, {schema::allowed("LagrangianLinearTIDS"), {"q0", "v0", "mass", "K", "C", "fExt"}});
  else
    check(s, {schema::allowed("LagrangianDS"),
              {"q0", "v0", "mass", "fInt", "jacobianFIntq", "jacobianFIntv", "fExt"}});
  const SiconosVector q0 =
      vectorData(single(s, "q0", true), std::nullopt, "q0 (initial positions)");
  const std::size_t n = q0.size();
  SiconosVector v0(n);
  if (Node v = single(s, "v0", false)) v0 = vectorData(v, n, "v0 (initial velocities, size of q0)");
  Node m = single(s, "mass", true);
  SP::LagrangianDS ds;
  if (linear) {
    const SimpleMatrix M = matrixData(m, n, n, "the mass matrix (n x n, n = size of q0)");
    checkMass(m, M, "the mass matrix");
    auto lin = std::make_shared<LagrangianLinearTIDS>(q0, v0, M);
    if (Node k = single(s, "K", false)) lin->setK(matrixData(k, n, n, "the stiffness K (n x n)"));
    if (Node c = single(s, "C", false)) lin->setC(matrixData(c, n, n, "the damping C (n x n)"));
    ds = lin;
  } else if (m.attribute("function")) {
    check(m, {schema::allowed("functionRef"), {}});
    auto f = function<FunctionRegistry::MatrixOfQ>(m, n);
    const SimpleMatrix Mq0 = probe(m, [&] { return f(q0); });
    checkMatrixSize(m, Mq0, n, n, "the mass M(q) (n x n, n = size of q0)");
    checkMass(m, Mq0, "the mass M(q0)");
    ds = std::make_shared<LagrangianDS>(q0, v0, f);
  } else {
    const SimpleMatrix M = matrixData(m, n, n, "the mass matrix (n x n, n = size of q0)");
    checkMass(m, M, "the mass matrix");
    ds = std::make_shared<LagrangianDS>(q0, v0, M);
  }
  if (!linear) {
    if (Node f = single(s, "fInt", false)) {
      check(f, {schema::allowed("functionRef"), {}});
      auto g = function<FunctionRegistry::VectorOfQVT>(f, n);
      checkVectorSize(f, probe(f, [&] { return g(q0, v0, 0.0); }), n, "F_int(q, v, t)");
      ds->setInternalForces(g);
    }
    for (const char* jac : {"jacobianFIntq", "jacobianFIntv"})
      if (Node f = single(s, jac, false)) {
        check(f, {schema::allowed("functionRef"), {}});
        auto g = function<FunctionRegistry::MatrixOfQVT>(f, n);
        checkMatrixSize(f, probe(f, [&] { return g(q0, v0, 0.0); }), n, n,
                        std::string("the Jacobian ") + jac);
        if (jac[std::strlen(jac) - 1] == 'q')
          ds->setJacobianFIntq(g);
        else
          ds->setJacobianFIntv(g);
      }
  }
  if (Node f = single(s, "fExt", false)) {
    if (f.attribute("function")) {
      check(f, {schema::allowed("functionRef"), {}});
      auto g = function<FunctionRegistry::VectorOfTime>(f, n);
      checkVectorSize(f, probe(f, [&] { return g(0.0); }), n, "F_ext(t)");
      ds->setFExt(g);
    } else {
      ds->setFExt(vectorData(f, n, "the external force (size of q0)"));
    }
  }
  return ds;
}

SP::DynamicalSystem Loader::newtonEuler(const Node& s) {
  check(s, {schema::allowed("NewtonEulerDS"),
            {"mass", "inertia", "position", "quaternion", "axisAngle", "velocity",
             "angularVelocity", "fExt", "mExt", "boundaryCondition"}});
  // mass: a number > 0
  Node mn = single(s, "mass", true);
  check(mn, {{}, {}, true});  // a number as text, no attribute (numberText in the XSD)
  const std::string mtext = trim(mn.text().get());
  if (mtext.empty()) fail(mn, "expected the mass m > 0 of the body, found none");
  const double m = evaluate(mn, mtext, "the mass");
  if (!(m > 0.0))
    fail(mn,
         "expected the mass m > 0 of the body, found m = " + numberText(m) + " ('" + mtext + "')");
  // inertia: 3x3 (body frame), symmetric positive definite
  Node in = single(s, "inertia", true);
  const SimpleMatrix I = inertiaData(in);
  double scale = 0.0;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) scale = std::max(scale, std::abs(I(i, j)));
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = i + 1; j < 3; ++j)
      if (std::abs(I(i, j) - I(j, i)) > 1e-12 * scale)
        fail(in, "expected a symmetric inertia matrix, found I(" + std::to_string(i) + "," +
                     std::to_string(j) + ") = " + numberText(I(i, j)) + " and I(" +
                     std::to_string(j) + "," + std::to_string(i) + ") = " + numberText(I(j, i)));
  const double m1 = I(0, 0);
  const double m2 = I(0, 0) * I(1, 1) - I(0, 1) * I(1, 0);
  const double m3 = I(0, 0) * (I(1, 1) * I(2, 2) - I(1, 2) * I(2, 1)) -
                    I(0, 1) * (I(1, 0) * I(2, 2) - I(1, 2) * I(2, 0)) +
                    I(0, 2) * (I(1, 0) * I(2, 1) - I(1, 1) * I(2, 0));
  if (!(m1 > 0.0) || !(m2 > 0.0) || !(m3 > 0.0))
    fail(in,
         "expected a positive definite inertia matrix (leading principal minors > 0), "
         "found minors " +
             numberText(m1) + ", " + numberText(m2) + ", " + numberText(m3) +
             (m1 <= 0.0 || I(1, 1) <= 0.0 || I(2, 2) <= 0.0 ? " (a diagonal entry is <= 0)" : ""));
  // position, orientation, velocities
  SiconosVector q0(7), v0(6);
  if (Node p = single(s, "position", false))
    q0.setSegment(0, vectorData(p, 3, "the position of the centre of mass (3, world frame)"));
  const SiconosVector quat = orientationChildren(s);
  q0.setSegment(3, quat);
  if (Node v = single(s, "velocity", false))
    v0.setSegment(0, vectorData(v, 3, "the velocity of the centre of mass (3, world frame)"));
  if (Node w = single(s, "angularVelocity", false))
    v0.setSegment(3, vectorData(w, 3, "the angular velocity (3, body frame)"));
  SP::NewtonEulerDS ds;
  try {
    ds = std::make_shared<NewtonEulerDS>(q0, v0, m, I);
  } catch (const nsdyn::Error& e) {
    fail(s, e.what());
  }
  ds->setGyroscopic(boolean(s, "gyroscopic", true));
  ds->setGyroscopicScheme(choice(s, "gyroscopic-scheme",
                                 schema::values("NewtonEulerDS", "gyroscopic-scheme"),
                                 "trapezoidal") == "energy-momentum"
                              ? NewtonEulerDS::GyroscopicScheme::EnergyMomentum
                              : NewtonEulerDS::GyroscopicScheme::Trapezoidal);
  if (Node f = single(s, "fExt", false)) {
    TimeVector load = bodyLoad(f, "the external force f_ext (3, world frame)");
    if (load.function)
      ds->setFExt(load.function);
    else
      ds->setFExt(load.constant);
  }
  if (Node f = single(s, "mExt", false)) {
    TimeVector load = bodyLoad(f, "the external moment m_ext (3, body frame)");
    if (load.function)
      ds->setMExt(load.function);
    else
      ds->setMExt(load.constant);
  }
  if (Node b = single(s, "boundaryCondition", false)) boundaryCondition(b, *ds);
  return ds;
}

// <boundaryCondition indices="0" values="2+cos(pi*t/2)"/>: prescribed velocity components.
void Loader::boundaryCondition(const Node& b, NewtonEulerDS& ds) const {
  check(b, {schema::allowed("boundaryCondition"), {}});
  const std::string meaning =
      "velocity indices 0-5 (0-2: linear velocity, world frame; 3-5: angular velocity, body "
      "frame)";
  std::vector<std::size_t> indices;
  for (const auto& row : splitEntries(requiredAttribute(b, "indices", meaning)))
    for (const auto& e : row) {
      const double v =
          evaluate(b, e, "attribute 'indices' entry " + std::to_string(indices.size()));
      if (v != std::floor(v) || v < 0.0 || v > 5.0)
        fail(b, "attribute 'indices': expected " + meaning + ", found " + e +
                    (v == std::floor(v) ? "" : " (not an integer)"));
      const auto index = static_cast<std::size_t>(v);
      if (std::find(indices.begin(), indices.end(), index) != indices.end())
        fail(b, "attribute 'indices': expected distinct indices, found " + e + " twice");
      indices.push_back(index);
    }
  if (indices.empty()) fail(b, "attribute 'indices': expected " + meaning + ", found none");
  if (b.attribute("values") && b.attribute("function"))
    fail(b, "expected either 'values' or 'function' (the prescribed velocities), found both");
  FunctionRegistry::VectorOfTime values;
  const std::string what = "the prescribed velocities (one per index, functions of t)";
  if (b.attribute("function")) {
    values = function<FunctionRegistry::VectorOfTime>(b, 0);
    checkVectorSize(b, probe(b, [&] { return values(0.0); }), indices.size(), what);
  } else {
    TimeVector v =
        timeVector(b, requiredAttribute(b, "values", what), indices.size(), "attribute 'values'");
    if (v.function)
      values = v.function;
    else
      values = [c = v.constant](double) { return c; };
  }
  try {
    ds.setBoundaryConditions(indices, values);
  } catch (const nsdyn::Error& e) {
    fail(b, e.what());
  }
}

SP::DynamicalSystem Loader::firstOrder(const Node& s) {
  const bool ti = std::strcmp(s.name(), "FirstOrderLinearTIDS") == 0;
  check(s, {schema::allowed(s.name()), {"x0", "A", "b"}});
  const SiconosVector x0 = vectorData(single(s, "x0", true), std::nullopt, "x0 (initial state)");
  const std::size_t n = x0.size();
  Node a = single(s, "A", true);
  SP::FirstOrderLinearDS ds;
  if (!ti && a.attribute("function")) {
    check(a, {schema::allowed("functionRef"), {}});
    auto f = function<FunctionRegistry::MatrixOfTime>(a, n);
    checkMatrixSize(a, probe(a, [&] { return f(0.0); }), n, n, "A(t) (n x n, n = size of x0)");
    ds = std::make_shared<FirstOrderLinearDS>(x0, f);
  } else {
    const SimpleMatrix A = matrixData(a, n, n, "A (n x n, n = size of x0)");
    if (ti)
      ds = std::make_shared<FirstOrderLinearTIDS>(x0, A);
    else
      ds = std::make_shared<FirstOrderLinearDS>(x0, A);
  }
  if (Node b = single(s, "b", false)) {
    if (!ti && b.attribute("function")) {
      check(b, {schema::allowed("functionRef"), {}});
      auto f = function<FunctionRegistry::VectorOfTime>(b, n);
      checkVectorSize(b, probe(b, [&] { return f(0.0); }), n, "b(t)");
      ds->setb(f);
    } else {
      ds->setb(vectorData(b, n, "b (size of x0)"));
    }
  }
  return ds;
}

}  // namespace nsdyn::io::xml
