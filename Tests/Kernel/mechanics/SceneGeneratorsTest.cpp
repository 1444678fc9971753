// Scene generators (Kernel/src/mechanics/scenes): lattice and random packings (positions,
// overlaps, sizes, reproducibility, capacity errors), containers, hoppers and chutes
// checked through the narrowphase distances of spheres placed against their faces;
// rough bases (lattice sites within the disc, order, names, errors).
#include <cppunit/extensions/HelperMacros.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nsdyn/BoxShape.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Narrowphase.hpp>
#include <nsdyn/SceneGenerators.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;
using namespace nsdyn::scenes;
using Vec3 = Shape::Vec3;

namespace {

constexpr double tol = 1e-12;
constexpr double degree = M_PI / 180.0;

double dist2(const Vec3& a, const Vec3& b) {
  const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
  return dx * dx + dy * dy + dz * dz;
}

double boundOf(const BodySpec& b) {
  return b.shapes.at(0).shape->characteristicSize();
}

/// All bounding spheres inside the region (to @p eps) and pairwise non-overlapping (brute force).
void assertInsideAndApart(const std::vector<BodySpec>& bodies, const Region& r, double eps) {
  for (const BodySpec& b : bodies) {
    const double rb = boundOf(b);
    for (std::size_t i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT(b.position[i] - rb >= r.lower[i] - eps);
      CPPUNIT_ASSERT(b.position[i] + rb <= r.upper[i] + eps);
    }
  }
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      const double s = boundOf(bodies[i]) + boundOf(bodies[j]);
      if (dist2(bodies[i].position, bodies[j].position) < s * s * (1.0 - eps)) {
        std::cerr << bodies[i].name << " overlaps " << bodies[j].name << "\n";
        CPPUNIT_FAIL("bounding spheres overlap");
      }
    }
}

double volumeFraction(const std::vector<BodySpec>& bodies, const Region& r) {
  double v = 0.0;
  for (const BodySpec& b : bodies) v += b.shapes[0].shape->volume();
  return v / ((r.upper[0] - r.lower[0]) * (r.upper[1] - r.lower[1]) * (r.upper[2] - r.lower[2]));
}

/// Signed distance from the sphere (c, radius) to the single shape of a static part
/// (half-space or box), from the closed-form narrowphase.
double gapTo(const StaticPart& part, const Vec3& c, double radius) {
  const ShapeInstance& inst = part.body.shapes().at(0);
  const Vec3 p = inst.worldPosition(part.body.position(), part.body.orientation());
  const Shape::Quat q = inst.worldOrientation(part.body.orientation());
  narrowphase::ContactList out;
  const double margin = 1e9;
  if (auto hs = std::dynamic_pointer_cast<const HalfSpaceShape>(inst.shape)) {
    narrowphase::Plane plane;
    plane.normal = quaternion::rotate(q, hs->normal());
    plane.offset = hs->offset() + quaternion::dot(plane.normal, p);
    narrowphase::spherePlane(c, radius, plane, margin, out);
  } else if (auto box = std::dynamic_pointer_cast<const BoxShape>(inst.shape)) {
    narrowphase::Pose pose;
    pose.position = p;
    pose.orientation = q;
    narrowphase::sphereBox(c, radius, pose, box->halfExtents(), margin, out);
  }
  CPPUNIT_ASSERT_EQUAL(std::size_t(1), out.size());
  return out[0].gap;
}

/// A sphere touching part @p touched (gap 0) and clear of the others (gap ≥ 0).
void assertTouchesOnly(const std::vector<StaticPart>& parts, std::size_t touched, const Vec3& c,
                       double radius) {
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const double g = gapTo(parts[k], c, radius);
    if (k == touched)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, g, tol);
    else
      CPPUNIT_ASSERT(g >= -tol);
  }
}

/// Runs @p f, expects an nsdyn::Error whose message contains every one of @p words.
template <class F>
void assertError(F f, const std::vector<std::string>& words) {
  try {
    f();
  } catch (const Error& e) {
    const std::string what = e.what();
    for (const std::string& w : words)
      if (what.find(w) == std::string::npos) {
        std::cerr << "message: " << what << "\nmissing: " << w << "\n";
        CPPUNIT_FAIL("error message incomplete");
      }
    return;
  }
  CPPUNIT_FAIL("no nsdyn::Error thrown");
}

/// Box part's inner-face lower edge midpoint: position + R (−hx, 0, +hz).
Vec3 lowerInnerEdge(const StaticPart& part) {
  const auto box = std::dynamic_pointer_cast<const BoxShape>(part.body.shapes().at(0).shape);
  CPPUNIT_ASSERT(box);
  const Vec3 h = box->halfExtents();
  const Vec3 d = quaternion::rotate(part.body.orientation(), {-h[0], 0.0, h[2]});
  const Vec3 p = part.body.position();
  return {p[0] + d[0], p[1] + d[1], p[2] + d[2]};
}

}  // namespace

class SceneGeneratorsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneGeneratorsTest);
  CPPUNIT_TEST(latticeSpheres);
  CPPUNIT_TEST(latticeSpreadAndRotations);
  CPPUNIT_TEST(latticeCapacityError);
  CPPUNIT_TEST(randomSpheres);
  CPPUNIT_TEST(randomReproducible);
  CPPUNIT_TEST(randomCapsulesRotated);
  CPPUNIT_TEST(randomOverfillError);
  CPPUNIT_TEST(randomSpeed);
  CPPUNIT_TEST(particleShapes);
  CPPUNIT_TEST(badParticleInput);
  CPPUNIT_TEST(containerPlanes);
  CPPUNIT_TEST(containerBoxes);
  CPPUNIT_TEST(hopperFourPlates);
  CPPUNIT_TEST(hopperTwoPlates);
  CPPUNIT_TEST(chuteBoxes);
  CPPUNIT_TEST(chutePlanes);
  CPPUNIT_TEST(badStaticInput);
  CPPUNIT_TEST(roughBaseLattice);
  CPPUNIT_TEST_SUITE_END();

 public:
  void latticeSpheres() {
    // r = 0.05, gap 0 in 1 × 1 × 2: spacing 0.1, 10 × 10 × 20 sites; 250 spheres = 2.5 layers.
    ParticleSpec p;
    p.radius = 0.05;
    const Region r{{0, 0, 0}, {1, 1, 2}};
    const std::vector<BodySpec> b = latticePacking(p, r, 250);
    CPPUNIT_ASSERT_EQUAL(std::size_t(250), b.size());
    CPPUNIT_ASSERT_EQUAL(std::string("grain0"), b[0].name);
    CPPUNIT_ASSERT_EQUAL(std::string("grain249"), b[249].name);
    for (std::size_t k = 0; k < b.size(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05 + 0.1 * double(k % 10), b[k].position[0], tol);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05 + 0.1 * double(k / 10 % 10), b[k].position[1], tol);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05 + 0.1 * double(k / 100), b[k].position[2], tol);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1000.0, *b[k].density, 0.0);
      CPPUNIT_ASSERT_EQUAL(b[0].shapes[0].shape, b[k].shapes[0].shape);  // one shared shape
    }
    assertInsideAndApart(b, r, tol);
    // Gap 0.02 in a 1.05 wide box: (1.05 + 0.02)/0.12 → 8 sites, centred: margin (1.05 − 0.94)/2.
    const std::vector<BodySpec> g = latticePacking(p, {{0, 0, 0}, {1.05, 1.05, 1}}, 9, 0.02);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.055 + 0.05, g[0].position[0], tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.055 + 0.05 + 7 * 0.12, g[7].position[0], tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.055 + 0.05 + 0.12, g[8].position[1], tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05, g[8].position[2], tol);
    // The whole capacity fits exactly.
    CPPUNIT_ASSERT_EQUAL(std::size_t(2000), latticePacking(p, r, 2000).size());
  }

  void latticeSpreadAndRotations() {
    ParticleSpec p;
    p.kind = ParticleKind::Box;
    p.halfExtents = {0.03, 0.02, 0.01};
    p.sizeSpread = 0.25;
    p.randomOrientation = true;
    p.namePrefix = "brick";
    const Region r{{-1, -1, 0}, {1, 1, 1}};
    const std::vector<BodySpec> b = latticePacking(p, r, 1500, 0.001, 7);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1500), b.size());
    assertInsideAndApart(b, r, tol);
    const double nominal = std::sqrt(0.03 * 0.03 + 0.02 * 0.02 + 0.01 * 0.01);
    for (std::size_t k = 0; k < b.size(); ++k) {
      const double rb = boundOf(b[k]);
      CPPUNIT_ASSERT(rb >= nominal * 0.75 - tol && rb <= nominal * 1.25 + tol);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, quaternion::norm(b[k].orientation), 1e-14);
      if (k > 0) CPPUNIT_ASSERT(b[k].position[2] >= b[k - 1].position[2]);  // layer order
    }
    CPPUNIT_ASSERT(b[0].orientation != b[1].orientation);
    // The largest particle fixes the spacing: 2 · 1.25 · |h| + gap.
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5 * nominal + 0.001, b[1].position[0] - b[0].position[0], tol);
  }

  void latticeCapacityError() {
    ParticleSpec p;
    p.radius = 0.05;
    const Region r{{0, 0, 0}, {1, 1, 2}};
    assertError([&] { latticePacking(p, r, 2001); }, {"latticePacking", "2000", "count = 2001"});
    assertError(
        [&] {
          latticePacking(p, {{0, 0, 0}, {0.09, 1, 1}}, 1);
        },
        {"latticePacking", "0 x 10 x 10"});
    assertError([&] { latticePacking(p, r, 1, -0.1); }, {"latticePacking", "gap = -0.1"});
  }

  void randomSpheres() {
    // 2,000 spheres r = 0.028 ± 30 % in the unit cube, brute-force checked.
    ParticleSpec p;
    p.radius = 0.028;
    p.sizeSpread = 0.3;
    const Region r{{0, 0, 0}, {1, 1, 1}};
    const std::vector<BodySpec> b = randomPacking(p, r, 2000, 42);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2000), b.size());
    assertInsideAndApart(b, r, tol);
    double rmin = 1.0, rmax = 0.0;
    for (const BodySpec& s : b) {
      const double rs = std::dynamic_pointer_cast<const SphereShape>(s.shapes[0].shape)->radius();
      rmin = std::min(rmin, rs);
      rmax = std::max(rmax, rs);
    }
    CPPUNIT_ASSERT(rmin >= 0.7 * 0.028 - tol && rmax <= 1.3 * 0.028 + tol);
    CPPUNIT_ASSERT(rmin < 0.71 * 0.028 && rmax > 1.29 * 0.028);  // the spread is used in full
    const double phi = volumeFraction(b, r);
    std::cout << "\n  random packing, 2000 spheres r = 0.028 +- 30%: volume fraction " << phi
              << " (radii " << rmin << " .. " << rmax << ")\n";
    CPPUNIT_ASSERT(phi > 0.15 && phi < 0.25);
    // A sparse scene in a huge region: the grid's cells grow, its memory stays bounded.
    const Region huge{{0, 0, 0}, {1000, 1000, 1000}};
    const auto sparse = randomPacking(p, huge, 300, 5);
    CPPUNIT_ASSERT_EQUAL(std::size_t(300), sparse.size());
    assertInsideAndApart(sparse, huge, tol);
  }

  void randomReproducible() {
    ParticleSpec p;
    p.radius = 0.02;
    p.sizeSpread = 0.1;
    p.randomOrientation = true;
    const Region r{{-0.5, 0, 0}, {0.5, 1, 0.5}};
    const auto a = randomPacking(p, r, 500, 2024), b = randomPacking(p, r, 500, 2024),
               c = randomPacking(p, r, 500, 2025);
    bool allSame = true, allDifferent = true;
    for (std::size_t k = 0; k < 500; ++k) {
      allSame =
          allSame && std::memcmp(a[k].position.data(), b[k].position.data(), sizeof(Vec3)) == 0 &&
          std::memcmp(a[k].orientation.data(), b[k].orientation.data(), sizeof(Shape::Quat)) == 0 &&
          boundOf(a[k]) == boundOf(b[k]);
      allDifferent = allDifferent && a[k].position != c[k].position;
    }
    CPPUNIT_ASSERT(allSame);
    CPPUNIT_ASSERT(allDifferent);
    // The same figures on every platform: mt19937_64 is specified by the standard and
    // the mapping to [0, 1) is exact (first sphere of seed 2024).
    const Vec3 golden = a[0].position;
    std::cout.precision(17);
    std::cout << "\n  seed 2024, first centre (" << golden[0] << ", " << golden[1] << ", "
              << golden[2] << ")\n";
    std::mt19937_64 engine(2024);
    auto u = [&] { return static_cast<double>(engine() >> 11) * 0x1.0p-53; };
    const double scale = 0.9 + 0.2 * u();
    u(), u(), u();  // the rotation
    const double rk = 0.02 * scale;
    const Vec3 expected{-0.5 + rk + u() * (1.0 - 2 * rk), rk + u() * (1.0 - 2 * rk),
                        rk + u() * (0.5 - 2 * rk)};
    CPPUNIT_ASSERT(std::memcmp(expected.data(), golden.data(), sizeof(Vec3)) == 0);
    CPPUNIT_ASSERT_EQUAL(-0.47360831727608543, golden[0]);
    CPPUNIT_ASSERT_EQUAL(0.15492261649806208, golden[1]);
    CPPUNIT_ASSERT_EQUAL(0.45037389055156546, golden[2]);
  }

  void randomCapsulesRotated() {
    ParticleSpec p;
    p.kind = ParticleKind::Capsule;
    p.radius = 0.02;
    p.length = 0.06;
    p.sizeSpread = 0.2;
    p.randomOrientation = true;
    p.density = 2500;
    const Region r{{0, 0, 0}, {1, 1, 1}};
    const auto b = randomPacking(p, r, 400, 3);
    assertInsideAndApart(b, r, tol);
    // Rotations uniform: the mean of the body z axis is near 0, its z component² near 1/3.
    double mz = 0.0, zz = 0.0;
    for (const BodySpec& s : b) {
      const Vec3 axis = quaternion::rotate(s.orientation, {0, 0, 1});
      mz += axis[2];
      zz += axis[2] * axis[2];
    }
    mz /= 400.0;
    zz /= 400.0;
    std::cout << "\n  400 capsules: volume fraction " << volumeFraction(b, r) << ", mean axis z "
              << mz << ", mean z^2 " << zz << "\n";
    CPPUNIT_ASSERT(std::abs(mz) < 0.1 && std::abs(zz - 1.0 / 3.0) < 0.05);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2500.0, *b[0].density, 0.0);
  }

  void randomOverfillError() {
    ParticleSpec p;
    p.radius = 0.06;
    assertError(
        [&] {
          randomPacking(p, {{0, 0, 0}, {1, 1, 1}}, 2000, 1);
        },
        {"randomPacking", "2000 particles", "only ", "fitted"});
    assertError(
        [&] {
          randomPacking(p, {{0, 0, 0}, {0.1, 1, 1}}, 1, 1);
        },
        {"randomPacking", "along x"});
    assertError(
        [&] {
          randomPacking(p, {{0, 0, 0}, {1, 1, 1}}, 1, 1, 0);
        },
        {"randomPacking", "maxAttempts = 0"});
  }

  void randomSpeed() {
    // 100,000 spheres r = 0.01 at volume fraction 0.2.
    ParticleSpec p;
    p.radius = 0.01;
    const double v = 100000 * 4.0 / 3.0 * M_PI * 1e-6 / 0.2;
    const Region r{{0, 0, 0}, {1, 1, v}};
    const auto start = std::chrono::steady_clock::now();
    const auto b = randomPacking(p, r, 100000, 11);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CPPUNIT_ASSERT_EQUAL(std::size_t(100000), b.size());
    std::cout << "\n  random packing of 100000 spheres (volume fraction " << volumeFraction(b, r)
              << "): " << seconds << " s\n";
  }

  void particleShapes() {
    ParticleSpec p;
    p.kind = ParticleKind::Cylinder;
    p.radius = 0.03;
    p.length = 0.08;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05, boundingRadius(p), tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, makeParticleShape(p, 2.0)->characteristicSize(), tol);
    p.kind = ParticleKind::Capsule;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.07, boundingRadius(p), tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.035, makeParticleShape(p, 0.5)->characteristicSize(), tol);
    p.kind = ParticleKind::Box;
    p.halfExtents = {0.1, 0.2, 0.2};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3, boundingRadius(p), tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(8 * 0.1 * 0.2 * 0.2 * 27, makeParticleShape(p, 3.0)->volume(),
                                 tol);
  }

  void badParticleInput() {
    const Region r{{0, 0, 0}, {1, 1, 1}};
    ParticleSpec p;
    p.radius = -0.1;
    assertError([&] { latticePacking(p, r, 1); }, {"latticePacking", "radius = -0.1"});
    p.radius = std::numeric_limits<double>::quiet_NaN();
    assertError([&] { randomPacking(p, r, 1, 1); }, {"randomPacking", "radius = nan"});
    p.radius = 0.05;
    p.sizeSpread = 1.0;
    assertError([&] { randomPacking(p, r, 1, 1); }, {"randomPacking", "sizeSpread = 1"});
    p.sizeSpread = 0.0;
    p.density = 0.0;
    assertError([&] { randomPacking(p, r, 1, 1); }, {"randomPacking", "density = 0"});
    p.density = 1000.0;
    p.kind = ParticleKind::Capsule;
    p.length = 0.0;
    assertError([&] { latticePacking(p, r, 1); }, {"latticePacking", "length = 0"});
    p.kind = ParticleKind::Box;
    p.halfExtents = {0.1, 0.1, std::numeric_limits<double>::infinity()};
    assertError([&] { latticePacking(p, r, 1); }, {"latticePacking", "halfExtents z", "inf"});
    p.kind = ParticleKind::Sphere;
    assertError(
        [&] {
          latticePacking(p, {{0, 0, 1}, {1, 1, 0}}, 1);
        },
        {"latticePacking", "region"});
    assertError(
        [&] {
          randomPacking(p, {{0, 0, 0}, {1, 0, 1}}, 1, 1);
        },
        {"randomPacking", "region"});
    // Nothing to place is not an error.
    CPPUNIT_ASSERT(randomPacking(p, r, 0, 1).empty());
  }

  void containerPlanes() {
    ContainerSpec c;
    c.inner = {{0, 0, 0}, {1, 2, 1.5}};
    const auto parts = container(c);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("container_floor"), parts[0].name);
    CPPUNIT_ASSERT_EQUAL(std::string("container_wall_+y"), parts[4].name);
    for (const StaticPart& part : parts) CPPUNIT_ASSERT(part.body.isStatic());
    const double rs = 0.1;
    assertTouchesOnly(parts, 0, {0.5, 1.0, rs}, rs);
    assertTouchesOnly(parts, 1, {rs, 1.0, 0.7}, rs);
    assertTouchesOnly(parts, 2, {1 - rs, 1.0, 0.7}, rs);
    assertTouchesOnly(parts, 3, {0.5, rs, 0.7}, rs);
    assertTouchesOnly(parts, 4, {0.5, 2 - rs, 0.7}, rs);
    // A sphere in the corner touches three parts; one outside penetrates the wall.
    for (std::size_t k : {0, 1, 3})
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(parts[k], {rs, rs, rs}, rs), tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.3, gapTo(parts[2], {1.2, 1, 1}, rs), tol);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), bodies(parts).size());
  }

  void containerBoxes() {
    ContainerSpec c;
    c.inner = {{-1, -1, 0.5}, {1, 2, 1.5}};
    c.planes = false;
    c.wallThickness = 0.1;
    c.namePrefix = "bin";
    const auto parts = container(c);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("bin_wall_-x"), parts[1].name);
    const double rs = 0.05;
    assertTouchesOnly(parts, 0, {0, 0.5, 0.5 + rs}, rs);
    assertTouchesOnly(parts, 1, {-1 + rs, 0.5, 1}, rs);
    assertTouchesOnly(parts, 2, {1 - rs, 0.5, 1}, rs);
    assertTouchesOnly(parts, 3, {0, -1 + rs, 1}, rs);
    assertTouchesOnly(parts, 4, {0, 2 - rs, 1}, rs);
    // Walls 1 high (the region), 0.1 thick: the top of the +x wall at z = 1.5, x in [1, 1.1].
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(parts[2], {1.05, 0.5, 1.5 + rs}, rs), tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(parts[2], {1.1 + rs, 0.5, 1.0}, rs), tol);
    // The floor is under the corners too: x, y in [−1.1, 1.1] × [−1.1, 2.1], top at 0.5.
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(parts[0], {-1.08, 2.08, 0.5 + rs}, rs), tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(parts[0], {-1.08, 2.08, 0.4 - rs}, rs), tol);
    // wallHeight given.
    c.wallHeight = 0.3;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(container(c)[3], {0, -1.05, 0.8 + rs}, rs), tol);
  }

  void hopperFourPlates() {
    HopperSpec h;
    h.center = {1, 2, 0.3};
    h.outletWidth = 0.2;
    h.topWidth = 1.0;
    h.angle = 60 * degree;
    h.outletHeight = 0.5;
    h.wallThickness = 0.03;
    const auto parts = hopper(h);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("hopper_plate_-y"), parts[3].name);
    CPPUNIT_ASSERT_EQUAL(std::string("hopper_floor"), parts[4].name);
    // The plates' lower inner edges bound the 0.2 × 0.2 outlet at z = 0.8.
    const Vec3 ex = lowerInnerEdge(parts[0]), mx = lowerInnerEdge(parts[1]);
    const Vec3 ey = lowerInnerEdge(parts[2]), my = lowerInnerEdge(parts[3]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.2, ex[0] - mx[0], tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.2, ey[1] - my[1], tol);
    for (const Vec3& e : {ex, mx, ey, my}) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.8, e[2], tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.1, ex[0], tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, ex[1], tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.1, ey[1], tol);
    // Plate slope: local x up at 60° (horizontal part outward), local z the inner normal.
    for (std::size_t k = 0; k < 4; ++k) {
      const Vec3 up = quaternion::rotate(parts[k].body.orientation(), {1, 0, 0});
      CPPUNIT_ASSERT_DOUBLES_EQUAL(60 * degree, std::asin(up[2]), 1e-12);
      const Vec3 n = quaternion::rotate(parts[k].body.orientation(), {0, 0, 1});
      const Vec3 edge = lowerInnerEdge(parts[k]);
      CPPUNIT_ASSERT(n[0] * (edge[0] - 1) + n[1] * (edge[1] - 2) < 0);  // faces the axis
    }
    // A sphere at the outlet centre is w/2 from each plate's edge: 0.099 passes, 0.101 does not.
    for (std::size_t k = 0; k < 4; ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.001, gapTo(parts[k], {1, 2, 0.8}, 0.099), tol);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.001, gapTo(parts[k], {1, 2, 0.8}, 0.101), tol);
    }
    // The plates reach (1 − 0.2)/2 · tan 60° above the outlet, 0.5 from the axis.
    const auto box = std::dynamic_pointer_cast<const BoxShape>(parts[0].body.shapes()[0].shape);
    const Vec3 top = quaternion::rotate(parts[0].body.orientation(),
                                        {box->halfExtents()[0], 0, box->halfExtents()[2]});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.5, parts[0].body.position()[0] + top[0], tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.8 + 0.4 * std::sqrt(3.0), parts[0].body.position()[2] + top[2],
                                 tol);
    // A sphere resting on the floor under the outlet.
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(parts[4], {1, 2, 0.35}, 0.05), tol);
  }

  void hopperTwoPlates() {
    HopperSpec h;
    h.plates = 2;
    h.depth = 0.3;
    h.outletWidth = 0.1;
    h.topWidth = 0.7;
    h.angle = 45 * degree;
    h.floor = false;
    const auto parts = hopper(h);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("hopper_side_+y"), parts[3].name);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, lowerInnerEdge(parts[0])[0] - lowerInnerEdge(parts[1])[0],
                                 tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, lowerInnerEdge(parts[0])[2], tol);
    // The side walls' inner faces at y = ±0.15; a sphere inside the slot touches the −y one only.
    assertTouchesOnly(parts, 2, {0, -0.15 + 0.04, 0.52}, 0.04);
    h.sideWalls = false;
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), hopper(h).size());
  }

  void chuteBoxes() {
    ChuteSpec c;
    c.origin = {0, 0, 2};
    c.angle = 25 * degree;
    c.length = 3;
    c.width = 0.4;
    c.wallHeight = 0.2;
    c.thickness = 0.05;
    const auto parts = chute(c);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("chute_bed"), parts[0].name);
    for (const StaticPart& part : parts) {
      const Vec3 n = quaternion::rotate(part.body.orientation(), {0, 0, 1});
      CPPUNIT_ASSERT_DOUBLES_EQUAL(25 * degree, std::acos(n[2]), 1e-12);
      CPPUNIT_ASSERT(n[0] > 0);  // the bed descends along +x
    }
    // Spheres on the bed surface, along the slope s from the origin: (s cos θ, y, 2 − s sin θ) + r
    // n.
    const double s = std::sin(25 * degree), co = std::cos(25 * degree), rs = 0.05;
    auto onBed = [&](double along, double y, double up) {
      return Vec3{along * co + up * s, y, 2 - along * s + up * co};
    };
    assertTouchesOnly(parts, 0, onBed(1.5, 0, rs), rs);
    assertTouchesOnly(parts, 1, onBed(1.5, -0.2 + rs, 0.1), rs);
    assertTouchesOnly(parts, 2, onBed(1.5, 0.2 - rs, 0.1), rs);
    // The bed ends: the top end at the origin, the bottom end 3 down the slope.
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(parts[0], onBed(-rs, 0, -0.02), rs), tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(parts[0], onBed(3 + rs, 0, -0.02), rs), tol);
    // Wall tops at 0.2 above the bed.
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, gapTo(parts[2], onBed(1, 0.22, 0.2 + rs), rs), tol);
  }

  void chutePlanes() {
    ChuteSpec c;
    c.angle = 10 * degree;
    c.planes = true;
    c.width = 0.6;
    const auto parts = chute(c);
    const auto bed =
        std::dynamic_pointer_cast<const HalfSpaceShape>(parts[0].body.shapes()[0].shape);
    CPPUNIT_ASSERT(bed);
    const Vec3 n = quaternion::rotate(parts[0].body.orientation(), bed->normal());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sin(10 * degree), n[0], tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::cos(10 * degree), n[2], tol);
    const double rs = 0.1;
    assertTouchesOnly(
        parts, 0, {rs * n[0] + 5 * std::cos(10 * degree), 0, rs * n[2] - 5 * std::sin(10 * degree)},
        rs);
    assertTouchesOnly(parts, 1, {rs * n[0], -0.3 + rs, rs * n[2] + 0.01}, rs);
    assertTouchesOnly(parts, 2, {rs * n[0], 0.3 - rs, rs * n[2] + 0.01}, rs);
  }

  void badStaticInput() {
    ContainerSpec c;
    c.inner = {{0, 0, 0}, {1, 1, 0}};
    assertError([&] { container(c); }, {"container", "inner"});
    c.inner = {{0, 0, 0}, {1, 1, 1}};
    c.planes = false;
    c.wallThickness = 0;
    assertError([&] { container(c); }, {"container", "wallThickness = 0"});
    c.wallThickness = 0.1;
    c.wallHeight = -1;
    assertError([&] { container(c); }, {"container", "wallHeight = -1"});

    HopperSpec h;
    h.angle = 0;
    assertError([&] { hopper(h); }, {"hopper", "angle = 0"});
    h.angle = M_PI / 2;
    assertError([&] { hopper(h); }, {"hopper", "angle = 1.57"});
    h.angle = 1;
    h.topWidth = 0.1;
    assertError([&] { hopper(h); }, {"hopper", "topWidth = 0.1"});
    h.topWidth = 1;
    h.plates = 3;
    assertError([&] { hopper(h); }, {"hopper", "plates = 3"});
    h.plates = 4;
    h.outletHeight = std::numeric_limits<double>::quiet_NaN();
    assertError([&] { hopper(h); }, {"hopper", "outletHeight = nan"});

    ChuteSpec ch;
    ch.angle = -0.1;
    assertError([&] { chute(ch); }, {"chute", "angle = -0.1"});
    ch.angle = 0.3;
    ch.thickness = -1;
    assertError([&] { chute(ch); }, {"chute", "thickness = -1"});
    ch.planes = true;  // the thickness is unused by half-spaces
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), chute(ch).size());
  }

  // Rough base: one sphere per site (c + 2r (i, j), c_z + r) of the square lattice within
  // the disc, i then j from -n to n, named prefix + k, all static sharing one sphere; bad input.
  void roughBaseLattice() {
    RoughBaseSpec b;
    b.radius = 0.05;
    b.reach = 0.22;
    b.center = {1.0, 2.0, 0.5};
    const std::vector<StaticPart> parts = roughBase(b);
    // n = ceil(0.22 / 0.1) = 3: the sites of [-3, 3]^2 within 0.22, in order
    std::vector<Vec3> expected;
    for (int i = -3; i <= 3; ++i)
      for (int j = -3; j <= 3; ++j) {
        const double x = 0.1 * i, y = 0.1 * j;
        if (std::hypot(x, y) <= 0.22) expected.push_back({1.0 + x, 2.0 + y, 0.55});
      }
    // the centre, 4 sites at 0.1, 4 at 0.141, 4 at 0.2 (those at 0.224 are out)
    CPPUNIT_ASSERT_EQUAL(std::size_t(13), expected.size());
    CPPUNIT_ASSERT_EQUAL(expected.size(), parts.size());
    const auto sphere =
        std::dynamic_pointer_cast<const SphereShape>(parts[0].body.shapes().at(0).shape);
    CPPUNIT_ASSERT(sphere);
    CPPUNIT_ASSERT_EQUAL(0.05, sphere->radius());
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const StaticPart& part = parts[k];
      CPPUNIT_ASSERT_EQUAL("bump" + std::to_string(k), part.name);
      CPPUNIT_ASSERT(part.body.isStatic());
      CPPUNIT_ASSERT_EQUAL(std::size_t(1), part.body.shapes().size());
      CPPUNIT_ASSERT(part.body.shapes()[0].shape == parts[0].body.shapes()[0].shape);
      const Vec3 p = part.body.position();
      for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(expected[k][i], p[i], tol);
      CPPUNIT_ASSERT(std::hypot(p[0] - 1.0, p[1] - 2.0) <= 0.22 + tol);
      // on the lattice: whole multiples of the diameter from the centre
      for (std::size_t i = 0; i < 2; ++i) {
        const double steps = (p[i] - b.center[i]) / 0.1;
        CPPUNIT_ASSERT_DOUBLES_EQUAL(std::round(steps), steps, 1e-9);
      }
    }
    // i = -2: 1 site, i = -1: 3, then (0, -2), (0, -1), the centre (k = 6), (0, 1) touching it
    CPPUNIT_ASSERT(dist2(parts[6].body.position(), {1.0, 2.0, 0.55}) < tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(
        0.1, std::sqrt(dist2(parts[6].body.position(), parts[7].body.position())), tol);
    // the prefix; a disc smaller than a diameter holds the centre sphere only
    b.namePrefix = "grit";
    b.reach = 0.09;
    const std::vector<StaticPart> one = roughBase(b);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), one.size());
    CPPUNIT_ASSERT_EQUAL(std::string("grit0"), one[0].name);
    // bad input
    RoughBaseSpec bad;
    bad.radius = 0;
    assertError([&] { roughBase(bad); }, {"roughBase", "radius = 0"});
    bad.radius = std::numeric_limits<double>::quiet_NaN();
    assertError([&] { roughBase(bad); }, {"roughBase", "radius = nan"});
    bad.radius = 0.05;
    bad.reach = -1;
    assertError([&] { roughBase(bad); }, {"roughBase", "reach = -1"});
    bad.reach = 1;
    bad.center = {0, std::numeric_limits<double>::infinity(), 0};
    assertError([&] { roughBase(bad); }, {"roughBase", "center"});
    bad.center = {0, 0, 0};
    bad.reach = 500.1;  // 5001 spheres along a radius
    assertError([&] { roughBase(bad); }, {"roughBase", "2000"});
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneGeneratorsTest);
