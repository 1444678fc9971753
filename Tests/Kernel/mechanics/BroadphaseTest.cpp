// Uniform-grid broadphase (Kernel/src/mechanics/broadphase): pair lists equal to brute
// force, each pair once, groups respected, identical for any thread count; half-spaces.
#include <cppunit/extensions/HelperMacros.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <nsdyn/Broadphase.hpp>
#include <nsdyn/Error.hpp>

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace nsdyn;

namespace {

const double inf = std::numeric_limits<double>::infinity();

void add(AabbArrays& b, double x0, double y0, double z0, double x1, double y1, double z1) {
  b.push_back(Shape::Aabb{{x0, y0, z0}, {x1, y1, z1}});
}

std::vector<BroadphasePair> bruteForce(const AabbArrays& b) {
  std::vector<BroadphasePair> out;
  const std::size_t n = b.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      if (!b.group.empty() && b.group[i] == b.group[j]) continue;
      if (b.minX[i] <= b.maxX[j] && b.minX[j] <= b.maxX[i] && b.minY[i] <= b.maxY[j] &&
          b.minY[j] <= b.maxY[i] && b.minZ[i] <= b.maxZ[j] && b.minZ[j] <= b.maxZ[i])
        out.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
    }
  return out;
}

// Boxes of centres uniform in [0, L]^3 and edges drawn by @p edge (each axis apart).
template <class EdgeFn>
AabbArrays randomBoxes(std::size_t n, double L, std::uint64_t seed, EdgeFn edge) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, L);
  AabbArrays b;
  for (std::size_t k = 0; k < n; ++k) {
    const double c[3] = {u(rng), u(rng), u(rng)};
    double e[3];
    for (double& ek : e) ek = edge(rng);
    add(b, c[0] - e[0] / 2, c[1] - e[1] / 2, c[2] - e[2] / 2, c[0] + e[0] / 2, c[1] + e[1] / 2,
        c[2] + e[2] / 2);
  }
  return b;
}

void assertWellFormed(const std::vector<BroadphasePair>& p) {
  for (std::size_t k = 0; k < p.size(); ++k) {
    CPPUNIT_ASSERT(p[k].i < p[k].j);
    if (k > 0) CPPUNIT_ASSERT(p[k - 1] < p[k]);  // strictly increasing: sorted, no pair twice
  }
}

void assertSameAsBruteForce(const AabbArrays& b, UniformGridBroadphase::Options opt = {}) {
  UniformGridBroadphase grid(opt);
  const std::vector<BroadphasePair> got = grid.findPairs(b);
  const std::vector<BroadphasePair> ref = bruteForce(b);
  assertWellFormed(got);
  CPPUNIT_ASSERT_EQUAL(ref.size(), got.size());
  CPPUNIT_ASSERT(ref == got);
}

}  // namespace

class BroadphaseTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BroadphaseTest);
  CPPUNIT_TEST(testSizeSpreads);
  CPPUNIT_TEST(testTouchingAndNested);
  CPPUNIT_TEST(testManyCellsAndOversize);
  CPPUNIT_TEST(testGroups);
  CPPUNIT_TEST(testThreadCountIndependence);
  CPPUNIT_TEST(testHalfSpaces);
  CPPUNIT_TEST(testBadInput);
  CPPUNIT_TEST(testTiming100k);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testSizeSpreads() {
    const std::size_t n = 2000;
    // Equal sizes.
    assertSameAsBruteForce(randomBoxes(n, 10.0, 1, [](std::mt19937_64&) { return 0.6; }));
    // Uniform spread.
    assertSameAsBruteForce(randomBoxes(n, 10.0, 2, [](std::mt19937_64& r) {
      return std::uniform_real_distribution<double>(0.05, 1.0)(r);
    }));
    // Log-uniform spread over 3 decades (some boxes span many cells).
    assertSameAsBruteForce(randomBoxes(n, 10.0, 3, [](std::mt19937_64& r) {
      return std::pow(10.0, std::uniform_real_distribution<double>(-2.0, 1.0)(r));
    }));
    // Dense: many pairs per box.
    assertSameAsBruteForce(randomBoxes(n, 4.0, 4, [](std::mt19937_64& r) {
      return std::uniform_real_distribution<double>(0.2, 0.8)(r);
    }));
    // Flat boxes (plates) and zero-size boxes (points).
    AabbArrays b = randomBoxes(n, 10.0, 5, [](std::mt19937_64& r) {
      return std::uniform_real_distribution<double>(0.0, 1.0)(r) < 0.3 ? 0.0 : 2.0;
    });
    assertSameAsBruteForce(b);
    // Default and explicit cell sizes, far from the median.
    UniformGridBroadphase::Options opt;
    opt.cellSize = 5.0;
    assertSameAsBruteForce(b, opt);
    opt.cellSize = 0.05;
    opt.maxCellsPerBox = 1e9;
    assertSameAsBruteForce(b, opt);
  }

  void testTouchingAndNested() {
    AabbArrays b;
    // 8×8×8 lattice of unit cubes touching by faces, edges and corners.
    for (int x = 0; x < 8; ++x)
      for (int y = 0; y < 8; ++y)
        for (int z = 0; z < 8; ++z) add(b, x, y, z, x + 1.0, y + 1.0, z + 1.0);
    // Nested boxes, exact duplicates, and boxes touching the lattice from outside.
    add(b, 2.25, 2.25, 2.25, 2.75, 2.75, 2.75);
    add(b, 2.4, 2.4, 2.4, 2.6, 2.6, 2.6);
    add(b, 2.4, 2.4, 2.4, 2.6, 2.6, 2.6);
    add(b, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0);  // point at a lattice corner: in 8 cubes
    add(b, 8.0, 0.0, 0.0, 9.0, 1.0, 1.0);
    add(b, -1.0, -1.0, -1.0, 0.0, 0.0, 0.0);
    add(b, 0.0, 0.0, 0.0, 8.0, 8.0, 8.0);  // the whole lattice
    UniformGridBroadphase::Options opt;
    for (double h : {0.0, 1.0, 0.5, 2.0, 3.0, 0.3}) {
      opt.cellSize = h;
      opt.maxCellsPerBox = 1e7;
      assertSameAsBruteForce(b, opt);
    }
    // Each lattice cube touches 26 neighbours (interior): check one count directly.
    UniformGridBroadphase grid;
    const auto pairs = grid.findPairs(b);
    const std::uint32_t interior = 3 * 64 + 3 * 8 + 3;  // cube (3, 3, 3)
    std::size_t latticeNeighbours = 0;
    for (const auto& p : pairs)
      if ((p.i == interior && p.j < 512) || (p.j == interior && p.i < 512)) ++latticeNeighbours;
    CPPUNIT_ASSERT_EQUAL(std::size_t(26), latticeNeighbours);
  }

  void testManyCellsAndOversize() {
    AabbArrays b = randomBoxes(2000, 10.0, 6, [](std::mt19937_64& r) {
      return std::uniform_real_distribution<double>(0.1, 0.3)(r);
    });
    // Long bars spanning many cells, walls, infinite slabs, a far-away box.
    add(b, 0.0, 4.9, 4.9, 10.0, 5.1, 5.1);
    add(b, 4.9, 0.0, 4.9, 5.1, 10.0, 5.1);
    add(b, -1.0, -1.0, -0.1, 11.0, 11.0, 0.1);
    add(b, -inf, -inf, -inf, inf, inf, 0.5);
    add(b, 3.0, -inf, 3.0, 3.5, inf, 3.5);
    add(b, 1e300, 1e300, 1e300, 1e300, 1e300, 1e300);
    add(b, -1e300, -1e300, -1e300, 1e300, 1e300, 1e300);
    UniformGridBroadphase grid;
    CPPUNIT_ASSERT(bruteForce(b) == grid.findPairs(b));
    CPPUNIT_ASSERT(grid.statistics().oversizeBoxes >= 3);  // slab, 2 infinite, huge
    // Same with the bars in the grid (many cells each) and with tiny cells.
    UniformGridBroadphase::Options opt;
    opt.maxCellsPerBox = 1e6;
    assertSameAsBruteForce(b, opt);
    opt.cellSize = 0.02;
    assertSameAsBruteForce(b, opt);
    opt.maxCellsPerBox = 1.0;  // every box but points apart: brute force inside
    assertSameAsBruteForce(b, opt);
  }

  void testGroups() {
    AabbArrays b;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(0.0, 5.0);
    for (std::int64_t body = 0; body < 700; ++body) {
      const double c[3] = {u(rng), u(rng), u(rng)};
      for (int part = 0; part < 3; ++part)  // 3 overlapping parts per body
        b.push_back(Shape::Aabb{{c[0] - 0.3, c[1] - 0.3, c[2] - 0.3 + 0.2 * part},
                                {c[0] + 0.3, c[1] + 0.3, c[2] + 0.3 + 0.2 * part}},
                    body);
    }
    UniformGridBroadphase grid;
    const auto pairs = grid.findPairs(b);
    for (const auto& p : pairs) CPPUNIT_ASSERT(b.group[p.i] != b.group[p.j]);
    CPPUNIT_ASSERT(bruteForce(b) == pairs);
    CPPUNIT_ASSERT(!pairs.empty());
    b.group.clear();  // without groups the parts pair up
    CPPUNIT_ASSERT(grid.findPairs(b).size() >= pairs.size() + 3 * 700);
  }

  void testThreadCountIndependence() {
    AabbArrays b = randomBoxes(20000, 20.0, 8, [](std::mt19937_64& r) {
      return std::pow(10.0, std::uniform_real_distribution<double>(-1.5, 0.3)(r));
    });
    add(b, -1.0, -1.0, -1.0, 21.0, 21.0, 0.0);  // one oversize box
    std::vector<std::vector<BroadphasePair>> results;
    for (int t : {1, 2, 4}) {
      UniformGridBroadphase::Options opt;
      opt.threads = t;
      UniformGridBroadphase grid(opt);
      results.push_back(grid.findPairs(b));
#ifdef _OPENMP
      const int saved = omp_get_max_threads();
      omp_set_num_threads(t);
      UniformGridBroadphase byEnv;  // threads = 0: the OpenMP setting
      results.push_back(byEnv.findPairs(b));
      omp_set_num_threads(saved);
#endif
    }
    for (const auto& r : results) {
      CPPUNIT_ASSERT_EQUAL(results[0].size(), r.size());
      CPPUNIT_ASSERT(std::memcmp(results[0].data(), r.data(), r.size() * sizeof(BroadphasePair)) ==
                     0);
    }
    assertWellFormed(results[0]);
  }

  void testHalfSpaces() {
    AabbArrays b = randomBoxes(2000, 10.0, 9, [](std::mt19937_64& r) {
      return std::uniform_real_distribution<double>(0.0, 1.0)(r);
    });
    add(b, -inf, 2.0, 2.0, inf, 3.0, 3.0);
    for (std::size_t k = 0; k < b.size(); ++k) b.group.push_back(static_cast<std::int64_t>(k % 50));
    std::vector<BroadphaseHalfSpace> hs = {
        {{0.0, 0.0, 1.0}, 0.5, -1},     // floor z ≤ 0.5
        {{0.0, 0.0, -2.0}, -19.0, -1},  // ceiling z ≥ 9.5 (non-unit normal)
        {{1.0, 1.0, 1.0}, 3.0, 7},      // oblique, group 7
        {{-0.3, 0.8, 0.1}, -2.0, -1},
    };
    for (double margin : {0.0, 0.05}) {
      const auto got = UniformGridBroadphase::findHalfSpacePairs(b, hs, margin);
      std::vector<BoxHalfSpacePair> ref;
      for (std::size_t k = 0; k < b.size(); ++k)
        for (std::size_t s = 0; s < hs.size(); ++s) {
          if (hs[s].group >= 0 && hs[s].group == b.group[k]) continue;
          double m = inf;  // min of n·x over the 8 corners
          for (int c = 0; c < 8; ++c) {
            const double x = (c & 1) ? b.maxX[k] : b.minX[k];
            const double y = (c & 2) ? b.maxY[k] : b.minY[k];
            const double z = (c & 4) ? b.maxZ[k] : b.minZ[k];
            double d = 0.0;
            if (hs[s].normal[0] != 0.0) d += hs[s].normal[0] * x;
            if (hs[s].normal[1] != 0.0) d += hs[s].normal[1] * y;
            if (hs[s].normal[2] != 0.0) d += hs[s].normal[2] * z;
            m = std::min(m, d);
          }
          if (m <= hs[s].offset + margin)
            ref.push_back({static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(s)});
        }
      CPPUNIT_ASSERT_EQUAL(ref.size(), got.size());
      CPPUNIT_ASSERT(ref == got);
      for (int t : {1, 2, 4})
        CPPUNIT_ASSERT(got == UniformGridBroadphase::findHalfSpacePairs(b, hs, margin, t));
    }
  }

  void testBadInput() {
    UniformGridBroadphase grid;
    AabbArrays b;
    add(b, 0, 0, 0, 1, 1, 1);
    add(b, 2, 0, 0, 1, 1, 1);  // min > max
    CPPUNIT_ASSERT_THROW(grid.findPairs(b), Error);
    b.clear();
    add(b, 0, 0, 0, 1, 1, 1);
    add(b, std::nan(""), 0, 0, 1, 1, 1);
    CPPUNIT_ASSERT_THROW(grid.findPairs(b), Error);
    b.clear();
    add(b, 0, 0, 0, 1, 1, 1);
    b.maxZ.push_back(2.0);
    CPPUNIT_ASSERT_THROW(grid.findPairs(b), Error);
    b.maxZ.pop_back();
    b.group = {1, 2};
    CPPUNIT_ASSERT_THROW(grid.findPairs(b), Error);
    b.group.clear();
    CPPUNIT_ASSERT(grid.findPairs(b).empty());
    CPPUNIT_ASSERT_THROW(UniformGridBroadphase::findHalfSpacePairs(b, {{{0.0, 0.0, 0.0}, 1.0, -1}}),
                         Error);
  }

  // Timing print only: 100,000 spheres (radius 0.5, 1.5–0.5 size spread) at a packing
  // fraction ~0.3, as in a granular column.
  void testTiming100k() {
    const std::size_t n = 100000;
    const double L = std::cbrt(n * (4.0 / 3.0) * M_PI * 0.125 / 0.3);
    std::mt19937_64 rng(10);
    std::uniform_real_distribution<double> u(0.0, L), ur(0.4, 0.6);
    AabbArrays b;
    b.reserve(n, true);
    for (std::size_t k = 0; k < n; ++k) {
      const double x = u(rng), y = u(rng), z = u(rng), r = ur(rng);
      b.push_back(Shape::Aabb{{x - r, y - r, z - r}, {x + r, y + r, z + r}},
                  static_cast<std::int64_t>(k));
    }
    int maxT = 1;
#ifdef _OPENMP
    maxT = omp_get_max_threads();
#endif
    std::vector<BroadphasePair> pairs;
    std::vector<BroadphasePair> first;
    for (int t : {1, maxT}) {
      UniformGridBroadphase::Options opt;
      opt.threads = t;
      UniformGridBroadphase grid(opt);
      grid.findPairs(b, pairs);  // warm-up (buffers)
      const int reps = 5;
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < reps; ++r) grid.findPairs(b, pairs);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
          reps;
      const auto& s = grid.statistics();
      std::printf(
          "\n[broadphase] N=%zu threads=%d: %.2f ms/call, pairs=%zu, h=%.3f, entries=%zu, "
          "buckets=%zu, "
          "candidates=%zu, oversize=%zu\n",
          n, t, ms, s.pairs, s.cellSize, s.entries, s.buckets, s.candidates, s.oversizeBoxes);
      if (first.empty()) first = pairs;
      CPPUNIT_ASSERT(first == pairs);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BroadphaseTest);
