// The block pattern of J M^-1 J^T over the active contacts: contacts sharing a dynamic body.
#include "ContactPattern.hpp"

#include <algorithm>

#include "../Threads.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/OneStepIntegrator.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn::contacts {

void blockPattern(const ContactSet& cs, const std::vector<std::int32_t>& act, int threads,
                  std::vector<int>& rowPtr, std::vector<int>& colIndex) {
  (void)threads;
  const int na = static_cast<int>(act.size());
  const int nb = static_cast<int>(cs.systems.size());
  // body -> its active contacts (a counting sort)
  std::vector<int> bodyStart(nb + 1, 0), bodyList;
  for (int a = 0; a < na; ++a) {
    const std::size_t c = static_cast<std::size_t>(act[a]);
    if (cs.dynA[c] >= 0) ++bodyStart[cs.dynA[c] + 1];
    if (cs.dynB[c] >= 0) ++bodyStart[cs.dynB[c] + 1];
  }
  for (int b = 0; b < nb; ++b) bodyStart[b + 1] += bodyStart[b];
  bodyList.resize(bodyStart[nb]);
  {
    std::vector<int> fill(bodyStart.begin(), bodyStart.end() - 1);
    for (int a = 0; a < na; ++a) {
      const std::size_t c = static_cast<std::size_t>(act[a]);
      if (cs.dynA[c] >= 0) bodyList[fill[cs.dynA[c]]++] = a;
      if (cs.dynB[c] >= 0) bodyList[fill[cs.dynB[c]]++] = a;
    }
  }
  // the partners of each contact, sorted
  std::vector<std::vector<int>> partners(na);
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (int a = 0; a < na; ++a) {
    const std::size_t c = static_cast<std::size_t>(act[a]);
    std::vector<int>& p = partners[a];
    for (int side = 0; side < 2; ++side) {
      const int body = side == 0 ? cs.dynA[c] : cs.dynB[c];
      if (body < 0) continue;
      p.insert(p.end(), bodyList.begin() + bodyStart[body], bodyList.begin() + bodyStart[body + 1]);
    }
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
  }
  rowPtr.assign(static_cast<std::size_t>(na) + 1, 0);
  colIndex.clear();
  for (int a = 0; a < na; ++a) {
    colIndex.insert(colIndex.end(), partners[a].begin(), partners[a].end());
    rowPtr[a + 1] = static_cast<int>(colIndex.size());
  }
}

void bodyInverses(const ContactSet& cs, const std::vector<std::int32_t>& act,
                  const OneStepNSProblem::IntegratorLookup& lookup, int threads,
                  std::vector<double>& minv, std::vector<const SiconosVector*>& vfree) {
  (void)threads;
  constexpr int kDof = 6;
  const std::size_t nb = cs.systems.size();
  minv.assign(nb * kDof * kDof, 0.0);
  vfree.assign(nb, nullptr);
  std::vector<const SimpleMatrix*> iteration(nb, nullptr);
  std::vector<int> touched;
  for (const std::int32_t c : act)
    for (const std::int32_t b :
         {cs.dynA[static_cast<std::size_t>(c)], cs.dynB[static_cast<std::size_t>(c)]})
      if (b >= 0 && !iteration[static_cast<std::size_t>(b)]) {
        const std::size_t k = static_cast<std::size_t>(b);
        const OneStepIntegrator* osi = lookup(*cs.systems[k]);
        vfree[k] = &osi->freeState(*cs.systems[k]);
        iteration[k] = &osi->W(*cs.systems[k]);
        iteration[k]->factorizeLU();  // no-op when factored; the solves below are read-only
        touched.push_back(b);
      }
  const int nt = static_cast<int>(touched.size());
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (int t = 0; t < nt; ++t) {
    const std::size_t b = static_cast<std::size_t>(touched[static_cast<std::size_t>(t)]);
    double* out = minv.data() + b * kDof * kDof;
    for (int j = 0; j < kDof; ++j) {
      SiconosVector e(kDof);
      e(j) = 1.0;
      iteration[b]->solveInPlace(e);
      for (int i = 0; i < kDof; ++i) out[kDof * j + i] = e(i);
    }
  }
}

}  // namespace nsdyn::contacts
