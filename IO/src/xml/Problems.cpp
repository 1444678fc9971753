// One-step nonsmooth problems (<LCP>, <MLCP>, <Relay>, <FrictionContact>, <GenericMechanical>,
// <RollingFrictionContact>)
// and their solver
// <options> (Numerics' option table).

#include "Loader.hpp"

namespace nsdyn::io::xml {

// <options>: every attribute and group element comes from Numerics' option table
// (nsd_option_table: `tolerance` on <options>, `nsgs.local_tolerance` as
// <nsgs local-tolerance="..."/>); warm start is the problem's own attribute. The
// options set must be read by the solver or its fallback.
void Loader::applyOptions(const Node& o, NsdSolverOptions& opt, const NsdSolverEntry* solver,
                          const NsdSolverEntry* fallback) const {
  int count = 0;
  const NsdOptionEntry* table = nsd_option_table(&count);
  auto xmlName = [](std::string name) {
    for (char& c : name)
      if (c == '_') c = '-';
    return name;
  };
  // allowed attributes per element: "" for <options>, the group for its children
  std::map<std::string, std::vector<std::string>> allowed;
  for (int k = 0; k < count; ++k) {
    const std::string name = table[k].name;
    if (name == "warm_start") continue;
    const auto dot = name.find('.');
    if (dot == std::string::npos)
      allowed[""].push_back(xmlName(name));
    else
      allowed[name.substr(0, dot)].push_back(xmlName(name.substr(dot + 1)));
  }
  std::vector<std::string> groups;
  for (const auto& [group, names] : allowed)
    if (!group.empty()) groups.push_back(group);
  check(o, {allowed[""], groups});
  auto apply = [&](const Node& n, const std::string& prefix) {
    for (pugi::xml_attribute at : n.attributes()) {
      const std::string name = prefix + at.name();
      NsdReport report{};
      if (nsd_option_set(&opt, name.c_str(), at.value(), &report) != NSD_OK)
        fail(n, "attribute '" + std::string(at.name()) + "': " + report.message);
      const NsdOptionEntry* e = nsd_option_find(name.c_str());
      if (!nsd_option_applies(e, solver) && !(fallback && nsd_option_applies(e, fallback)))
        fail(n, "attribute '" + std::string(at.name()) + "': option " + e->name +
                    " is not read by the " + nsd_kind_name(solver->kind) + " solver '" +
                    solver->name + "'" +
                    (fallback ? std::string(" nor by its fallback '") + fallback->name + "'" : "") +
                    " (see nsdyn solve --list-options)");
    }
  };
  apply(o, "");
  for (const std::string& group : groups)
    if (Node x = single(o, group.c_str(), false)) {
      check(x, {allowed[group], {}});
      apply(x, group + ".");
    }
}

// <FrictionContact fallback-time-factor fallback-iterations>: the scene engine's bound on its
// fallback solver (SceneEngineOptions), kept in LoadedScene.
void Loader::sceneFallbackBound(const Node& p) const {
  const bool factor = p.attribute("fallback-time-factor"),
             iterations = p.attribute("fallback-iterations");
  if (!factor && !iterations) return;
  if (!out_->scene)
    fail(p, std::string("attribute '") + (factor ? "fallback-time-factor" : "fallback-iterations") +
                "': expected in a model with a <scene> (the scene engine's fallback bound), found "
                "it in a model without one");
  LoadedScene& scene = *out_->scene;
  scene.fallbackTimeFactor =
      nonNegative(p, "fallback-time-factor", scene.fallbackTimeFactor,
                  "the fallback's time bound, a factor of the first solver's time (0: none)");
  scene.fallbackIterations = intAttribute(p, "fallback-iterations", scene.fallbackIterations, 0,
                                          "the fallback's iterations at most (0: max-iterations)");
}

// A nonsmooth problem; @p withRole: an EventDriven LCP (attribute role).
SP::OneStepNSProblem Loader::problem(const Node& p, bool withRole) const {
  const std::string kind = p.name();
  // an EventDriven LCP has a role, a time-stepping problem a mode (tolerance or budget)
  check(p, {schema::allowed(
                kind, withRole ? schema::Context::EventDriven : schema::Context::TimeStepping),
            {"options"}});
  const std::string solver = p.attribute("solver") ? trim(p.attribute("solver").value()) : "";
  SP::OneStepNSProblem problem;
  try {
    if (kind == "LCP")
      problem = std::make_shared<LCP>(solver.empty() ? "lemke" : solver);
    else if (kind == "MLCP")
      problem = std::make_shared<MLCP>(solver.empty() ? "lemke" : solver);
    else if (kind == "Relay")
      problem = std::make_shared<Relay>(solver.empty() ? "lemke" : solver);
    else if (kind == "GenericMechanical")
      problem = std::make_shared<GenericMechanical>(solver.empty() ? "newton" : solver);
    else if (kind == "RollingFrictionContact")
      problem = std::make_shared<RollingFrictionContact>(solver);
    else
      problem = std::make_shared<FrictionContact>(intAttribute(p, "dim", std::nullopt, 2, "2 or 3"),
                                                  solver);
  } catch (const LoadError&) {
    throw;
  } catch (const nsdyn::Error& e) {
    fail(p, e.what());
  }
  // the solver name, checked against Numerics' table of the kind
  if (!nsd_solver_find(problem->numericsKind(), problem->solverName().c_str())) {
    int count = 0;
    const NsdSolverEntry* table = nsd_solver_table(&count);
    std::vector<std::string> names;
    for (int k = 0; k < count; ++k)
      if (table[k].kind == problem->numericsKind()) names.push_back(table[k].name);
    fail(p, "attribute 'solver': expected one of " + join(names) + ", found '" +
                problem->solverName() + "'");
  }
  if (p.attribute("fallback")) {
    const std::string fallback = trim(p.attribute("fallback").value());
    if (!nsd_solver_find(problem->numericsKind(), fallback.c_str())) {
      int count = 0;
      const NsdSolverEntry* table = nsd_solver_table(&count);
      std::vector<std::string> names;
      for (int k = 0; k < count; ++k)
        if (table[k].kind == problem->numericsKind()) names.push_back(table[k].name);
      fail(p,
           "attribute 'fallback': expected one of " + join(names) + ", found '" + fallback + "'");
    }
    problem->setFallbackSolver(fallback);
  }
  if (kind == "FrictionContact") sceneFallbackBound(p);
  if (kind == "GenericMechanical" &&
      (p.attribute("fallback-time-factor") || p.attribute("fallback-iterations")))
    problem->setFallbackBound(
        nonNegative(p, "fallback-time-factor", problem->fallbackTimeFactor(),
                    "the fallback's time bound, a factor of the first solver's time (0: none)"),
        intAttribute(p, "fallback-iterations", problem->fallbackIterations(), 0,
                     "the fallback's iterations at most (0: max-iterations)"));
  problem->setWarmStart(boolean(p, "warm-start", problem->warmStart()));
  SolveMode mode = SolveMode::Tolerance;
  parseSolveMode(choice(p, "mode", schema::values(kind, "mode"), "tolerance"), mode);
  if (mode == SolveMode::Budget && p.attribute("fallback"))
    fail(p,
         "attribute 'fallback': no fallback solver in mode=\"budget\" (the budget of a "
         "step is fixed), found '" +
             problem->fallbackSolver() + "'");
  problem->setSolveMode(mode);
  // the Delassus storage: the Kernel's default (sparse-block) unless the file names one, so
  // that a C++ driver and its XML twin assemble the same matrix
  const std::string storage =
      choice(p, "storage", schema::values(kind, "storage"),
             problem->matrixStorage() == OneStepNSProblem::MatrixStorage::Dense ? "dense"
                                                                                : "sparse-block");
  problem->setMatrixStorage(storage == "dense" ? OneStepNSProblem::MatrixStorage::Dense
                                               : OneStepNSProblem::MatrixStorage::SparseBlock);
  if (Node o = single(p, "options", false))
    applyOptions(o, problem->optionsMutable(),
                 nsd_solver_find(problem->numericsKind(), problem->solverName().c_str()),
                 problem->fallbackSolver().empty()
                     ? nullptr
                     : nsd_solver_find(problem->numericsKind(), problem->fallbackSolver().c_str()));
  return problem;
}

}  // namespace nsdyn::io::xml
