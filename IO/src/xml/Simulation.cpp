// <simulation>: time stepping (with or without projection) or event-driven, its integrators,
// <newton> and <projection> settings.

#include "Loader.hpp"

namespace nsdyn::io::xml {

SP::OneStepIntegrator Loader::integrator(const Node& i) const {
  const bool projection = std::strcmp(i.name(), "MoreauJeanDirectProjectionOSI") == 0;
  const bool moreauJean = std::strcmp(i.name(), "MoreauJeanOSI") == 0;
  if (projection)
    check(i, {schema::allowed("MoreauJeanDirectProjectionOSI"), {}});
  else if (moreauJean)
    check(i, {schema::allowed("MoreauJeanOSI"), {}});
  else
    check(i, {schema::allowed("EulerMoreauOSI"), {}});
  const double theta = number(i, "theta", 0.5, "theta in [0, 1]");
  if (!(theta >= 0.0 && theta <= 1.0))
    fail(i, "attribute 'theta': expected a number in [0, 1], found " + std::to_string(theta));
  SP::OneStepIntegrator osi;
  if (projection) {
    auto p = std::make_shared<MoreauJeanDirectProjectionOSI>(theta);
    p->setActivateThreshold(
        number(i, "activate-threshold", p->activateThreshold(), "activation threshold on y"));
    p->setDeactivateVelocityThreshold(number(i, "deactivate-velocity-threshold",
                                             p->deactivateVelocityThreshold(),
                                             "deactivation threshold on the velocity"));
    osi = p;
  } else if (moreauJean) {
    auto mj = std::make_shared<MoreauJeanOSI>(theta);
    mj->setConstraintsAtMidpoint(choice(i, "constraints",
                                        schema::values("MoreauJeanOSI", "constraints"),
                                        "end-of-step") == "midpoint");
    osi = mj;
  } else {
    osi = std::make_shared<EulerMoreauOSI>(theta);
  }
  if (i.attribute("systems")) {
    std::stringstream in(requiredAttribute(i, "systems", "system names"));
    for (std::string s; in >> s;) {
      SP::DynamicalSystem ds = systemNamed(s);
      if (!ds) fail(i, "reference to an undefined system '" + s + "'");
      if (!osi->accepts(*ds))
        fail(i, "expected systems the integrator accepts (" +
                    std::string(osi->className() == "EulerMoreauOSI"
                                    ? "first order"
                                    : "mechanical: Lagrangian systems and rigid bodies") +
                    "), found '" + s + "' (" + ds->className() + ")");
      osi->insertDynamicalSystem(ds);
    }
  }
  return osi;
}

// EventDriven: one CvodeOSI, the impact LCP and the acceleration LCP, event settings.
std::shared_ptr<Simulation> Loader::eventDriven(const Node& n,
                                                const SP::TimeDiscretisation& td) const {
  check(n, {schema::allowed("simulation"), {"CvodeOSI", "LCP", "events"}});
  Node c = single(n, "CvodeOSI", true);
  check(c, {schema::allowed("CvodeOSI"), {}});
  CvodeOSI::Options o;
  o.method = choice(c, "method", schema::values("CvodeOSI", "method"), "adams") == "adams"
                 ? CvodeOSI::Method::Adams
                 : CvodeOSI::Method::BDF;
  o.rtol = number(c, "rtol", o.rtol, "relative tolerance");
  o.atol = number(c, "atol", o.atol, "absolute tolerance");
  o.maxStepsPerEvent =
      integer(c, "max-steps-per-event", o.maxStepsPerEvent, 1, "CVODE steps between events");
  o.maxStep = number(c, "max-step", o.maxStep, "largest internal step (s)");
  o.maxOrder = intAttribute(c, "max-order", o.maxOrder, 0, "largest order");
  auto osi = std::make_shared<CvodeOSI>(o);
  auto sim = std::make_shared<EventDriven>(td, osi);
  for (Node p : n.children("LCP")) {
    const std::string role = choice(p, "role", schema::values("LCP", "role"), "impact");
    SP::OneStepNSProblem lcp = problem(p, true);
    if (role == "impact")
      sim->setImpactProblem(lcp);
    else
      sim->setAccelerationProblem(lcp);
  }
  if (Node e = single(n, "events", false)) {
    check(e, {schema::allowed("events"), {}});
    EventDriven::Options& eo = sim->optionsMutable();
    eo.eventTolerance =
        number(e, "event-tolerance", eo.eventTolerance, "gap and velocity tolerance");
    eo.impactVelocityThreshold =
        number(e, "impact-velocity-threshold", eo.impactVelocityThreshold, "m/s");
    eo.minImpactInterval = number(e, "min-impact-interval", eo.minImpactInterval, "s");
    eo.maxEvents = integer(e, "max-events", eo.maxEvents, 1, "events");
  }
  return sim;
}

void Loader::simulation(const Node& n) {
  out_->simulationType = choice(n, "type", schema::values("simulation", "type"), "TimeStepping");
  const bool projection = out_->simulationType == "TimeSteppingDirectProjection";
  const std::vector<std::string> integrators =
      projection ? std::vector<std::string>{"MoreauJeanDirectProjectionOSI"}
                 : std::vector<std::string>{"MoreauJeanOSI", "EulerMoreauOSI"};
  static const std::vector<std::string> problems = {"LCP", "MLCP", "Relay", "FrictionContact",
                                                    "GenericMechanical"};
  std::vector<std::string> children = integrators;
  children.insert(children.end(), problems.begin(), problems.end());
  children.push_back("RollingFrictionContact");  // a <scene>'s contacts only
  children.push_back("newton");
  if (projection) children.push_back("projection");
  if (out_->simulationType != "EventDriven") check(n, {schema::allowed("simulation"), children});
  out_->t0 = number(n, "t0", 0.0, "initial time");
  out_->T = number(n, "T", std::nullopt, "final time");
  out_->h = number(n, "h", std::nullopt, "time step");
  if (!(out_->h > 0))
    fail(n,
         "attribute 'h': expected a time step > 0, found " + std::string(n.attribute("h").value()));
  if (!(out_->T > out_->t0))
    fail(n, "attribute 'T': expected a final time > t0 = " + std::to_string(out_->t0) + ", found " +
                n.attribute("T").value());
  if (!(out_->h <= out_->T - out_->t0))
    fail(n, "attribute 'h': expected a time step <= T - t0 = " + numberText(out_->T - out_->t0) +
                ", found " + numberText(out_->h) + " ('" + n.attribute("h").value() +
                "'): one step would end past T");
  // the step count as a double first: T = 1e300, h = 1e-300 must not overflow a cast
  const double stepsByTime = std::ceil((out_->T - out_->t0) / out_->h);
  if (!(stepsByTime <= kMaxSteps))
    fail(n,
         "attributes 'T', 't0' and 'h': expected at most 1e15 time steps ((T - t0) / h, a "
         "count a 64-bit integer holds), found " +
             numberText(stepsByTime) + " (T = " + n.attribute("T").value() +
             ", h = " + n.attribute("h").value() + ")");
  const long byTime = static_cast<long>(stepsByTime);
  out_->steps = integer(n, "steps", byTime, 1, "number of steps");
  if (n.attribute("on-failure")) {
    out_->onFailureGiven = true;
    out_->stopOnFailure =
        choice(n, "on-failure", schema::values("simulation", "on-failure"), "stop") == "stop";
  }

  auto td = std::make_shared<TimeDiscretisation>(out_->t0, out_->h);
  if (out_->scene && out_->simulationType != "TimeStepping")
    fail(n, "attribute 'type': expected TimeStepping for a model with a <scene>, found " +
                out_->simulationType);
  if (out_->simulationType == "EventDriven") {
    initializeModel(n, eventDriven(n, td));
    return;
  }
  SP::TimeStepping sim;
  if (projection)
    sim = std::make_shared<TimeSteppingDirectProjection>(td, nullptr, nullptr);
  else
    sim = std::make_shared<TimeStepping>(td);
  Node problemNode;
  for (Node c : n.children()) {
    if (c.type() != pugi::node_element) continue;
    if (std::find(integrators.begin(), integrators.end(), c.name()) != integrators.end()) {
      sim->insertIntegrator(integrator(c));
    } else if (std::find(problems.begin(), problems.end(), c.name()) != problems.end() ||
               std::strcmp(c.name(), "RollingFrictionContact") == 0) {
      if (problemNode)
        throw LoadError(file_, lineOf(c),
                        "<" + std::string(c.name()) +
                            ">: expected one nonsmooth problem per simulation, found a second");
      problemNode = c;
      sim->insertNonSmoothProblem(problem(c));
    }
  }
  if (sim->integrators().empty())
    fail(n, "expected an integrator (" + join(integrators) + "), found none");
  if (out_->scene) {
    // the scene's contacts: FrictionContact(3) solves them, or GenericMechanical with joints
    const bool generic = problemNode && std::strcmp(problemNode.name(), "GenericMechanical") == 0;
    const bool rolling =
        problemNode && std::strcmp(problemNode.name(), "RollingFrictionContact") == 0;
    if (!rolling) {
      // a rolling resistance only <RollingFrictionContact> solves: refused, not dropped
      const ContactManager& manager = *out_->scene->contacts;
      double value = manager.defaultMaterial().rolling;
      for (const auto& m : manager.materials()) value = std::max(value, m.second.rolling);
      if (value > 0.0)
        fail(problemNode ? problemNode : n,
             "expected <RollingFrictionContact> for the <material> rolling = " + numberText(value) +
                 " of the <ContactManager>, found " +
                 (problemNode ? "<" + std::string(problemNode.name()) + ">"
                              : std::string("no nonsmooth problem")));
    }
    if (!generic && !out_->interactions.empty())
      fail(problemNode ? problemNode : n,
           "expected <GenericMechanical> for the " + std::to_string(out_->interactions.size()) +
               " interactions and the contacts of the <scene> in one problem, found " +
               (problemNode ? "<" + std::string(problemNode.name()) + ">"
                            : std::string("no nonsmooth problem")));
    if (!generic && !rolling &&
        (!problemNode || std::strcmp(problemNode.name(), "FrictionContact") != 0 ||
         std::dynamic_pointer_cast<FrictionContact>(sim->oneStepNSProblem())->dim() != 3))
      fail(problemNode ? problemNode : n,
           "expected <FrictionContact dim=\"3\"> (or <GenericMechanical>, "
           "<RollingFrictionContact>) for the contacts of the "
           "<scene>, found " +
               (problemNode ? "<" + std::string(problemNode.name()) + ">" +
                                  (problemNode.attribute("dim")
                                       ? std::string(" dim=\"") +
                                             problemNode.attribute("dim").value() + "\""
                                       : "")
                            : std::string("no nonsmooth problem")));
    sim->insertInteractionManager(out_->scene->contacts);
  }
  if (!problemNode && !out_->interactions.empty())
    fail(n, "expected a nonsmooth problem (" + join(problems) + ") for the " +
                std::to_string(out_->interactions.size()) + " interactions, found none");
  if (Node x = single(n, "newton", false)) newtonOptions(x, *sim);
  if (projection)
    if (Node x = single(n, "projection", false))
      projectionOptions(x, static_cast<TimeSteppingDirectProjection&>(*sim));

  initializeModel(n, sim);
}

// <newton mode="auto" tolerance="1e-10" max-iterations="10"/>: TimeStepping's Newton loop.
void Loader::newtonOptions(const Node& x, TimeStepping& sim) const {
  check(x, {schema::allowed("newton"), {}});
  const std::string mode = choice(x, "mode", schema::values("newton", "mode"), "auto");
  sim.setNewtonOptions(mode == "auto"     ? NewtonMode::Auto
                       : mode == "linear" ? NewtonMode::Linear
                                          : NewtonMode::Nonlinear);
  const double tolerance =
      number(x, "tolerance", sim.newtonTolerance(), "tolerance on |R - p| per system");
  if (!(tolerance > 0.0))
    fail(x, "attribute 'tolerance': expected a tolerance > 0, found " + numberText(tolerance));
  sim.setNewtonTolerance(tolerance);
  sim.setNewtonMaxIteration(
      intAttribute(x, "max-iterations", sim.newtonMaxIteration(), 1, "Newton iterations per step"));
}

// <projection max-iterations="20" unilateral-tolerance="1e-8" equality-tolerance="1e-8"
// solver="enum"/>
void Loader::projectionOptions(const Node& x, TimeSteppingDirectProjection& sim) const {
  check(x, {schema::allowed("projection"), {}});
  sim.setProjectionMaxIteration(
      intAttribute(x, "max-iterations", sim.projectionMaxIteration(), 0, "projections per step"));
  const double unilateral =
      number(x, "unilateral-tolerance", sim.unilateralTolerance(), "largest penetration left");
  const double equality =
      number(x, "equality-tolerance", sim.equalityTolerance(), "largest joint violation left");
  if (!(unilateral > 0.0))
    fail(x, "attribute 'unilateral-tolerance': expected a tolerance > 0, found " +
                numberText(unilateral));
  if (!(equality > 0.0))
    fail(x,
         "attribute 'equality-tolerance': expected a tolerance > 0, found " + numberText(equality));
  sim.setConstraintTolUnilateral(unilateral);
  sim.setConstraintTol(equality);
  if (x.attribute("solver")) {
    const std::string solver = trim(x.attribute("solver").value());
    if (!nsd_solver_find(NSD_KIND_MLCP, solver.c_str())) {
      int count = 0;
      const NsdSolverEntry* table = nsd_solver_table(&count);
      std::vector<std::string> names;
      for (int k = 0; k < count; ++k)
        if (table[k].kind == NSD_KIND_MLCP) names.push_back(table[k].name);
      fail(x, "attribute 'solver': expected one of " + join(names) + ", found '" + solver + "'");
    }
    sim.setProjectionSolver(solver);
  }
}

}  // namespace nsdyn::io::xml
