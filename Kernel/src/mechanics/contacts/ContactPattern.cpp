// The block pattern of J M^-1 J^T over the active contacts: contacts sharing a dynamic body.
#include "ContactPattern.hpp"

#include <algorithm>

#include "../Threads.hpp"

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

}  // namespace nsdyn::contacts
