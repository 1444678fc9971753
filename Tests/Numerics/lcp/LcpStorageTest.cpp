// Every LCP solver on the same seeded random problems with M stored dense,
// sparse-block and CSC: same (unique) solution whatever the storage.
#include <cppunit/extensions/HelperMacros.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lcp_test_util.hpp"

using namespace nsdyn::test;

namespace {

// Deterministic uniform numbers in [-1, 1) (64-bit LCG, Knuth's MMIX constants).
struct Lcg {
  uint64_t state;
  double next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
  }
};

// M = A^T A / n + I (symmetric positive definite: a unique solution), q in [-1, 1).
void randomSpd(int n, uint64_t seed, std::vector<double>& m, std::vector<double>& q) {
  Lcg rng{seed};
  std::vector<double> a(static_cast<size_t>(n * n));
  for (double& v : a) v = rng.next();
  m.assign(static_cast<size_t>(n * n), 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = i == j ? 1.0 : 0.0;
      for (int k = 0; k < n; ++k)
        s += a[static_cast<size_t>(k * n + i)] * a[static_cast<size_t>(k * n + j)] / n;
      m[static_cast<size_t>(i + j * n)] = s;  // column-major
    }
  q.resize(static_cast<size_t>(n));
  for (double& v : q) v = rng.next();
}

}  // namespace

class LcpStorageTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LcpStorageTest);
  CPPUNIT_TEST(sameSolutionInEveryStorage);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sameSolutionInEveryStorage() {
    const int n = 12;
    for (uint64_t seed : {1u, 2u, 3u}) {
      std::vector<double> m, q;
      randomSpd(n, seed, m, q);

      // reference: enumeration on the dense matrix (exact on a basis)
      TestLcp ref(nsd_lcp_create(nsd_matrix_create_dense_from(n, n, m.data()), q.data()));
      CPPUNIT_ASSERT_EQUAL(NSD_OK, ref.solve(nsd_lcp_enum));

      for (NsdStorage storage : {NSD_DENSE, NSD_SPARSE_BLOCK, NSD_CSC}) {
        for (const auto& s : lcpSolvers()) {
          NsdMatrix* dense = nsd_matrix_create_dense_from(n, n, m.data());
          NsdMatrix* stored = storage == NSD_DENSE ? dense : nsd_matrix_convert(dense, storage, 4);
          if (stored != dense) nsd_matrix_destroy(dense);
          CPPUNIT_ASSERT(stored != nullptr);
          TestLcp t(nsd_lcp_create(stored, q.data()));
          t.opt.max_iterations = 10000;
          const std::string what = std::string(s.name) + " storage " +
                                   std::to_string(static_cast<int>(storage)) + " seed " +
                                   std::to_string(seed) + ": ";
          CPPUNIT_ASSERT_EQUAL_MESSAGE(what + describe(t.rep), NSD_OK, t.solve(s.fn));
          assertSolves(t, 1e-8);
          for (int i = 0; i < n; ++i)
            CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + "z[" + std::to_string(i) + "]",
                                                 ref.z[static_cast<size_t>(i)],
                                                 t.z[static_cast<size_t>(i)], 1e-6);
        }
      }
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LcpStorageTest);
