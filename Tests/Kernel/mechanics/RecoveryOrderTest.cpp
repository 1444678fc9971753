// The overlap recovery's bottom-up sort (Kernel/src/mechanics/store/RecoveryOrder.cpp): the
// radix sort of (height, entry) keys against std::sort on the doubles, with ties, signs,
// -0 and +0, infinities, in entry order and shuffled.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "RecoveryOrder.hpp"

using nsdyn::store::heightBits;
using nsdyn::store::RecoveryKey;
using nsdyn::store::sortRecoveryKeys;

class RecoveryOrderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RecoveryOrderTest);
  CPPUNIT_TEST(heightBitsKeepTheOrder);
  CPPUNIT_TEST(radixSortIsTheComparisonSort);
  CPPUNIT_TEST_SUITE_END();

 public:
  void heightBitsKeepTheOrder() {
    const double xs[] = {-HUGE_VAL, -1e300, -2.5,      -1e-300, -0.0,  0.0,
                         1e-300,    0.01,   0.0100001, 3.0,     1e300, HUGE_VAL};
    for (std::size_t i = 0; i + 1 < sizeof xs / sizeof xs[0]; ++i) {
      if (xs[i] == xs[i + 1])
        CPPUNIT_ASSERT_EQUAL(heightBits(xs[i]), heightBits(xs[i + 1]));  // -0 and +0
      else
        CPPUNIT_ASSERT(heightBits(xs[i]) < heightBits(xs[i + 1]));
    }
  }

  // Every size from empty up, heights drawn from few values (ties) or many, the keys in
  // entry order (the recovery's case: its passes on the entries skipped) or shuffled.
  void radixSortIsTheComparisonSort() {
    std::mt19937_64 gen(7);
    for (std::size_t n : {0, 1, 2, 3, 255, 256, 257, 5000}) {
      for (int spread : {1, 5, 1000000}) {
        for (bool shuffled : {false, true}) {
          std::vector<double> height(n);
          std::uniform_int_distribution<int> pick(0, spread - 1);
          for (double& h : height) {
            const int k = pick(gen);
            h = k == 0 ? (gen() % 2 ? -0.0 : 0.0) : k == 1 ? -HUGE_VAL : (k - spread / 2) * 1e-3;
          }
          std::vector<std::int32_t> entry(n);
          std::iota(entry.begin(), entry.end(), -static_cast<std::int32_t>(n / 2));
          std::vector<std::size_t> place(n);
          std::iota(place.begin(), place.end(), std::size_t{0});
          if (shuffled) std::shuffle(place.begin(), place.end(), gen);
          std::vector<RecoveryKey> keys(n);
          for (std::size_t a = 0; a < n; ++a)
            keys[a] = RecoveryKey{heightBits(height[place[a]]), entry[place[a]],
                                  static_cast<std::int32_t>(place[a])};
          sortRecoveryKeys(keys);
          std::vector<std::size_t> expected(n);
          std::iota(expected.begin(), expected.end(), std::size_t{0});
          std::sort(expected.begin(), expected.end(), [&](std::size_t x, std::size_t y) {
            return height[x] != height[y] ? height[x] < height[y] : entry[x] < entry[y];
          });
          for (std::size_t a = 0; a < n; ++a)
            CPPUNIT_ASSERT_EQUAL(static_cast<std::int32_t>(expected[a]), keys[a].from);
        }
      }
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RecoveryOrderTest);
