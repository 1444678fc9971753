// <interactions>: nonsmooth laws and relations (Lagrangian, rigid bodies and joints, first
// order), linked to their systems.

#include "Loader.hpp"

namespace nsdyn::io::xml {

void Loader::interactions(const Node& n) {
  check(n, {schema::allowed("interactions"), {"interaction"}});
  for (Node i : n.children("interaction")) interaction(i);
}

SP::NonSmoothLaw Loader::law(const Node& l) const {
  const std::string kind = l.name();
  try {
    if (kind == "NewtonImpactNSL") {
      check(l, {schema::allowed(kind), {}});
      return std::make_shared<NewtonImpactNSL>(
          restitution(l, "e", std::nullopt, "restitution coefficient"),
          static_cast<std::size_t>(integer(l, "size", 1, 1, "rows", kMaxLawRows)));
    }
    if (kind == "NewtonImpactFrictionNSL") {
      check(l, {schema::allowed(kind), {}});
      const double mu = number(l, "mu", std::nullopt, "friction coefficient");
      if (!(mu >= 0.0))
        fail(l, "attribute 'mu': expected a friction coefficient >= 0, found " + numberText(mu) +
                    " ('" + l.attribute("mu").value() + "')");
      return std::make_shared<NewtonImpactFrictionNSL>(
          restitution(l, "en", std::nullopt, "normal restitution"),
          restitution(l, "et", 0.0, "tangential restitution"), mu,
          static_cast<std::size_t>(
              integer(l, "dim", std::nullopt, 2, "contact dimension, 2 or 3", 3)));
    }
    if (kind == "ComplementarityConditionNSL") {
      check(l, {schema::allowed(kind), {}});
      return std::make_shared<ComplementarityConditionNSL>(
          static_cast<std::size_t>(integer(l, "size", 1, 1, "rows", kMaxLawRows)));
    }
    if (kind == "EqualityConditionNSL") {
      check(l, {schema::allowed(kind), {}});
      return std::make_shared<EqualityConditionNSL>(
          static_cast<std::size_t>(integer(l, "size", 1, 1, "rows", kMaxLawRows)));
    }
    if (kind == "MixedComplementarityConditionNSL") {
      check(l, {schema::allowed(kind), {}});
      return std::make_shared<MixedComplementarityConditionNSL>(
          static_cast<std::size_t>(
              integer(l, "equalities", std::nullopt, 0, "equality rows", kMaxLawRows)),
          static_cast<std::size_t>(integer(l, "complementarities", std::nullopt, 0,
                                           "complementarity rows", kMaxLawRows)));
    }
    check(l, {schema::allowed("RelayNSL"), {}});
    return std::make_shared<RelayNSL>(
        static_cast<std::size_t>(integer(l, "size", 1, 1, "rows", kMaxLawRows)),
        number(l, "lb", -1.0, "lower bound"), number(l, "ub", 1.0, "upper bound"));
  } catch (const LoadError&) {
    throw;
  } catch (const nsdyn::Error& e) {
    fail(l, e.what());
  }
}

void Loader::interaction(const Node& n) {
  static const std::vector<std::string> laws = {
      "NewtonImpactNSL",      "NewtonImpactFrictionNSL",          "ComplementarityConditionNSL",
      "EqualityConditionNSL", "MixedComplementarityConditionNSL", "RelayNSL"};
  static const std::vector<std::string> relations = {
      "LagrangianLinearTIR", "LagrangianScleronomousR",
      "NewtonEulerR",        "SpherePlaneContact",
      "KneeJointR",          "PivotJointR",
      "PrismaticJointR",     "FixedJointR",
      "FirstOrderLinearR",   "FirstOrderLinearTIR"};
  std::vector<std::string> children = laws;
  children.insert(children.end(), relations.begin(), relations.end());
  check(n, {schema::allowed("interaction"), children});
  const std::string name = requiredAttribute(n, "name", "interaction name");
  validName(n, name);
  if (interactionIndex_.count(name))
    fail(n, "expected a new interaction name, found '" + name + "' a second time");

  // linked systems
  std::vector<std::string> names;
  std::stringstream in(requiredAttribute(n, "systems", "one or two system names"));
  for (std::string s; in >> s;) names.push_back(s);
  if (names.size() > 2)
    fail(n, "attribute 'systems': expected one or two system names, found " +
                std::to_string(names.size()));
  std::vector<SP::DynamicalSystem> linked;
  for (const std::string& s : names) {
    SP::DynamicalSystem ds = systemNamed(s);
    if (!ds) {
      std::vector<std::string> defined;
      for (const auto& e : out_->systems) defined.push_back(e.first);
      fail(n, "reference to an undefined system '" + s + "' (defined: " + join(defined) + ")");
    }
    linked.push_back(ds);
  }
  if (linked.size() == 2 && linked[0] == linked[1])
    fail(n, "attribute 'systems': expected two different systems, found '" + names[0] + "' twice");
  const DynamicalSystemKind kind = linked[0]->kind();
  for (const auto& ds : linked)
    if (ds->kind() != kind)
      fail(n,
           "attribute 'systems': expected systems of one kind (Lagrangian, rigid bodies or "
           "first order), found " +
               names[0] + " (" + linked[0]->className() + ") and " + names[1] + " (" +
               linked[1]->className() + ")");
  std::size_t dof = 0;
  for (const auto& ds : linked) dof += ds->dimension();

  // one law and one relation
  Node lawNode, relationNode;
  for (Node c : n.children()) {
    if (c.type() != pugi::node_element) continue;
    const bool isLaw = std::find(laws.begin(), laws.end(), c.name()) != laws.end();
    Node& slot = isLaw ? lawNode : relationNode;
    if (slot)
      throw LoadError(file_, lineOf(c),
                      "<" + std::string(c.name()) + ">: expected one " +
                          (isLaw ? "law" : "relation") + " per interaction, found a second");
    slot = c;
  }
  if (!lawNode) fail(n, "expected a nonsmooth law (" + join(laws) + "), found none");
  if (!relationNode) fail(n, "expected a relation (" + join(relations) + "), found none");
  SP::NonSmoothLaw nsl = law(lawNode);
  const std::size_t m = nsl->size();
  const std::string rk = relationNode.name();
  auto kindName = [](DynamicalSystemKind k) {
    return k == DynamicalSystemKind::Lagrangian    ? std::string("Lagrangian")
           : k == DynamicalSystemKind::NewtonEuler ? std::string("rigid-body")
                                                   : std::string("first-order");
  };
  const DynamicalSystemKind relationKind =
      rk.rfind("Lagrangian", 0) == 0   ? DynamicalSystemKind::Lagrangian
      : rk.rfind("FirstOrder", 0) == 0 ? DynamicalSystemKind::FirstOrder
                                       : DynamicalSystemKind::NewtonEuler;
  if (relationKind != kind)
    throw LoadError(file_, lineOf(relationNode),
                    "<" + rk + ">: expected a " + kindName(kind) + " relation for the systems " +
                        join(names) + ", found a " + kindName(relationKind) + " one");
  SP::Relation relation;
  try {
    if (relationKind == DynamicalSystemKind::Lagrangian)
      relation = lagrangianR(relationNode, m, dof, linked);
    else if (relationKind == DynamicalSystemKind::NewtonEuler)
      relation = rigidBodyR(relationNode, m, linked, names);
    else
      relation = firstOrderR(relationNode, m, dof);
  } catch (const LoadError&) {
    throw;
  } catch (const nsdyn::Error& e) {
    fail(relationNode, e.what());
  }
  auto inter = std::make_shared<Interaction>(nsl, relation);
  try {
    model_->nonSmoothDynamicalSystem()->link(inter, linked[0],
                                             linked.size() > 1 ? linked[1] : nullptr);
    // the Kernel's checks of the relation against its law and systems, here
    // rather than at Model::initialize() (the line of the interaction)
    inter->checkConsistency();
  } catch (const nsdyn::Error& e) {
    fail(n, e.what());
  }
  interactionIndex_.emplace(name, out_->interactions.size());
  out_->interactions.emplace_back(name, inter);
  // a hinge's or slider's motor and limits: interactions of their own
  if (relationKind == DynamicalSystemKind::NewtonEuler)
    jointAxes(relationNode, relation, name, linked);
}

SP::Relation Loader::lagrangianR(const Node& r, std::size_t m, std::size_t dof,
                                 const std::vector<SP::DynamicalSystem>& linked) const {
  const std::string mdof = " (" + shape(m, dof) + ": law size x dof of the linked systems)";
  if (std::strcmp(r.name(), "LagrangianLinearTIR") == 0) {
    check(r, {schema::allowed("LagrangianLinearTIR"), {"H", "b"}});
    SimpleMatrix H = matrixData(single(r, "H", true), m, dof, "H" + mdof);
    if (Node b = single(r, "b", false))
      return std::make_shared<LagrangianLinearTIR>(H, vectorData(b, m, "b (law size)"));
    return std::make_shared<LagrangianLinearTIR>(H);
  }
  check(r, {schema::allowed("LagrangianScleronomousR"), {"h", "G"}});
  Node hn = single(r, "h", true), gn = single(r, "G", true);
  check(hn, {schema::allowed("functionRef"), {}});
  check(gn, {schema::allowed("functionRef"), {}});
  auto h = function<FunctionRegistry::VectorOfQ>(hn, dof);
  auto G = function<FunctionRegistry::MatrixOfQ>(gn, dof);
  SiconosVector q(dof);
  std::size_t at = 0;
  for (const auto& ds : linked) {
    q.setSegment(at, std::static_pointer_cast<LagrangianDS>(ds)->q());
    at += ds->dimension();
  }
  checkVectorSize(hn, probe(hn, [&] { return h(q); }), m, "h(q) (law size)");
  checkMatrixSize(gn, probe(gn, [&] { return G(q); }), m, dof, "G(q)" + mdof);
  return std::make_shared<LagrangianScleronomousR>(h, G);
}

// Relations of rigid bodies: constant NewtonEulerR, a sphere against a plane, joints.
SP::Relation Loader::rigidBodyR(const Node& r, std::size_t m,
                                const std::vector<SP::DynamicalSystem>& linked,
                                const std::vector<std::string>& names) const {
  const std::string kind = r.name();
  std::vector<SP::NewtonEulerDS> bodies;
  for (const auto& ds : linked) bodies.push_back(std::static_pointer_cast<NewtonEulerDS>(ds));
  const std::size_t nb = bodies.size();
  if (kind == "NewtonEulerR") {
    check(r, {schema::allowed(kind), {"C", "e"}});
    const SimpleMatrix C = matrixData(
        single(r, "C", true), m, 7 * nb,
        "C (" + shape(m, 7 * nb) + ": law size x 7 position coordinates per linked body)");
    if (Node e = single(r, "e", false))
      return std::make_shared<NewtonEulerR>(C, vectorData(e, m, "e (law size)"));
    return std::make_shared<NewtonEulerR>(C);
  }
  if (kind == "SpherePlaneContact") return spherePlane(r, m, nb);
  if (kind == "FixedJointR") {
    check(r, {schema::allowed(kind), {}});
    return nb == 1 ? std::make_shared<FixedJointR>(bodies[0])
                   : std::make_shared<FixedJointR>(bodies[0], bodies[1]);
  }
  const bool absolute = [&] {
    requiredAttribute(
        r, "absolute",
        "true: point and axis in the world frame, false: in the frame of " + names[0]);
    return boolean(r, "absolute", true);
  }();
  if (kind == "KneeJointR") {
    check(r, {schema::allowed(kind), {}});
    const SiconosVector P = vectorAttribute(r, "point", 3, "the joint point");
    return nb == 1 ? std::make_shared<KneeJointR>(P, absolute, bodies[0])
                   : std::make_shared<KneeJointR>(P, absolute, bodies[0], bodies[1]);
  }
  auto axisOf = [&] {
    const SiconosVector axis = vectorAttribute(r, "axis", 3, "the joint axis");
    if (!(axis.norm2() > 0.0))
      fail(r, "attribute 'axis': expected an axis of non-zero length, found " + axis.toString() +
                  " ('" + trim(r.attribute("axis").value()) + "')");
    return axis;
  };
  if (kind == "PivotJointR") {
    check(r, {schema::allowed(kind), {}});
    const SiconosVector P = vectorAttribute(r, "point", 3, "the joint point");
    const SiconosVector axis = axisOf();
    return nb == 1 ? std::make_shared<PivotJointR>(P, axis, absolute, bodies[0])
                   : std::make_shared<PivotJointR>(P, axis, absolute, bodies[0], bodies[1]);
  }
  check(r, {schema::allowed("PrismaticJointR"), {}});
  const SiconosVector axis = axisOf();
  return nb == 1 ? std::make_shared<PrismaticJointR>(axis, absolute, bodies[0])
                 : std::make_shared<PrismaticJointR>(axis, absolute, bodies[0], bodies[1]);
}

// A sphere of radius R (the first body, centre G1) against a plane N·x = c:
// fixed (one body, c = offset) or carried by the second body (c = N·G2 + offset);
// N in the world frame. gap = ((N·G1 − R) − N·G2) − offset, contact points
// Pc1 = G1 − R N (on the sphere) and Pc2 = Pc1 − gap N (on the plane).
SP::Relation Loader::spherePlane(const Node& r, std::size_t m, std::size_t nb) const {
  check(r, {schema::allowed("SpherePlaneContact"), {}});
  const double R = number(r, "radius", std::nullopt, "radius of the sphere");
  if (!(R >= 0.0)) fail(r, "attribute 'radius': expected a radius >= 0, found " + numberText(R));
  SiconosVector N = vectorAttribute(r, "normal", 3, "the plane's normal (world frame)");
  const double length = N.norm2();
  if (!(length > 0.0))
    fail(r, "attribute 'normal': expected a normal of non-zero length, found " + N.toString());
  N /= length;
  const double offset = number(r, "offset", 0.0, "offset of the plane along its normal");
  if (m != 1 && m != 3)
    fail(r,
         "expected a law of size 1 (normal row: NewtonImpactNSL) or 3 (normal and "
         "tangent rows: NewtonImpactFrictionNSL dim=\"3\"), found size " +
             std::to_string(m));
  const bool two = nb == 2;
  const double n0 = N(0), n1 = N(1), n2 = N(2);
  NewtonEuler1DR::GapFunction gap = [R, offset, two, n0, n1, n2](const SiconosVector& q, double,
                                                                 NewtonEuler1DR::Geometry& g) {
    double d = n0 * q(0) + n1 * q(1) + n2 * q(2) - R;
    if (two) d = d - (n0 * q(7) + n1 * q(8) + n2 * q(9));
    d = d - offset;
    g.N = SiconosVector{n0, n1, n2};
    g.Pc1 = SiconosVector{q(0) - R * n0, q(1) - R * n1, q(2) - R * n2};
    if (two) g.Pc2 = SiconosVector{g.Pc1(0) - d * n0, g.Pc1(1) - d * n1, g.Pc1(2) - d * n2};
    return d;
  };
  if (m == 1) return std::make_shared<NewtonEuler1DR>(gap);
  return std::make_shared<NewtonEuler3DR>(gap);
}

SP::Relation Loader::firstOrderR(const Node& r, std::size_t m, std::size_t n) const {
  const bool ti = std::strcmp(r.name(), "FirstOrderLinearTIR") == 0;
  if (ti)
    check(r, {schema::allowed(r.name()), {"C", "D", "B", "e"}});
  else
    check(r, {schema::allowed(r.name()), {"C", "D", "B", "e", "F", "u"}});
  Node cn = single(r, "C", true), bn = single(r, "B", true), dn = single(r, "D", false),
       en = single(r, "e", false);
  const std::string cs = "C (" + shape(m, n) + ": law size x dimension of the linked systems)";
  const std::string bs = "B (" + shape(n, m) + ": dimension x law size)";
  const std::string ds = "D (" + shape(m, m) + ": law size)";
  if (ti) {
    SimpleMatrix C = matrixData(cn, m, n, cs), B = matrixData(bn, n, m, bs);
    SimpleMatrix D = dn ? matrixData(dn, m, m, ds) : SimpleMatrix(m, m);
    if (en)
      return std::make_shared<FirstOrderLinearTIR>(C, D, B, vectorData(en, m, "e (law size)"));
    if (dn) return std::make_shared<FirstOrderLinearTIR>(C, D, B);
    return std::make_shared<FirstOrderLinearTIR>(C, B);
  }
  // each of C, D, B, e: a constant or a function of t
  auto matrixOrFunction = [&](const Node& x, std::size_t rows, std::size_t cols,
                              const std::string& meaning, SimpleMatrix* constant,
                              FunctionRegistry::MatrixOfTime* f) {
    if (x.attribute("function")) {
      check(x, {schema::allowed("functionRef"), {}});
      *f = function<FunctionRegistry::MatrixOfTime>(x, n);
      checkMatrixSize(x, probe(x, [&] { return (*f)(0.0); }), rows, cols, meaning);
    } else {
      *constant = matrixData(x, rows, cols, meaning);
    }
  };
  SimpleMatrix C, B, D;
  FunctionRegistry::MatrixOfTime cf, bf, df;
  matrixOrFunction(cn, m, n, cs, &C, &cf);
  matrixOrFunction(bn, n, m, bs, &B, &bf);
  auto rel = std::make_shared<FirstOrderLinearR>(C, B);
  if (cf) rel->setC(cf);
  if (bf) rel->setB(bf);
  if (dn) {
    matrixOrFunction(dn, m, m, ds, &D, &df);
    if (df)
      rel->setD(df);
    else
      rel->setD(D);
  }
  if (en) {
    if (en.attribute("function")) {
      check(en, {schema::allowed("functionRef"), {}});
      auto f = function<FunctionRegistry::VectorOfTime>(en, n);
      checkVectorSize(en, probe(en, [&] { return f(0.0); }), m, "e(t) (law size)");
      rel->sete(f);
    } else {
      rel->sete(vectorData(en, m, "e (law size)"));
    }
  }
  Node fn = single(r, "F", false), un = single(r, "u", false);
  if (static_cast<bool>(fn) != static_cast<bool>(un))
    fail(r, std::string("expected both <F> and <u> (the F u term), found only <") +
                (fn ? "F" : "u") + ">");
  if (fn) {
    if (un.attribute("function")) {
      check(un, {schema::allowed("functionRef"), {}});
      auto u = function<FunctionRegistry::VectorOfTime>(un, n);
      const SiconosVector u0 = probe(un, [&] { return u(0.0); });
      rel->setF(matrixData(fn, m, u0.size(), "F (law size x size of u)"), u);
    } else {
      const SiconosVector u = vectorData(un, std::nullopt, "u");
      rel->setF(matrixData(fn, m, u.size(), "F (law size x size of u)"), u);
    }
  }
  return rel;
}

}  // namespace nsdyn::io::xml
