// OneStepNSProblem: assembly of the Delassus matrix and local q, solve, lambda back.
#include "nsdyn/OneStepNSProblem.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "nsdyn/Error.hpp"
#include "nsdyn/OneStepIntegrator.hpp"
#include "nsdyn/nsd_options.h"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

OneStepNSProblem::OneStepNSProblem(std::string solverName) : solverName_(std::move(solverName)) {
  nsd_solver_options_default(&options_);
}

void OneStepNSProblem::initialize(IntegratorLookup lookup, unsigned level) {
  if (!nsd_solver_find(numericsKind(), solverName_.c_str())) {
    int count = 0;
    const NsdSolverEntry* table = nsd_solver_table(&count);
    std::string known;
    for (int i = 0; i < count; ++i)
      if (table[i].kind == numericsKind())
        known += (known.empty() ? "" : ", ") + std::string(table[i].name);
    throw Error(className(),
                std::string("a ") + nsd_kind_name(numericsKind()) + " solver name (" + known + ")",
                "\"" + solverName_ + "\"");
  }
  if (!fallbackSolver_.empty() && !nsd_solver_find(numericsKind(), fallbackSolver_.c_str()))
    throw Error(className(),
                std::string("a ") + nsd_kind_name(numericsKind()) + " fallback solver name",
                "\"" + fallbackSolver_ + "\"");
  if (solveMode_ == SolveMode::Budget && !fallbackSolver_.empty())
    throw Error(className(), "no fallback solver in budget mode (the budget of a step is fixed)",
                "\"" + fallbackSolver_ + "\"");
  lookup_ = std::move(lookup);
  level_ = level;
}

NsdStatus OneStepNSProblem::solveNumerics(const NsdProblem& problem, double* x, double* y,
                                          NsdSolverOptions& options, NsdReport& report) {
  fallbackUsed_ = false;
  NsdStatus status = nsd_solve(&problem, solverName_.c_str(), x, y, &options, &report);
  if (status == NSD_OK || status == NSD_BAD_INPUT || fallbackSolver_.empty() ||
      fallbackSolver_ == solverName_ || !retries())
    return status;
  const int n = nsd_problem_size(&problem);
  bool finite = true;
  for (int i = 0; i < n; ++i) finite = finite && std::isfinite(x[i]);
  if (!finite)
    for (int i = 0; i < n; ++i) x[i] = 0.0;
  const int firstIterations = report.iterations;
  const double firstSeconds = report.seconds;
  NsdSolverOptions fallback = options;
  nsd_options_restrict(&fallback, nsd_solver_find(problem.kind, fallbackSolver_.c_str()));
  fallback.warm_start = finite ? 1 : 0;
  boundFallback(fallback, firstSeconds);
  status = nsd_solve(&problem, fallbackSolver_.c_str(), x, y, &fallback, &report);
  report.iterations += firstIterations;
  report.seconds += firstSeconds;
  fallbackUsed_ = true;
  return status;
}

void OneStepNSProblem::setFallbackBound(double factor, int iterations) {
  if (!(std::isfinite(factor) && factor >= 0.0))
    throw Error(className(), "a fallback time factor finite and >= 0 (0: no time bound)",
                std::to_string(factor));
  if (iterations < 0)
    throw Error(className(), "fallback iterations >= 0 (0: max_iterations)",
                std::to_string(iterations));
  fallbackTimeFactor_ = factor;
  fallbackIterations_ = iterations;
}

void OneStepNSProblem::boundFallback(NsdSolverOptions& fallback, double firstSeconds) const {
  if (fallbackTimeFactor_ > 0.0) {
    const double bound = std::max(fallbackTimeFactor_ * firstSeconds, 0.01);
    fallback.time_limit = fallback.time_limit > 0.0 ? std::min(fallback.time_limit, bound) : bound;
  }
  if (fallbackIterations_ > 0)
    fallback.max_iterations = std::min(fallback.max_iterations, fallbackIterations_);
}

NsdStatus OneStepNSProblem::judge(NsdStatus status, StepStatistics& stats) const {
  stats.aboveTolerance = status == NSD_MAX_ITERATIONS;
  return stats.aboveTolerance && solveMode_ == SolveMode::Budget ? NSD_OK : status;
}

bool OneStepNSProblem::passWarmStart() const {
  // the solver table says which solvers iterate from a start (the direct ones do not)
  const NsdSolverEntry* entry = nsd_solver_find(numericsKind(), solverName_.c_str());
  return warmStart_ && entry && entry->warm_start;
}

namespace {
/// One assembled block: rows of relation i, columns of relation j.
struct Block {
  std::size_t i, j;
  SimpleMatrix values;
};

/// Dense NsdMatrix from blocks.
NsdMatrixPtr denseFromBlocks(std::size_t n, const std::vector<std::size_t>& offset,
                             const std::vector<Block>& blocks, SimpleMatrix& copy) {
  copy = SimpleMatrix(n, n);
  for (const Block& b : blocks) copy.setBlock(offset[b.i], offset[b.j], b.values);
  return copy.toNsdMatrix();
}

/// Sparse-block NsdMatrix (block CSR, one block per coupled pair).
NsdMatrixPtr sparseFromBlocks(const std::vector<std::size_t>& offset,
                              const std::vector<std::size_t>& sizes, std::vector<Block>& blocks) {
  const int nb = static_cast<int>(sizes.size());
  std::sort(blocks.begin(), blocks.end(),
            [](const Block& a, const Block& b) { return a.i != b.i ? a.i < b.i : a.j < b.j; });
  std::vector<int> rowEnd(sizes.size()), rowPtr(sizes.size() + 1, 0), colIndex;
  for (int I = 0; I < nb; ++I) rowEnd[I] = static_cast<int>(offset[I] + sizes[I]);
  for (const Block& b : blocks) {
    ++rowPtr[b.i + 1];
    colIndex.push_back(static_cast<int>(b.j));
  }
  for (int I = 0; I < nb; ++I) rowPtr[I + 1] += rowPtr[I];
  NsdMatrix* m = nsd_matrix_create_sparse_block(nb, nb, rowEnd.data(), rowEnd.data(), rowPtr.data(),
                                                colIndex.data());
  if (!m) throw Error("OneStepNSProblem", "a sparse-block Delassus matrix", "allocation failure");
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    double* dst = nsd_matrix_sbm_block(m, static_cast<int>(k));
    const SimpleMatrix& v = blocks[k].values;
    std::copy(v.data(), v.data() + v.rows() * v.cols(), dst);
  }
  return NsdMatrixPtr(m);
}

bool allFinite(const SiconosVector& v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v(i))) return false;
  return true;
}
}  // namespace

StepStatistics OneStepNSProblem::computeContacts(ContactSet& /*contacts*/, double /*tk1*/) {
  throw Error(className(), "no detected contacts (a ContactManager needs FrictionContact(3))",
              "contacts from a ContactManager");
}

StepStatistics OneStepNSProblem::compute(const Topology& topology, const IndexSet& active,
                                         double tk1, ContactSet* contacts) {
  if (contacts) {
    if (!active.empty())
      throw Error(className(),
                  "detected contacts or Interactions, not both in one problem (GenericMechanical "
                  "takes both)",
                  std::to_string(active.size()) + " active relations beside a ContactManager");
    return computeContacts(*contacts, tk1);
  }
  StepStatistics stats;
  stats.solver = solverName_;
  stats.activeRelations = active.size();

  // 1. offsets of the active relations; warm start from their previous lambda
  const std::size_t nr = active.size();
  std::vector<std::size_t> offset(nr), sizes(nr);
  std::size_t n = 0;
  for (std::size_t k = 0; k < nr; ++k) {
    offset[k] = n;
    sizes[k] = active[k]->size();
    n += sizes[k];
  }
  stats.problemSize = n;
  SiconosVector z(n);
  if (warmStart_)
    for (std::size_t k = 0; k < nr; ++k) z.setSegment(offset[k], active[k]->lambda(level_));

  // 2. every relation's lambda at this level is 0 unless solved below
  for (const auto& ur : topology.indexSet(0)) {
    SiconosVector zero(ur->size());
    ur->setLambda(level_, zero);
  }
  if (n == 0) {
    lastM_ = SimpleMatrix();
    lastQ_ = lastZ_ = lastW_ = SiconosVector();
    return stats;
  }

  // 3. local q: free output of each relation (restitution included)
  SiconosVector q(n);
  for (std::size_t k = 0; k < nr; ++k) {
    const UnitaryRelation& ur = *active[k];
    const OneStepIntegrator* osi = lookup_(*ur.interaction().dynamicalSystems().front());
    q.setSegment(offset[k], osi->computeFreeOutput(ur, tk1));
  }

  // 4. Delassus blocks between relations coupled through a system, plus D
  //    between relations of one first-order interaction
  std::map<const Interaction*, std::vector<std::size_t>>
      activeOf;  // interaction -> its active relations
  for (std::size_t k = 0; k < nr; ++k) activeOf[&active[k]->interaction()].push_back(k);
  std::vector<Block> blocks;
  for (std::size_t a = 0; a < nr; ++a) {
    const UnitaryRelation& ura = *active[a];
    std::set<std::size_t> partners;
    for (const auto& ds : ura.interaction().dynamicalSystems())
      for (const auto& inter : topology.interactionsOf(*ds)) {
        auto it = activeOf.find(inter.get());
        if (it != activeOf.end()) partners.insert(it->second.begin(), it->second.end());
      }
    for (std::size_t b : partners) {
      const UnitaryRelation& urb = *active[b];
      SimpleMatrix block(ura.size(), urb.size());
      for (const auto& ds : topology.commonSystems(ura, urb))
        block += lookup_(*ds)->computeDelassusBlock(ura, urb, *ds, tk1);
      if (&ura.interaction() == &urb.interaction())
        ura.interaction().relation().addSelfCoupling(block, ura, urb, tk1);
      blocks.push_back(Block{a, b, std::move(block)});
    }
  }
  NsdMatrixPtr M;
  if (storage_ == MatrixStorage::Dense) {
    M = denseFromBlocks(n, offset, blocks, lastM_);
  } else {
    lastM_ = SimpleMatrix();
    M = sparseFromBlocks(offset, sizes, blocks);
  }

  // 5. solve; a failure is recorded, its lambda kept only if finite
  SiconosVector w(n);
  solveAndRecord(std::move(M), q, active, z, w, stats);

  // 6. lambda back into the interactions
  for (std::size_t k = 0; k < nr; ++k) active[k]->setLambda(level_, z.segment(offset[k], sizes[k]));
  return stats;
}

void OneStepNSProblem::solveAndRecord(NsdMatrixPtr M, const SiconosVector& q,
                                      const IndexSet& active, SiconosVector& z, SiconosVector& w,
                                      StepStatistics& stats) {
  lastQ_ = q;
  NsdReport report{};
  const NsdStatus status = solve(std::move(M), q, active, z, w, report);
  if (!allFinite(z)) z.zero();
  stats.solved = true;
  stats.fallbacks = fallbackUsed_ ? 1 : 0;
  if (fallbackUsed_) stats.solver = solverName_ + "+" + fallbackSolver_;
  stats.status = judge(status, stats);
  stats.iterations = report.iterations;
  stats.residual = report.residual;
  stats.seconds = report.seconds;
  if (stats.status != NSD_OK) stats.message = report.message;
  lastZ_ = z;
  lastW_ = w;
}

}  // namespace nsdyn
