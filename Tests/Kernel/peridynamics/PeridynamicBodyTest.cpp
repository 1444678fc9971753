// PeridynamicBody and the generators: the bonds of the broadphase equal a brute-force search,
// both directions and reverse indices, the lattice neighbour count of a δ = 3Δx bulk point,
// bulk sums, surface factors (1 in the bulk, > 1 at faces), pre-crack and fracture with damage,
// generators (volumes, a closed cube mesh equal to the box), bad input named, threads.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/BondBasedMaterial.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/PeridynamicBody.hpp>
#include <nsdyn/PeridynamicGenerators.hpp>

#include "ErrorMessage.hpp"

using namespace nsdyn;

namespace {

std::shared_ptr<BondBasedMaterial> pmb(double s0 = 1e30) {
  PeridynamicElasticity e;
  e.youngModulus = 1e9;
  e.poissonRatio = 0.25;
  if (s0 < 1e29) e.criticalStretch = s0;
  return std::make_shared<BondBasedMaterial>(e);
}

PeridynamicBodyOptions opts(double dx = 0.01, double m = 3.0) {
  PeridynamicBodyOptions o;
  o.name = "block";
  o.spacing = dx;
  o.horizon = m * dx;
  o.density = 1000.0;
  return o;
}

/// The message of the nsdyn::Error thrown by @p f, "" when none.
std::string messageOf(const std::function<void()>& f) {
  return pd_test::messageOf(f, "");
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

class PeridynamicBodyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PeridynamicBodyTest);
  CPPUNIT_TEST(bondsEqualBruteForce);
  CPPUNIT_TEST(bulkNeighbourhood);
  CPPUNIT_TEST(surfaceFactors);
  CPPUNIT_TEST(precrackAndFracture);
  CPPUNIT_TEST(generators);
  CPPUNIT_TEST(badInput);
  CPPUNIT_TEST(threadsGiveTheSameBonds);
  CPPUNIT_TEST_SUITE_END();

 public:
  void bondsEqualBruteForce() {
    auto b = peridynamics::box({0, 0, 0}, {0.04, 0.03, 0.025}, opts(), pmb());
    const std::size_t n = b->size();
    CPPUNIT_ASSERT_EQUAL(std::size_t(8 * 6 * 5), n);
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<std::uint32_t> expect;
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        double d2 = 0.0;
        for (int k = 0; k < 3; ++k) d2 += std::pow(b->X[3 * j + k] - b->X[3 * i + k], 2);
        if (d2 <= 0.03 * 0.03 * (1 + 1e-10)) expect.push_back(static_cast<std::uint32_t>(j));
      }
      std::vector<std::uint32_t> got(b->neighbour.begin() + b->bondStart[i],
                                     b->neighbour.begin() + b->bondStart[i + 1]);
      CPPUNIT_ASSERT(expect == got);
      count += expect.size();
    }
    CPPUNIT_ASSERT_EQUAL(count, b->bondCount());
    b->buildReverse();
    for (std::size_t i = 0; i < n; ++i)
      for (auto q = b->bondStart[i]; q < b->bondStart[i + 1]; ++q) {
        const auto j = b->neighbour[q], r = b->reverse[q];
        CPPUNIT_ASSERT(r >= b->bondStart[j] && r < b->bondStart[j + 1]);
        CPPUNIT_ASSERT_EQUAL(static_cast<std::uint32_t>(i), b->neighbour[r]);
        CPPUNIT_ASSERT_EQUAL(b->bondLength[q], b->bondLength[r]);
      }
    CPPUNIT_ASSERT(PeridynamicBody::memoryPerBond() + 4 <= 24);
  }

  void bulkNeighbourhood() {
    // the centre point of a 9x9x9 lattice has every lattice offset within 3 dx: 122 of them
    auto b = peridynamics::box({0, 0, 0}, {0.045, 0.045, 0.045}, opts(), pmb());
    const std::size_t c = (4 * 9 + 4) * 9 + 4;
    CPPUNIT_ASSERT_EQUAL(std::uint32_t(122), b->bondStart[c + 1] - b->bondStart[c]);
    double s0 = 0.0, s1 = 0.0, sx = 0.0;
    for (auto q = b->bondStart[c]; q < b->bondStart[c + 1]; ++q) {
      const double l = b->bondLength[q];
      const double ex = b->X[3 * b->neighbour[q]] - b->X[3 * c];
      s0 += 1e-6;
      s1 += l * 1e-6;
      const double c2 = ex * ex / (l * l), st = c2 - 0.25 * (1.0 - c2);  // PMB: nu = 1/4
      sx += 1e-6 * st * st * l;
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(s0, b->bulkSum(0), 1e-12 * s0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(s1, b->bulkSum(1), 1e-6 * s1);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(sx, b->bulkDirectionalSum(), 1e-6 * sx);
    // the continuum integrals they stand for, within the lattice error at 3 dx
    const double d = 0.03;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, b->bulkSum(1) / (M_PI * std::pow(d, 4)), 0.15);
    // continuum: ∫ (c² − ν(1 − c²))² |ξ| dV = πδ⁴ ((1 + ν)² / 5 − 2ν(1 + ν) / 3 + ν²)
    const double nu = 0.25, cont = M_PI * std::pow(d, 4) *
                                   ((1 + nu) * (1 + nu) / 5 - 2 * nu * (1 + nu) / 3 + nu * nu);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, b->bulkDirectionalSum() / cont, 0.15);
    CPPUNIT_ASSERT(b->contactRadius() == 0.005);
  }

  void surfaceFactors() {
    // the centre of a 13^3 lattice: it and all its neighbours have full neighbourhoods
    auto b = peridynamics::box({0, 0, 0}, {0.065, 0.065, 0.065}, opts(), pmb());
    const std::size_t c = (6 * 13 + 6) * 13 + 6, corner = 0;
    for (auto q = b->bondStart[c]; q < b->bondStart[c + 1]; ++q)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, b->bondFactor[q], 1e-6);
    for (auto q = b->bondStart[corner]; q < b->bondStart[corner + 1]; ++q)
      CPPUNIT_ASSERT(b->bondFactor[q] > 1.2f);
    auto o = opts();
    o.surfaceCorrection = false;
    auto plain = peridynamics::box({0, 0, 0}, {0.045, 0.045, 0.045}, o, pmb());
    for (float f : plain->bondFactor) CPPUNIT_ASSERT_EQUAL(1.0f, f);
  }

  void precrackAndFracture() {
    auto b = peridynamics::box({0, 0, 0}, {0.05, 0.05, 0.005}, opts(), pmb(0.01));
    // a crack through the thickness along y from the edge to the centre, in the plane x = 0
    const std::size_t removed = b->precrack({0, -0.06, 0}, {0, 0.001, 0}, {0, 0, 1});
    std::size_t expect = 0;
    for (std::size_t i = 0; i < b->size(); ++i)
      for (auto q = b->bondStart[i]; q < b->bondStart[i + 1]; ++q) {
        const auto j = b->neighbour[q];
        const double xi = b->X[3 * i], xj = b->X[3 * j];
        if ((xi < 0) == (xj < 0)) continue;
        const double w = xi / (xi - xj);
        const double y = b->X[3 * i + 1] + w * (b->X[3 * j + 1] - b->X[3 * i + 1]);
        if (y <= 0.001) ++expect;
      }
    CPPUNIT_ASSERT_EQUAL(expect, removed);
    CPPUNIT_ASSERT_EQUAL(removed, b->brokenBonds());
    double maxDamage = 0.0;
    for (double d : b->damage) maxDamage = std::max(maxDamage, d);
    CPPUNIT_ASSERT(maxDamage > 0.3 && maxDamage < 0.7);
    // stretch the right half by 2 % along x: the bonds across x = 0 beyond 1 % break
    for (std::size_t i = 0; i < b->size(); ++i)
      if (b->X[3 * i] > 0) b->x[3 * i] += 0.002;
    const std::size_t broken = b->breakBonds();
    CPPUNIT_ASSERT(broken > 0);
    for (std::size_t i = 0; i < b->size(); ++i)
      for (auto q = b->bondStart[i]; q < b->bondStart[i + 1]; ++q) {
        const auto j = b->neighbour[q];
        double l = 0.0;
        for (int k = 0; k < 3; ++k) l += std::pow(b->x[3 * j + k] - b->x[3 * i + k], 2);
        const double s = (std::sqrt(l) - b->bondLength[q]) / b->bondLength[q];
        if (s > 0.01) CPPUNIT_ASSERT(b->bondBroken[q]);
      }
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), b->breakBonds());
    const std::string m = messageOf([&] { b->precrack({1, 1, 1}, {1, 2, 1}, {0, 0, 1}); });
    CPPUNIT_ASSERT(has(m, "block") && has(m, "crosses none"));
  }

  void generators() {
    auto s = peridynamics::sphere({0, 0, 0}, 0.1, opts(), pmb());
    const double v = s->size() * 1e-6;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, v / (4.0 / 3.0 * M_PI * 1e-3), 0.03);
    auto c = peridynamics::cylinder({0, 0, 0}, 0.1, 0.04, 2, opts(), pmb());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, c->size() * 1e-6 / (M_PI * 0.01 * 0.04), 0.03);
    // a closed cube mesh [-0.03, 0.03]^3 gives the box's points
    std::vector<double> vtx;
    for (int k = 0; k < 8; ++k)
      for (int a = 0; a < 3; ++a) vtx.push_back((k >> a) & 1 ? 0.03 : -0.03);
    const std::vector<int> tri = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                  2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    auto m = peridynamics::mesh(vtx, tri, opts(), pmb());
    auto bx = peridynamics::box({0, 0, 0}, {0.03, 0.03, 0.03}, opts(), pmb());
    CPPUNIT_ASSERT_EQUAL(bx->size(), m->size());
    CPPUNIT_ASSERT_EQUAL(bx->bondCount(), m->bondCount());
    auto open = tri;
    open.resize(open.size() - 3);
    const std::string e = messageOf([&] { peridynamics::mesh(vtx, open, opts(), pmb()); });
    CPPUNIT_ASSERT(has(e, "closed mesh") && has(e, "shared by 1"));
    auto o = opts();
    o.thickness = 0.001;
    PeridynamicElasticity el;
    el.youngModulus = 1e6;
    el.poissonRatio = 1.0 / 3.0;
    auto sh = peridynamics::sheet({0, 0, 0.5}, {1, 0, 0}, {0, 1, 0}, 0.05, 0.05, o,
                                  std::make_shared<BondBasedMaterial>(el));
    CPPUNIT_ASSERT_EQUAL(std::size_t(100), sh->size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-7, sh->volume[0], 1e-18);
  }

  void badInput() {
    auto o = opts();
    o.horizon = 0.005;
    CPPUNIT_ASSERT(has(messageOf([&] {
                         peridynamics::box({0, 0, 0}, {0.02, 0.02, 0.02}, o, pmb());
                       }),
                       "horizon = 0.005"));
    o = opts();
    o.density = -1;
    CPPUNIT_ASSERT(has(messageOf([&] {
                         peridynamics::box({0, 0, 0}, {0.02, 0.02, 0.02}, o, pmb());
                       }),
                       "density = -1"));
    o = opts();
    CPPUNIT_ASSERT(has(messageOf([&] {
                         peridynamics::box({0, 0, 0}, {0.0255, 0.02, 0.02}, o, pmb());
                       }),
                       "multiple of the spacing"));
    // an isolated point
    std::vector<double> X = {0, 0, 0, 0.01, 0, 0, 1, 1, 1};
    std::vector<double> V(3, 1e-6);
    const std::string iso = messageOf([&] { PeridynamicBody(X, V, opts(), pmb()); });
    CPPUNIT_ASSERT(has(iso, "block") && has(iso, "point 2"));
    V[1] = 0.0;
    CPPUNIT_ASSERT(has(messageOf([&] { PeridynamicBody(X, V, opts(), pmb()); }), "volume[1] = 0"));
    // PMB refuses nu != 1/4 in 3D, naming it
    PeridynamicElasticity e;
    e.youngModulus = 1e9;
    e.poissonRatio = 0.3;
    const std::string nu = messageOf([&] {
      peridynamics::box({0, 0, 0}, {0.02, 0.02, 0.02}, opts(),
                        std::make_shared<BondBasedMaterial>(e));
    });
    CPPUNIT_ASSERT(has(nu, "block") && has(nu, "0.3"));
  }

  void threadsGiveTheSameBonds() {
    auto o1 = opts(), o2 = opts();
    o1.threads = 1;
    o2.threads = 2;
    auto a = peridynamics::sphere({0, 0, 0}, 0.08, o1, pmb());
    auto b = peridynamics::sphere({0, 0, 0}, 0.08, o2, pmb());
    CPPUNIT_ASSERT(a->neighbour == b->neighbour);
    CPPUNIT_ASSERT(a->bondFactor == b->bondFactor);
    CPPUNIT_ASSERT(a->bondStart == b->bondStart);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PeridynamicBodyTest);
