// SheetMaterial (cloth, Kernel/src/peridynamics/materials/SheetMaterial*.cpp): forces = −∇W
// and the tangent by finite differences, zero energy under rigid motions, the membrane and the
// bending energies of a bulk point against the continuum plate, a simply supported plate
// strip against the closed form (Newton statics), bad input, tearing by breakBonds.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nsdyn/Error.hpp>
#include <nsdyn/NewtonCholmod.hpp>
#include <nsdyn/PeridynamicBody.hpp>
#include <nsdyn/PeridynamicGenerators.hpp>
#include <nsdyn/PeridynamicStepper.hpp>
#include <nsdyn/SheetMaterial.hpp>

#include "ErrorMessage.hpp"

using namespace nsdyn;

namespace {

constexpr double kDx = 1e-2;    // lattice spacing (m)
constexpr double kE = 1e7;      // Young's modulus (Pa)
constexpr double kT = 2e-3;     // thickness (m)
constexpr double kRho = 500.0;  // density (kg/m³)

PeridynamicElasticity cloth(double criticalStretch = INFINITY) {
  PeridynamicElasticity e;
  e.youngModulus = kE;
  e.poissonRatio = 1.0 / 3.0;
  e.criticalStretch = criticalStretch;
  return e;
}

PeridynamicBodyOptions sheetOptions(const std::string& name, double thickness = kT) {
  PeridynamicBodyOptions o;
  o.name = name;
  o.spacing = kDx;
  o.horizon = 3.0 * kDx;
  o.density = kRho;
  o.thickness = thickness;
  return o;
}

std::shared_ptr<const SheetMaterial> material(double bendingScale = 1.0,
                                              double criticalStretch = INFINITY) {
  SheetMaterialOptions o;
  o.bendingScale = bendingScale;
  return std::make_shared<SheetMaterial>(cloth(criticalStretch), o);
}

/// A sheet of nu × nw points in the plane z = 0 centred at the origin.
std::unique_ptr<PeridynamicBody> flatSheet(int nu, int nw, const std::string& name,
                                           std::shared_ptr<const SheetMaterial> m,
                                           double thickness = kT) {
  return peridynamics::sheet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, 0.5 * nu * kDx, 0.5 * nw * kDx,
                             sheetOptions(name, thickness), std::move(m));
}

/// The point nearest to (x, y) in the reference.
std::size_t pointAt(const PeridynamicBody& b, double x, double y) {
  std::size_t best = 0;
  double d = INFINITY;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const double dd = std::hypot(b.X[3 * i] - x, b.X[3 * i + 1] - y);
    if (dd < d) d = dd, best = i;
  }
  return best;
}

double pointEnergy(const PeridynamicBody& b, const std::vector<double>& x, std::size_t i) {
  std::vector<double> w(b.size());
  b.material().pointEnergies(b, x.data(), w.data());
  return w[i];
}

using pd_test::messageOf;

}  // namespace

class SheetMaterialTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SheetMaterialTest);
  CPPUNIT_TEST(forcesAreMinusGradientAndTangentExact);
  CPPUNIT_TEST(zeroEnergyFlatAndRigid);
  CPPUNIT_TEST(membraneMatchesContinuum);
  CPPUNIT_TEST(bendingMatchesKirchhoffPlate);
  CPPUNIT_TEST(simplySupportedPlateDeflection);
  CPPUNIT_TEST(badInputIsRefused);
  CPPUNIT_TEST(pulledSheetTearsAlongALine);
  CPPUNIT_TEST(hangingClothIsStable);
  CPPUNIT_TEST(notchedStripTearsQuasiStatically);
  CPPUNIT_TEST_SUITE_END();

 public:
  // Central differences of W against f on a randomly deformed sheet (membrane and bending,
  // a prescribed point among them), then of f against the tangent on a stretched sheet (all
  // bonds in tension: the tangent is the exact Hessian).
  void forcesAreMinusGradientAndTangentExact() {
    auto m = material();
    auto body = flatSheet(8, 6, "fd-sheet", m);
    body->prescribed[5] = 1;
    const std::size_t n = body->size(), n3 = 3 * n;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> x(body->X);
    for (std::size_t q = 0; q < n3; ++q) x[q] += 0.05 * kDx * u(rng);
    std::vector<double> f(n3), w(n);
    const double W = m->forces(*body, x.data(), f.data());
    CPPUNIT_ASSERT(W > 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(W, m->energy(*body, x.data()), 1e-12 * W);
    m->pointEnergies(*body, x.data(), w.data());
    double sw = 0.0;
    for (double v : w) sw += v;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(W, sw, 1e-12 * W);
    CPPUNIT_ASSERT(m->bendingEnergy(*body, x.data()) > 0.0);
    const double hfd = 1e-6 * kDx;
    double worst = 0.0, fmax = 0.0;
    for (std::size_t q = 0; q < n3; ++q) fmax = std::max(fmax, std::abs(f[q]));
    for (std::size_t q = 0; q < n3; ++q) {
      if (body->prescribed[q / 3]) {
        CPPUNIT_ASSERT_EQUAL(0.0, f[q]);
        continue;
      }
      std::vector<double> xp(x), xm(x);
      xp[q] += hfd;
      xm[q] -= hfd;
      const double g = (m->energy(*body, xp.data()) - m->energy(*body, xm.data())) / (2 * hfd);
      worst = std::max(worst, std::abs(-g - f[q]));
    }
    std::printf("\n  sheet %zu points, %zu triplets: max |f + dW/dx| / max |f| = %.2e\n", n,
                m->triplets(*body), worst / fmax);
    CPPUNIT_ASSERT(worst < 1e-6 * fmax);

    // Tangent: stretched by 1 % (every bond in tension) plus a small random field.
    for (std::size_t q = 0; q < n3; ++q) x[q] = 1.01 * body->X[q] + 1e-4 * kDx * u(rng);
    std::vector<double> K(9 * body->bondCount()), diag(9 * n);
    m->tangent(*body, x.data(), K.data(), diag.data());
    CPPUNIT_ASSERT(m->exactTangent());
    body->prescribed[5] = 0;
    m->forces(*body, x.data(), f.data());
    std::vector<double> fp(n3), fm(n3);
    double worstK = 0.0, kmax = 0.0;
    for (double v : diag) kmax = std::max(kmax, std::abs(v));
    for (std::size_t j = 0; j < n; ++j)
      for (int s = 0; s < 3; ++s) {
        std::vector<double> xp(x), xm(x);
        xp[3 * j + s] += hfd;
        xm[3 * j + s] -= hfd;
        m->forces(*body, xp.data(), fp.data());
        m->forces(*body, xm.data(), fm.data());
        for (std::size_t i = 0; i < n; ++i) {
          // The block of (i, j): the diagonal, a bond i→j, or zero.
          const double* B = nullptr;
          if (i == j) B = &diag[9 * i];
          for (auto b = body->bondStart[i]; b < body->bondStart[i + 1] && !B; ++b)
            if (body->neighbour[b] == j) B = &K[9 * b];
          for (int r = 0; r < 3; ++r) {
            const double d = (fp[3 * i + r] - fm[3 * i + r]) / (2 * hfd);
            worstK = std::max(worstK, std::abs(d - (B ? B[3 * r + s] : 0.0)));
          }
        }
      }
    std::printf("  tangent: max |K - df/dx| / max |K_ii| = %.2e\n", worstK / kmax);
    CPPUNIT_ASSERT(worstK < 1e-5 * kmax);
    // The implicit stiffness bounds the diagonal blocks.
    std::vector<double> a(n);
    m->implicitStiffness(*body, x.data(), a.data());
    for (std::size_t i = 0; i < n; ++i)
      for (int r = 0; r < 3; ++r) CPPUNIT_ASSERT(a[i] >= -diag[9 * i + 4 * r]);
  }

  // W = 0 at the reference and after a rotation and translation of a tilted sheet.
  void zeroEnergyFlatAndRigid() {
    auto m = material();
    const double c = std::cos(0.4), s = std::sin(0.4);
    auto body = peridynamics::sheet({0.1, 0.2, 0.3}, {c, 0, s}, {0, 1, 0}, 4.5 * kDx, 3.5 * kDx,
                                    sheetOptions("tilted"), m);
    // Reference energy scale: a 1e-3 isotropic stretch.
    std::vector<double> x(body->X);
    for (double& v : x) v *= 1.001;
    const double scale = m->energy(*body, x.data());
    CPPUNIT_ASSERT(scale > 0.0);
    // Flat reference: zero up to the round-off of the tilted triplets' second differences.
    CPPUNIT_ASSERT(m->energy(*body, body->X.data()) < 1e-20 * scale);
    // Rotation by 0.7 rad about (1, 2, 2)/3 and a translation.
    const double n0 = 1.0 / 3, n1 = 2.0 / 3, n2 = 2.0 / 3, a = 0.7;
    const double ca = std::cos(a), sa = std::sin(a);
    const double R[9] = {
        ca + n0 * n0 * (1 - ca),      n0 * n1 * (1 - ca) - n2 * sa, n0 * n2 * (1 - ca) + n1 * sa,
        n1 * n0 * (1 - ca) + n2 * sa, ca + n1 * n1 * (1 - ca),      n1 * n2 * (1 - ca) - n0 * sa,
        n2 * n0 * (1 - ca) - n1 * sa, n2 * n1 * (1 - ca) + n0 * sa, ca + n2 * n2 * (1 - ca)};
    for (std::size_t i = 0; i < body->size(); ++i)
      for (int r = 0; r < 3; ++r)
        x[3 * i + r] = R[3 * r] * body->X[3 * i] + R[3 * r + 1] * body->X[3 * i + 1] +
                       R[3 * r + 2] * body->X[3 * i + 2] + 0.5 * (r + 1);
    const double W = m->energy(*body, x.data());
    std::printf("\n  rigid motion: W / W(1e-3 stretch) = %.2e\n", W / scale);
    CPPUNIT_ASSERT(W < 1e-12 * scale);
    std::vector<double> f(x.size());
    m->forces(*body, x.data(), f.data());
    double fmax = 0.0;
    for (double v : f) fmax = std::max(fmax, std::abs(v));
    CPPUNIT_ASSERT(fmax < 1e-6 * kE * kT * kDx * 1e-3);
  }

  // A bulk point of a 17 × 17 sheet under affine in-plane strains holds V × the plane-stress
  // density E/(2(1 − ν²)) (ε_xx² + ε_yy² + 2ν ε_xx ε_yy + (1 − ν)/2 γ²) within 1e-3.
  void membraneMatchesContinuum() {
    auto m = material();
    auto body = flatSheet(17, 17, "membrane", m);
    const std::size_t c = pointAt(*body, 0, 0);
    const double nu = 1.0 / 3.0, V = body->volume[c];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(kE * kT / (1 - nu * nu), m->membraneStiffness(*body), 1e-6);
    const double eps = 1e-5;
    struct Case {
      const char* name;
      double exx, eyy, gxy;
    };
    const double a = 0.5;  // a uniaxial strain along 0.5 rad: ε = eps n⊗n
    const Case cases[] = {
        {"uniaxial strain x", eps, 0, 0},
        {"uniaxial strain 0.5 rad", eps * std::cos(a) * std::cos(a),
         eps * std::sin(a) * std::sin(a), 2 * eps * std::sin(a) * std::cos(a)},
        {"uniaxial stress x", eps, -nu * eps, 0},
        {"equibiaxial", eps, eps, 0},
        {"shear", 0, 0, eps},
    };
    double worst = 0.0;
    for (const Case& k : cases) {
      std::vector<double> x(body->X);
      for (std::size_t i = 0; i < body->size(); ++i) {
        const double X = body->X[3 * i], Y = body->X[3 * i + 1];
        x[3 * i] += k.exx * X + 0.5 * k.gxy * Y;
        x[3 * i + 1] += 0.5 * k.gxy * X + k.eyy * Y;
      }
      const double want =
          V * kE / (2 * (1 - nu * nu)) *
          (k.exx * k.exx + k.eyy * k.eyy + 2 * nu * k.exx * k.eyy + 0.5 * (1 - nu) * k.gxy * k.gxy);
      const double got = pointEnergy(*body, x, c);
      std::printf("%s  %-24s W_i / continuum = %.6f\n", worst == 0.0 ? "\n" : "", k.name,
                  got / want);
      worst = std::max(worst, std::abs(got / want - 1));
    }
    CPPUNIT_ASSERT(worst < 1e-3);
  }

  // Small transverse fields w = ½ κ_ab X_a X_b: the bending share of a bulk point is
  // A (D/2) [ν (tr κ)² + (1 − ν) κ:κ] (exactly: the second differences of a quadratic are
  // exact); a sheet rolled on a cylinder (isometric, large) matches ½ D κ² A within 1 %.
  void bendingMatchesKirchhoffPlate() {
    auto m = material();
    auto body = flatSheet(17, 17, "plate", m);
    auto membrane = flatSheet(17, 17, "plate-membrane", material(0.0));
    const std::size_t c = pointAt(*body, 0, 0);
    const double nu = 1.0 / 3.0, A = body->volume[c] / kT;
    const double D = kE * kT * kT * kT / (12 * (1 - nu * nu));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, m->bendingStiffness(*body) / D, 1e-12);
    const double k0 = 1e-3 / kDx;
    struct Case {
      const char* name;
      double kxx, kyy, kxy;
    };
    const double ca = std::cos(0.3), sa = std::sin(0.3);
    const Case cases[] = {{"cylinder x", k0, 0, 0},
                          {"cylinder 0.3 rad", k0 * ca * ca, k0 * sa * sa, k0 * ca * sa},
                          {"sphere", k0, k0, 0},
                          {"saddle", k0, -k0, 0},
                          {"twist", 0, 0, k0}};
    double worst = 0.0;
    for (const Case& k : cases) {
      std::vector<double> x(body->X);
      for (std::size_t i = 0; i < body->size(); ++i) {
        const double X = body->X[3 * i], Y = body->X[3 * i + 1];
        x[3 * i + 2] = 0.5 * (k.kxx * X * X + k.kyy * Y * Y) + k.kxy * X * Y;
      }
      const double tr = k.kxx + k.kyy;
      const double kk = k.kxx * k.kxx + k.kyy * k.kyy + 2 * k.kxy * k.kxy;
      const double want = A * 0.5 * D * (nu * tr * tr + (1 - nu) * kk);
      const double got = pointEnergy(*body, x, c) - pointEnergy(*membrane, x, c);
      std::printf("%s  %-18s bending W_i / plate = %.9f\n", worst == 0.0 ? "\n" : "", k.name,
                  got / want);
      worst = std::max(worst, std::abs(got / want - 1));
    }
    CPPUNIT_ASSERT(worst < 1e-6);
    // Rolled on a cylinder of radius R = 20 Δx about the y axis (no stretching of the mid
    // surface): the whole bending energy of the bulk point.
    const double R = 20 * kDx;
    std::vector<double> x(body->X);
    for (std::size_t i = 0; i < body->size(); ++i) {
      const double X = body->X[3 * i];
      x[3 * i] = R * std::sin(X / R);
      x[3 * i + 2] = R * (1 - std::cos(X / R));
    }
    const double got = pointEnergy(*body, x, c) - pointEnergy(*membrane, x, c);
    const double want = 0.5 * D * A / (R * R);
    std::printf("  rolled R = 20 dx: bending W_i / (D A / 2R^2) = %.5f, membrane share %.2e\n",
                got / want, pointEnergy(*membrane, x, c) / want);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, got / want, 0.01);
  }

  // A square plate simply supported on two opposite edges (one prescribed row each), free on
  // the others, under a uniform pressure p: the centre deflection within 10 % of the
  // cylindrical-bending closed form 5 p L⁴ / (384 D) (Euler–Bernoulli per unit width with the
  // plate stiffness D; the Lévy series for a square S-F-S-F plate is 0.5 % above it).
  void simplySupportedPlateDeflection() {
    const int nx = 21, ny = 21;
    const double t = kDx;  // a thick plate of one layer: membrane stretching stays negligible
    auto m = material();
    auto body = flatSheet(nx, ny, "plate-strip", m, t);
    const double xmin = -0.5 * (nx - 1) * kDx, xmax = -xmin;
    body->prescribe(
        [&](const double* X) { return X[0] < xmin + 0.25 * kDx || X[0] > xmax - 0.25 * kDx; });
    const double L = xmax - xmin, D = m->bendingStiffness(*body);
    const double load = 384.0 / 5.0 * 1e-4 * D / (L * L * L);  // w = 1e-4 L in closed form
    for (std::size_t i = 0; i < body->size(); ++i) body->force[3 * i + 2] = -load * kDx * kDx;
    NewtonCholmod newton;
    PeridynamicStepOptions so;
    so.h = 0.0;
    so.tolerance = 1e-7;  // round-off of the stiff membrane forces is near 1e-8
    std::vector<double> x(3 * body->size()), v(x.size());
    const PeridynamicStepReport r = newton.freeStep(*body, so, x.data(), v.data());
    CPPUNIT_ASSERT_EQUAL(NSD_OK, r.status);
    const std::size_t centre = pointAt(*body, 0, 0);
    const double w = -(x[3 * centre + 2] - body->X[3 * centre + 2]);
    const double want = 5.0 * load * L * L * L * L / (384.0 * D);
    std::printf(
        "\n  S-F-S-F plate %d x %d: w_centre / (5 p L^4 / 384 D) = %.4f, w / L = %.1e "
        "(Newton %d iterations, %.3f s)\n",
        nx, ny, w / want, w / L, r.iterations, r.seconds);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, w / want, 0.10);
  }

  // A 3D body, ν ≠ 1/3, E ≤ 0, a negative bending scale, a horizon too short for the bending
  // triplets: refused naming the body and the value.
  void badInputIsRefused() {
    PeridynamicBodyOptions o = sheetOptions("block");
    o.thickness = 0.0;
    std::string msg = messageOf([&] {
      peridynamics::box({0, 0, 0}, {2 * kDx, 2 * kDx, 2 * kDx}, o, material());
    });
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("block") != std::string::npos &&
                                    msg.find("thickness = 0") != std::string::npos);
    PeridynamicElasticity e = cloth();
    e.poissonRatio = 0.3;
    msg = messageOf([&] { flatSheet(6, 6, "nu-sheet", std::make_shared<SheetMaterial>(e)); });
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("nu-sheet") != std::string::npos &&
                                    msg.find("nu = 0.3") != std::string::npos);
    e = cloth();
    e.youngModulus = -1.0;
    msg = messageOf([&] { flatSheet(6, 6, "e-sheet", std::make_shared<SheetMaterial>(e)); });
    CPPUNIT_ASSERT_MESSAGE(
        msg, msg.find("e-sheet") != std::string::npos && msg.find("E = -1") != std::string::npos);
    msg = messageOf([&] { flatSheet(6, 6, "bend-sheet", material(-2.0)); });
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("bend-sheet") != std::string::npos &&
                                    msg.find("bendingScale = -2") != std::string::npos);
    o = sheetOptions("short-horizon");
    o.horizon = 2.0 * kDx;
    msg = messageOf([&] {
      peridynamics::sheet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, 3 * kDx, 3 * kDx, o, material());
    });
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("short-horizon") != std::string::npos &&
                                    msg.find("horizon = 0.02") != std::string::npos);
    // The same horizon is fine for a pure membrane.
    auto membrane =
        peridynamics::sheet({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, 3 * kDx, 3 * kDx, o, material(0.0));
    CPPUNIT_ASSERT(membrane->size() == 36);
  }

  // The right half of a sheet pulled away by 0.3 Δx (every bond across x = 0 beyond the
  // critical stretch 0.02, none elsewhere stretched): breakBonds breaks exactly the bonds
  // across the line, the triplets over it stop acting and the two halves store no energy.
  void pulledSheetTearsAlongALine() {
    auto m = material(1.0, 0.02);
    auto body = flatSheet(12, 8, "tear", m);
    const std::size_t n = body->size();
    std::size_t across = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (auto b = body->bondStart[i]; b < body->bondStart[i + 1]; ++b)
        across += (body->X[3 * i] < 0) != (body->X[3 * body->neighbour[b]] < 0);
    const std::size_t tripletsBefore = m->triplets(*body);
    for (std::size_t i = 0; i < n; ++i)
      if (body->X[3 * i] > 0) body->x[3 * i] += 0.3 * kDx;
    const double before = m->energy(*body, body->x.data());
    CPPUNIT_ASSERT(before > 0.0);
    const std::size_t broken = body->breakBonds();
    const double after = m->energy(*body, body->x.data());
    std::printf(
        "\n  tear: %zu directed bonds broken (%zu across the line), triplets %zu -> "
        "%zu, W %.3e -> %.3e J\n",
        broken, across, tripletsBefore, m->triplets(*body), before, after);
    CPPUNIT_ASSERT_EQUAL(across, broken);
    CPPUNIT_ASSERT_EQUAL(across, body->brokenBonds());
    CPPUNIT_ASSERT(m->triplets(*body) < tripletsBefore);
    CPPUNIT_ASSERT(after <= 1e-20 * before);
    for (std::size_t i = 0; i < n; ++i) {
      const double d = std::abs(body->X[3 * i]);
      if (d > 3 * kDx) CPPUNIT_ASSERT_EQUAL(0.0, body->damage[i]);
      if (d < kDx) CPPUNIT_ASSERT(body->damage[i] > 0.0);
    }
    // The halves move freely: no force across the tear.
    std::vector<double> f(3 * n);
    m->forces(*body, body->x.data(), f.data());
    for (double v : f) CPPUNIT_ASSERT(std::abs(v) < 1e-12);
  }

  // A 12 × 12 cloth held by two corners falls under gravity for 40 implicit steps (θ = 1),
  // with bending (D) and without (a pure membrane, bendingScale = 0), by "substitution" and
  // "newton": every step converges with Φ monotone, and the total energy (kinetic + elastic +
  // gravity) never exceeds its start: no mode gains energy.
  void hangingClothIsStable() {
    for (const char* method : {"substitution", "newton"})
      for (double scale : {1.0, 0.0}) {
        auto m = material(scale);
        auto body = flatSheet(12, 12, scale > 0 ? "cloth" : "membrane", m);
        const double corner = 5.5 * kDx;
        body->prescribe([&](const double* X) {
          return X[1] > corner - 0.1 * kDx && std::abs(X[0]) > corner - 0.1 * kDx;
        });
        auto stepper = makePeridynamicStepper(method);
        PeridynamicStepOptions so;
        so.h = 2e-3;
        so.theta = 1.0;
        so.gravity = {0.0, 0.0, -9.81};
        so.threads = 1;  // a small body: one thread is fastest (results do not depend on it)
        // The line searches meet the round-off of Φ near 1e-6 (substitution) and 1e-8 (Newton)
        // on this stiff membrane (E t = 2e4 N/m, 1e-4 kg points).
        so.tolerance = method[0] == 'n' ? 1e-7 : 1e-5;
        so.maxIterations = 2000;
        const std::size_t n = body->size();
        auto total = [&]() {
          double e = m->energy(*body, body->x.data());
          for (std::size_t i = 0; i < n; ++i) {
            const double* v = &body->v[3 * i];
            e += body->mass[i] *
                 (0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 9.81 * body->x[3 * i + 2]);
          }
          return e;
        };
        const double e0 = total(), scaleE = body->totalMass() * 9.81 * 12 * kDx;
        std::vector<double> x(3 * n), v(3 * n);
        int iterations = 0;
        bool monotone = true, converged = true;
        double worst = -INFINITY;
        for (int k = 0; k < 40; ++k) {
          const PeridynamicStepReport r = stepper->freeStep(*body, so, x.data(), v.data());
          iterations += r.iterations;
          monotone = monotone && r.monotone;
          converged = converged && r.status == NSD_OK;
          body->x = x;
          body->v = v;
          worst = std::max(worst, (total() - e0) / scaleE);
        }
        double low = INFINITY;
        for (std::size_t i = 0; i < n; ++i) low = std::min(low, body->x[3 * i + 2]);
        std::printf(
            "%s  %-8s %-12s: 40 steps, %6.1f iterations a step, lowest point %.4f m, "
            "max (E - E0) / (M g 12 dx) = %.2e\n",
            scale > 0 && method[0] == 's' ? "\n" : "", body->name().c_str(), method,
            iterations / 40.0, low, worst);
        CPPUNIT_ASSERT(monotone);
        CPPUNIT_ASSERT(converged);
        CPPUNIT_ASSERT(std::isfinite(low) && low < -3 * kDx);
        CPPUNIT_ASSERT(worst <= 1e-9);
      }
  }

  // A 16 × 8 strip with an edge notch at x = 0 (precrack over a third of the width), held by
  // two columns at each end, the right grip pulled in increments of 0.1 s0 (Newton statics,
  // then breakBonds, re-solved at the same grip until nothing more breaks): the tear starts at
  // the notch tip (the first bonds break at a mean strain below s0) and runs across the strip
  // until the grip's reaction falls below 2 % of its peak. Every bond broken lies within the
  // horizon of x = 0.
  void notchedStripTearsQuasiStatically() {
    const double s0 = 0.01;
    auto m = material(1.0, s0);
    auto body = flatSheet(16, 8, "torn-strip", m);
    const std::size_t n = body->size();
    const std::size_t notch = body->precrack({0, -4 * kDx, 0}, {0, -1.5 * kDx, 0}, {0, 0, 1});
    CPPUNIT_ASSERT(notch > 0);
    body->prescribe([](const double* X) { return std::abs(X[0]) > 6 * kDx; });
    // The x-force of the sheet on the right grip.
    std::vector<double> f(3 * n);
    auto reaction = [&]() {
      const std::vector<std::uint8_t> fixed = body->prescribed;
      std::fill(body->prescribed.begin(), body->prescribed.end(), 0);
      m->forces(*body, body->x.data(), f.data());
      body->prescribed = fixed;
      double r = 0.0;
      for (std::size_t i = 0; i < n; ++i)
        if (fixed[i] && body->X[3 * i] > 0) r -= f[3 * i];
      return r;
    };
    NewtonCholmod newton;
    PeridynamicStepOptions so;
    so.h = 0.0;
    so.tolerance = 1e-8;
    std::vector<double> x(3 * n), v(3 * n);
    const double L = 12 * kDx;  // between the grips
    double pull = 0.0, firstBreak = 0.0, peak = 0.0, last = 0.0;
    int solves = 0;
    bool converged = true;
    for (int inc = 0; inc < 60 && (peak == 0.0 || last > 0.02 * peak); ++inc) {
      pull += 0.1 * s0 * L;
      for (std::size_t i = 0; i < n; ++i)
        if (body->prescribed[i] && body->X[3 * i] > 0) body->x[3 * i] = body->X[3 * i] + pull;
      for (int again = 0; again < 100; ++again) {
        converged = converged && newton.freeStep(*body, so, x.data(), v.data()).status == NSD_OK;
        ++solves;
        body->x = x;
        last = reaction();
        peak = std::max(peak, last);
        if (body->breakBonds() == 0) break;
        if (firstBreak == 0.0) firstBreak = pull;
      }
    }
    std::size_t broken = 0, outside = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (auto b = body->bondStart[i]; b < body->bondStart[i + 1]; ++b) {
        broken += body->bondBroken[b];
        const double mid = 0.5 * (body->X[3 * i] + body->X[3 * body->neighbour[b]]);
        outside += body->bondBroken[b] && std::abs(mid) > 3 * kDx;
      }
    std::printf(
        "\n  notched strip: first bonds break at a mean strain of %.2f s0, reaction "
        "%.1f%% of its peak %.1f N at %.2f s0 after %d Newton solves; %zu directed "
        "bonds broken (%zu by the notch), %zu with a midpoint beyond delta of x = 0\n",
        firstBreak / L / s0, 100 * last / peak, peak, pull / L / s0, solves, broken, notch,
        outside);
    CPPUNIT_ASSERT(converged);
    CPPUNIT_ASSERT(firstBreak > 0.0 && firstBreak < s0 * L);
    CPPUNIT_ASSERT(last <= 0.02 * peak);
    CPPUNIT_ASSERT(broken > 2 * notch);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), outside);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SheetMaterialTest);
