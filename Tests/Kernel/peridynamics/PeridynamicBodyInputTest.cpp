// PeridynamicBody and the generators, with a test-only material: every interior point of a
// δ = 3Δx lattice has the full lattice neighbourhood (counted by brute force), bulk sums
// against brute force (3D and 2D), surface factors (1 in the bulk, > 1 on faces, kept by
// fracture, recomputed by a pre-crack), pre-crack and damage exactly, measures and energies,
// the mesh file generator, each bad input refused with the body and the value named, thread
// independence, and the time to build ~30k points.
#include <cppunit/extensions/HelperMacros.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/Error.hpp>
#include <nsdyn/PeridynamicBody.hpp>
#include <nsdyn/PeridynamicGenerators.hpp>
#include <nsdyn/PeridynamicMaterial.hpp>

#include "ErrorMessage.hpp"

using namespace nsdyn;

namespace {

constexpr double kDx = 0.01;

/// Springs to the reference positions (W = Σ ½ k |x − X|²); prepare() stores each point's
/// intact bond count in materialData (to see when it runs).
class TestMaterial : public PeridynamicMaterial {
 public:
  explicit TestMaterial(double s0 = std::numeric_limits<double>::infinity())
      : PeridynamicMaterial(elastic(s0)) {}
  std::string kind() const override { return "test"; }
  void check(const PeridynamicBody&) const override {}
  void prepare(PeridynamicBody& body) const override {
    auto& d = body.materialData();
    d.assign(body.size(), 0.0);
    for (std::size_t i = 0; i < body.size(); ++i)
      for (auto q = body.bondStart[i]; q < body.bondStart[i + 1]; ++q)
        d[i] += body.bondBroken[q] ? 0.0 : 1.0;
  }
  double energy(const PeridynamicBody& body, const double* x) const override {
    double w = 0.0;
    for (std::size_t k = 0; k < 3 * body.size(); ++k) w += 0.5 * kK * std::pow(x[k] - body.X[k], 2);
    return w;
  }
  double forces(const PeridynamicBody& body, const double* x, double* f) const override {
    for (std::size_t k = 0; k < 3 * body.size(); ++k) f[k] = -kK * (x[k] - body.X[k]);
    return energy(body, x);
  }
  void implicitStiffness(const PeridynamicBody& body, const double*, double* a) const override {
    for (std::size_t i = 0; i < body.size(); ++i) a[i] = kK;
  }
  void tangent(const PeridynamicBody&, const double*, double*, double*) const override {}
  bool exactTangent() const override { return false; }
  void stress(const PeridynamicBody&, const double*, double*) const override {}
  double waveSpeed(double) const override { return 1.0; }
  static constexpr double kK = 2.0;

 private:
  static PeridynamicElasticity elastic(double s0) {
    PeridynamicElasticity e;
    e.youngModulus = 1.0;
    e.criticalStretch = s0;
    return e;
  }
};

std::shared_ptr<const PeridynamicMaterial> material(
    double s0 = std::numeric_limits<double>::infinity()) {
  return std::make_shared<TestMaterial>(s0);
}

PeridynamicBodyOptions opts(const std::string& name = "slab") {
  PeridynamicBodyOptions o;
  o.name = name;
  o.spacing = kDx;
  o.horizon = 3.0 * kDx;
  o.density = 1000.0;
  return o;
}

using pd_test::messageOf;

/// @p message names the body @p name and holds @p value.
void assertNames(const std::string& message, const std::string& name, const std::string& value) {
  CPPUNIT_ASSERT_MESSAGE(message, message.find("'" + name + "'") != std::string::npos);
  CPPUNIT_ASSERT_MESSAGE(message + " [expected: " + value + "]",
                         message.find(value) != std::string::npos);
}

/// Integer offsets k ≠ 0 with |k| ≤ m (planar: k_z = 0), by brute force over a wide cube.
std::vector<std::array<int, 3>> offsets(double m, bool planar) {
  std::vector<std::array<int, 3>> out;
  for (int a = -6; a <= 6; ++a)
    for (int b = -6; b <= 6; ++b)
      for (int c = -6; c <= 6; ++c)
        if ((a || b || c) && (!planar || c == 0) && a * a + b * b + c * c <= m * m + 1e-9)
          out.push_back({a, b, c});
  return out;
}

/// The index of lattice point (i, j, k) of a box generated with n points per axis (x outer).
std::size_t at(const std::array<int, 3>& n, int i, int j, int k) {
  return static_cast<std::size_t>((i * n[1] + j) * n[2] + k);
}

}  // namespace

class PeridynamicBodyInputTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PeridynamicBodyInputTest);
  CPPUNIT_TEST(interiorPointsHaveTheFullNeighbourhood);
  CPPUNIT_TEST(bulkSumsEqualBruteForce);
  CPPUNIT_TEST(surfaceFactorsBulkFacesAndCracks);
  CPPUNIT_TEST(damageIsTheBrokenShare);
  CPPUNIT_TEST(measuresAndEnergies);
  CPPUNIT_TEST(meshFileEqualsTheBox);
  CPPUNIT_TEST(meshWithTwoParts);
  CPPUNIT_TEST(sheetBonds);
  CPPUNIT_TEST(badHorizon);
  CPPUNIT_TEST(badSpacing);
  CPPUNIT_TEST(badDensity);
  CPPUNIT_TEST(badVolume);
  CPPUNIT_TEST(badPosition);
  CPPUNIT_TEST(badSizes);
  CPPUNIT_TEST(isolatedPoint);
  CPPUNIT_TEST(extentNotAMultiple);
  CPPUNIT_TEST(precrackMissesTheBody);
  CPPUNIT_TEST(openMesh);
  CPPUNIT_TEST(sheetWithoutThickness);
  CPPUNIT_TEST(threadsGiveTheSameArrays);
  CPPUNIT_TEST(buildTime);
  CPPUNIT_TEST_SUITE_END();

 public:
  void interiorPointsHaveTheFullNeighbourhood() {
    const std::size_t full = offsets(3.0, false).size();
    CPPUNIT_ASSERT_EQUAL(std::size_t(122), full);  // what the brute force finds at δ = 3Δx
    const std::array<int, 3> n{11, 10, 9};
    auto b = peridynamics::box({0.1, -0.2, 0.3}, {0.055, 0.05, 0.045}, opts(), material());
    CPPUNIT_ASSERT_EQUAL(std::size_t(11 * 10 * 9), b->size());
    const auto all = offsets(3.0, false);
    std::size_t interior = 0;
    for (int i = 0; i < n[0]; ++i)
      for (int j = 0; j < n[1]; ++j)
        for (int k = 0; k < n[2]; ++k) {
          // brute force: the offsets of the full neighbourhood that stay in the lattice
          std::size_t expect = 0;
          for (const auto& o : all)
            expect += i + o[0] >= 0 && i + o[0] < n[0] && j + o[1] >= 0 && j + o[1] < n[1] &&
                      k + o[2] >= 0 && k + o[2] < n[2];
          const std::size_t p = at(n, i, j, k);
          CPPUNIT_ASSERT_EQUAL(expect, std::size_t(b->bondStart[p + 1] - b->bondStart[p]));
          interior += expect == full;
        }
    CPPUNIT_ASSERT_EQUAL(std::size_t(5 * 4 * 3), interior);
    CPPUNIT_ASSERT(PeridynamicBody::memoryPerBond() <= 24);
  }

  void bulkSumsEqualBruteForce() {
    auto b = peridynamics::box({0, 0, 0}, {0.03, 0.03, 0.03}, opts(), material());
    auto o2 = opts();
    o2.thickness = 0.002;
    o2.horizon = 3.5 * kDx;
    auto s = peridynamics::sheet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, 0.05, 0.05, o2, material());
    for (int power = -1; power <= 4; ++power) {
      double sum3 = 0.0, sum2 = 0.0;
      for (const auto& o : offsets(3.0, false))
        sum3 += std::pow(kDx * std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]), power) * kDx *
                kDx * kDx;
      for (const auto& o : offsets(3.5, true))
        sum2 += std::pow(kDx * std::sqrt(o[0] * o[0] + o[1] * o[1]), power) * kDx * kDx * 0.002;
      CPPUNIT_ASSERT_DOUBLES_EQUAL(sum3, b->bulkSum(power), 1e-12 * sum3);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(sum2, s->bulkSum(power), 1e-12 * sum2);
    }
    CPPUNIT_ASSERT_EQUAL(offsets(3.5, true).size(), std::size_t(std::lround(s->bulkSum(0) / 2e-7)));
    double dir = 0.0;
    for (const auto& o : offsets(3.0, false)) {
      const double l = kDx * std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
      const double c2 = std::pow(kDx * o[0] / l, 2), st = c2 - 0.25 * (1.0 - c2);  // nu = 1/4
      dir += st * st * l * kDx * kDx * kDx;
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(dir, b->bulkDirectionalSum(), 1e-12 * dir);
  }

  void surfaceFactorsBulkFacesAndCracks() {
    const std::array<int, 3> n{13, 13, 13};
    auto b = peridynamics::box({0, 0, 0}, {0.065, 0.065, 0.065}, opts(), material(0.01));
    const std::size_t centre = at(n, 6, 6, 6), face = at(n, 0, 6, 6), corner = at(n, 0, 0, 0);
    for (auto q = b->bondStart[centre]; q < b->bondStart[centre + 1]; ++q)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, b->bondFactor[q], 1e-5);
    for (auto q = b->bondStart[face]; q < b->bondStart[face + 1]; ++q)
      CPPUNIT_ASSERT(b->bondFactor[q] > 1.0f);
    float faceMax = 0.0f, cornerMin = 1e9f;
    for (auto q = b->bondStart[face]; q < b->bondStart[face + 1]; ++q)
      faceMax = std::max(faceMax, b->bondFactor[q]);
    for (auto q = b->bondStart[corner]; q < b->bondStart[corner + 1]; ++q)
      cornerMin = std::min(cornerMin, b->bondFactor[q]);
    CPPUNIT_ASSERT(cornerMin > 1.2f && faceMax < 3.0f);
    // a pre-crack in the plane x = 0.005, between the lattice planes x = 0 (the centre's) and
    // x = 0.01: the crack faces become free surfaces, the centre's bonds stiffen
    const auto before = b->bondFactor;
    b->precrack({0.005, -1, 0}, {0.005, 1, 0}, {0, 0, 1});
    CPPUNIT_ASSERT(b->bondFactor[b->bondStart[centre]] > 1.05f);
    // stretch the whole body by 2 %: bonds break, the factors stay
    const auto cracked = b->bondFactor;
    for (std::size_t k = 0; k < b->x.size(); ++k) b->x[k] *= 1.02;
    CPPUNIT_ASSERT(b->breakBonds() > 0);
    CPPUNIT_ASSERT(cracked == b->bondFactor);
    CPPUNIT_ASSERT(before != cracked);
    // off: all 1
    auto o = opts();
    o.surfaceCorrection = false;
    auto plain = peridynamics::box({0, 0, 0}, {0.03, 0.03, 0.03}, o, material());
    for (float f : plain->bondFactor) CPPUNIT_ASSERT_EQUAL(1.0f, f);
    // 2D (volume method): 1 at the centre of a sheet, > 1 on its edges
    auto o2 = opts();
    o2.thickness = 0.001;
    auto s = peridynamics::sheet({0, 0, 0}, {1, 0, 0}, {0, 0, 1}, 0.065, 0.065, o2, material());
    const std::size_t c2 = 6 * 13 + 6, e2 = 6;
    for (auto q = s->bondStart[c2]; q < s->bondStart[c2 + 1]; ++q)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, s->bondFactor[q], 1e-5);
    for (auto q = s->bondStart[e2]; q < s->bondStart[e2 + 1]; ++q)
      CPPUNIT_ASSERT(s->bondFactor[q] > 1.0f);
  }

  void damageIsTheBrokenShare() {
    auto b = peridynamics::box({0, 0, 0}, {0.04, 0.04, 0.02}, opts(), material(0.05));
    for (double d : b->damage) CPPUNIT_ASSERT_EQUAL(0.0, d);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), b->breakBonds());
    // move one point by half a spacing along x: its bonds along x stretch or shorten
    const std::size_t p = b->size() / 2;
    b->x[3 * p] += 0.5 * kDx;
    const std::size_t broken = b->breakBonds();
    CPPUNIT_ASSERT(broken > 0 && broken % 2 == 0);
    CPPUNIT_ASSERT_EQUAL(broken, b->brokenBonds());
    b->buildReverse();
    std::size_t stretched = 0;
    for (std::size_t i = 0; i < b->size(); ++i) {
      std::size_t share = 0;
      for (auto q = b->bondStart[i]; q < b->bondStart[i + 1]; ++q) {
        const auto j = b->neighbour[q];
        double l = 0.0;
        for (int k = 0; k < 3; ++k) l += std::pow(b->x[3 * j + k] - b->x[3 * i + k], 2);
        const bool over = (std::sqrt(l) - b->bondLength[q]) / b->bondLength[q] > 0.05;
        CPPUNIT_ASSERT_EQUAL(over, b->bondBroken[q] == 1);
        CPPUNIT_ASSERT_EQUAL(b->bondBroken[q], b->bondBroken[b->reverse[q]]);
        stretched += over;
        share += b->bondBroken[q];
      }
      const double total = b->bondStart[i + 1] - b->bondStart[i];
      CPPUNIT_ASSERT_EQUAL(share / total, b->damage[i]);
      CPPUNIT_ASSERT_EQUAL(total - share, b->materialData()[i]);  // prepare() ran again
    }
    CPPUNIT_ASSERT_EQUAL(broken, stretched);
    CPPUNIT_ASSERT(b->damage[p] > 0.2 && b->damage[p] < 0.8);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), b->breakBonds());  // already broken
    // pre-crack counts: exactly the pairs whose segment crosses the plane y = 0 at x <= 0.002
    // (no lattice bond crosses at x = 0.002: no tie)
    auto c = peridynamics::box({0, 0, 0}, {0.04, 0.04, 0.02}, opts(), material());
    std::size_t expect = 0;
    for (std::size_t i = 0; i < c->size(); ++i)
      for (auto q = c->bondStart[i]; q < c->bondStart[i + 1]; ++q) {
        const double *a = &c->X[3 * i], *e = &c->X[3 * c->neighbour[q]];
        if (!((a[1] < 0 && e[1] > 0) || (a[1] > 0 && e[1] < 0))) continue;
        const double t = a[1] / (a[1] - e[1]);
        expect += a[0] + t * (e[0] - a[0]) <= 0.002;
      }
    CPPUNIT_ASSERT(expect > 0);
    CPPUNIT_ASSERT_EQUAL(expect, c->precrack({-1, 0, 0}, {0.002, 0, 0}, {0, 0, 5}));
    CPPUNIT_ASSERT_EQUAL(expect, c->brokenBonds());
  }

  void measuresAndEnergies() {
    auto b = peridynamics::box({0, 0, 0}, {0.02, 0.03, 0.01}, opts(), material());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1000.0 * 0.04 * 0.06 * 0.02, b->totalMass(), 1e-12);
    b->translate({1, 2, 3});
    const auto c = b->centreOfMass();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, c[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, c[1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, c[2], 1e-12);
    CPPUNIT_ASSERT_EQUAL(0.0, b->elasticEnergy());  // the reference moved along
    b->setVelocity({3, 0, -4});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 * b->totalMass() * 25.0, b->kineticEnergy(), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-4.0 * b->totalMass(), b->momentum()[2], 1e-12);
    b->x[0] += 0.5;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 * TestMaterial::kK * 0.25, b->elasticEnergy(), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.005, b->contactRadius(), 1e-15);
    auto o = opts();
    o.contactRadius = 0.007;
    CPPUNIT_ASSERT_EQUAL(
        0.007, peridynamics::box({0, 0, 0}, {0.02, 0.02, 0.02}, o, material())->contactRadius());
  }

  void meshFileEqualsTheBox() {
    // an OBJ cube [-0.03, 0.03] x [-0.02, 0.02] x [0, 0.05] (quads: the loader triangulates)
    const std::string path = std::string(NSDYN_BINARY_DIR) + "/pd_body_cube.obj";
    {
      std::ofstream f(path);
      for (int k = 0; k < 8; ++k)
        f << "v " << (k & 1 ? 0.03 : -0.03) << " " << (k & 2 ? 0.02 : -0.02) << " "
          << (k & 4 ? 0.05 : 0.0) << "\n";
      f << "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
    }
    auto m = peridynamics::meshFile(path, 1.0, opts("cube"), material());
    auto b = peridynamics::box({0, 0, 0.025}, {0.03, 0.02, 0.025}, opts("cube"), material());
    std::remove(path.c_str());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6 * 4 * 5), m->size());
    CPPUNIT_ASSERT_EQUAL(b->size(), m->size());
    for (std::size_t k = 0; k < b->X.size(); ++k)  // the loader keeps float vertices
      CPPUNIT_ASSERT_DOUBLES_EQUAL(b->X[k], m->X[k], 1e-8);
    CPPUNIT_ASSERT(b->neighbour == m->neighbour);
    for (std::size_t q = 0; q < b->bondFactor.size(); ++q)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(b->bondFactor[q], m->bondFactor[q], 1e-6);
    const std::string missing =
        messageOf([&] { peridynamics::meshFile(path + ".none", 1.0, opts("cube"), material()); });
    CPPUNIT_ASSERT(missing.find("pd_body_cube.obj.none") != std::string::npos);
  }

  void meshWithTwoParts() {
    // two cubes of 0.04 in one mesh, 0.02 apart along x: several crossings per ray
    std::vector<double> v;
    std::vector<int> t;
    const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                             {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (int part = 0; part < 2; ++part) {
      for (int k = 0; k < 8; ++k) {
        v.push_back((k & 1 ? 0.04 : 0.0) + 0.06 * part);
        v.push_back(k & 2 ? 0.04 : 0.0);
        v.push_back(k & 4 ? 0.04 : 0.0);
      }
      for (const auto& q : quads)
        for (int e : {q[0], q[1], q[2], q[0], q[2], q[3]}) t.push_back(8 * part + e);
    }
    auto m = peridynamics::mesh(v, t, opts("pair"), material());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2 * 4 * 4 * 4), m->size());
    for (std::size_t i = 0; i < m->size(); ++i)
      CPPUNIT_ASSERT(m->X[3 * i] < 0.04 || m->X[3 * i] > 0.06);
  }

  void sheetBonds() {
    auto o = opts("cloth");
    o.thickness = 0.001;
    const double r = std::sqrt(0.5);
    auto s = peridynamics::sheet({0, 0, 1}, {r, r, 0}, {0, 0, 1}, 0.1, 0.05, o, material());
    CPPUNIT_ASSERT_EQUAL(std::size_t(20 * 10), s->size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-7, s->volume[0], 1e-20);
    const std::size_t centre = 10 * 10 + 5;
    CPPUNIT_ASSERT_EQUAL(offsets(3.0, true).size(),
                         std::size_t(s->bondStart[centre + 1] - s->bondStart[centre]));
    // every point in the plane through the centre spanned by u and w (normal (r, -r, 0))
    for (std::size_t i = 0; i < s->size(); ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, r * s->X[3 * i] - r * s->X[3 * i + 1], 1e-12);
  }

  void badHorizon() {
    auto o = opts("slab");
    o.horizon = 0.5 * kDx;
    assertNames(messageOf([&] {
                  peridynamics::box({0, 0, 0}, {0.02, 0.02, 0.02}, o, material());
                }),
                "slab", "horizon = 0.005");
  }

  void badSpacing() {
    auto o = opts("slab");
    o.spacing = 0.0;
    assertNames(messageOf([&] {
                  PeridynamicBody({0, 0, 0, 1, 0, 0}, {1, 1}, o, material());
                }),
                "slab", "spacing = 0");
    o.spacing = -0.01;
    assertNames(messageOf([&] {
                  peridynamics::sphere({0, 0, 0}, 0.05, o, material());
                }),
                "slab", "spacing = -0.01");
  }

  void badDensity() {
    auto o = opts("slab");
    o.density = 0.0;
    assertNames(messageOf([&] {
                  peridynamics::box({0, 0, 0}, {0.02, 0.02, 0.02}, o, material());
                }),
                "slab", "density = 0");
  }

  void badVolume() {
    std::vector<double> X = {0, 0, 0, 0.01, 0, 0, 0.02, 0, 0};
    assertNames(messageOf([&] {
                  PeridynamicBody(X, {1e-6, -2e-6, 1e-6}, opts(), material());
                }),
                "slab", "volume[1] = -2e-06");
  }

  void badPosition() {
    std::vector<double> X = {0, 0, 0, 0.01, std::nan(""), 0, 0.02, 0, 0};
    assertNames(messageOf([&] {
                  PeridynamicBody(X, {1e-6, 1e-6, 1e-6}, opts(), material());
                }),
                "slab", "X[1] = (0.01, nan, 0)");
  }

  void badSizes() {
    assertNames(messageOf([&] {
                  PeridynamicBody({0, 0, 0, 0.01, 0}, {1e-6, 1e-6}, opts(), material());
                }),
                "slab", "5");
  }

  void isolatedPoint() {
    std::vector<double> X = {0, 0, 0, 0.01, 0, 0, 0.5, 0.25, 0};
    const std::string m = messageOf([&] {
      PeridynamicBody(X, {1e-6, 1e-6, 1e-6}, opts(), material());
    });
    assertNames(m, "slab", "point 2 at (0.5, 0.25, 0) has none");
  }

  void extentNotAMultiple() {
    assertNames(messageOf([&] {
                  peridynamics::box({0, 0, 0}, {0.02, 0.0255, 0.02}, opts(), material());
                }),
                "slab", "y extent");
    auto o = opts("tube");
    assertNames(messageOf([&] {
                  peridynamics::cylinder({0, 0, 0}, 0.05, 0.033, 2, o, material());
                }),
                "tube", "0.033 m");
  }

  void precrackMissesTheBody() {
    auto b = peridynamics::box({0, 0, 0}, {0.02, 0.02, 0.02}, opts(), material());
    const std::string m = messageOf([&] { b->precrack({1, 0, 0}, {1, 1, 0}, {0, 0, 1}); });
    assertNames(m, "slab", "segment (1, 0, 0) - (1, 1, 0)");
    CPPUNIT_ASSERT(m.find("crosses none") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), b->brokenBonds());
    assertNames(messageOf([&] {
                  b->precrack({0, 0, 0}, {0, 1, 0}, {0, 2, 0});
                }),
                "slab", "direction (0, 2, 0)");
  }

  void openMesh() {
    // a tetrahedron without its last face: the edges of that face are shared once
    const std::vector<double> v = {0, 0, 0, 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1};
    std::vector<int> t = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    auto tet = peridynamics::mesh(v, t, opts("tet"), material());
    CPPUNIT_ASSERT(tet->size() > 20);
    t.resize(9);
    assertNames(messageOf([&] { peridynamics::mesh(v, t, opts("tet"), material()); }), "tet",
                "edge (1, 2) shared by 1");
  }

  void sheetWithoutThickness() {
    assertNames(
        messageOf([&] {
          peridynamics::sheet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, 0.1, 0.1, opts("cloth"), material());
        }),
        "cloth", "thickness = 0");
  }

  void threadsGiveTheSameArrays() {
    auto o1 = opts(), o2 = opts();
    o1.threads = 1;
    o2.threads = 2;
    auto a = peridynamics::cylinder({0, 0, 0}, 0.1, 0.06, 1, o1, material(0.02));
    auto b = peridynamics::cylinder({0, 0, 0}, 0.1, 0.06, 1, o2, material(0.02));
    for (auto* p : {a.get(), b.get()}) {
      p->precrack({0, 0, -1}, {0, 0, 0}, {0, 1, 0});
      for (std::size_t k = 0; k < p->x.size(); ++k) p->x[k] *= 1.0 + 0.001 * (k % 7);
      p->breakBonds();
    }
    CPPUNIT_ASSERT(a->bondStart == b->bondStart && a->neighbour == b->neighbour);
    CPPUNIT_ASSERT(a->bondLength == b->bondLength && a->bondFactor == b->bondFactor);
    CPPUNIT_ASSERT(a->bondBroken == b->bondBroken && a->damage == b->damage);
    CPPUNIT_ASSERT(a->brokenBonds() > 0);
  }

  void buildTime() {
    // 30,720 points, δ = 3Δx: the bonds (broadphase, CSR, lengths, surface factors)
    auto o = opts();
    const auto t0 = std::chrono::steady_clock::now();
    auto b = peridynamics::box({0, 0, 0}, {0.16, 0.16, 0.15}, o, material());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("\n  %zu points, %zu directed bonds built in %.3f s (%.1f M bonds/s)\n", b->size(),
                b->bondCount(), s, 1e-6 * b->bondCount() / s);
    CPPUNIT_ASSERT_EQUAL(std::size_t(32 * 32 * 30), b->size());
    CPPUNIT_ASSERT(s < 5.0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PeridynamicBodyInputTest);
