// Quaternions of rigid bodies (Kernel/src/mechanics/Quaternion.cpp): R(q),
// its derivative, sin(x)/x and the body-frame exponential (MECHANICS.md §0).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>

#include <nsdyn/Error.hpp>
#include <nsdyn/Quaternion.hpp>

using namespace nsdyn;
using namespace nsdyn::quaternion;

namespace {

// Rodrigues' formula for a unit axis n: R = cos a I + sin a [n]x + (1 − cos a) n nᵀ.
SimpleMatrix axisAngleMatrix(const Vec3& axis, double angle) {
  const double len = std::sqrt(dot(axis, axis));
  const Vec3 n{axis[0] / len, axis[1] / len, axis[2] / len};
  const double c = std::cos(angle), s = std::sin(angle);
  SimpleMatrix R(3, 3);
  const SimpleMatrix K = skew(n);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      R(i, j) = (i == j ? c : 0.0) + s * K(i, j) + (1.0 - c) * n[i] * n[j];
  return R;
}

double maxDiff(const SimpleMatrix& a, const SimpleMatrix& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < a.cols(); ++j) d = std::max(d, std::abs(a(i, j) - b(i, j)));
  return d;
}

}  // namespace

class QuaternionTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(QuaternionTest);
  CPPUNIT_TEST(hamiltonProduct);
  CPPUNIT_TEST(rotationMatrixIsAxisAngleRotation);
  CPPUNIT_TEST(rotationMatrixOfStoredQuaternion);
  CPPUNIT_TEST(rotateMatchesRotationMatrix);
  CPPUNIT_TEST(rotationDerivativeAgainstFiniteDifferences);
  CPPUNIT_TEST(sincValues);
  CPPUNIT_TEST(exponentialOfRotationVector);
  CPPUNIT_TEST(vectorHelpers);
  CPPUNIT_TEST(badInputsThrow);
  CPPUNIT_TEST_SUITE_END();

 public:
  void hamiltonProduct() {
    // i ⊗ j = k, j ⊗ i = −k
    const Quat i{0, 1, 0, 0}, j{0, 0, 1, 0};
    const Quat k = multiply(i, j), mk = multiply(j, i);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, k[3], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, mk[3], 0.0);
    // a ⊗ b on general values (worked by hand): (1,2,3,4) ⊗ (5,6,7,8) = (−60, 12, 30, 24)
    const Quat p = multiply(Quat{1, 2, 3, 4}, Quat{5, 6, 7, 8});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-60.0, p[0], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(12.0, p[1], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(30.0, p[2], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(24.0, p[3], 0.0);
    // q ⊗ q* = |q|² (1, 0, 0, 0)
    const Quat q{0.3, -0.5, 0.7, 0.2};
    const Quat qq = multiply(q, conjugate(q));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.87, qq[0], 1e-15);
    for (int c = 1; c < 4; ++c) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, qq[c], 1e-16);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(0.87), norm(q), 1e-15);
    const Quat u = normalized(q);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, norm(u), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3 / std::sqrt(0.87), u[0], 1e-15);
  }

  void rotationMatrixIsAxisAngleRotation() {
    const Vec3 axes[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, -2, 0.5}, {-0.3, 0.4, 2.0}};
    const double angles[] = {0.0, 0.3, -1.2, 2.5, 3.1, M_PI};
    for (const Vec3& axis : axes)
      for (double angle : angles) {
        const Quat q = fromAxisAngle(axis, angle);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, norm(q), 1e-15);
        const SimpleMatrix R = rotationMatrix(q);
        CPPUNIT_ASSERT(maxDiff(R, axisAngleMatrix(axis, angle)) < 1e-15 * 4);
        // orthonormal with det +1
        CPPUNIT_ASSERT(maxDiff(R.transpose() * R, SimpleMatrix::identity(3)) < 1e-15 * 4);
        const double det = R(0, 0) * (R(1, 1) * R(2, 2) - R(1, 2) * R(2, 1)) -
                           R(0, 1) * (R(1, 0) * R(2, 2) - R(1, 2) * R(2, 0)) +
                           R(0, 2) * (R(1, 0) * R(2, 1) - R(1, 1) * R(2, 0));
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, det, 1e-14);
      }
    // 90° about z: e_x → e_y (rotation body → world)
    const SimpleMatrix Rz = rotationMatrix(fromAxisAngle({0, 0, 1}, M_PI / 2));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, Rz(0, 0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, Rz(1, 0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, Rz(0, 1), 1e-15);
  }

  void rotationMatrixOfStoredQuaternion() {
    // Not renormalised: R(λ q) = λ² R(q); entries of §0.1 by hand for (1, 2, 3, 4).
    const SimpleMatrix R = rotationMatrix(Quat{1, 2, 3, 4});
    const SimpleMatrix expected{{1 + 4 - 9 - 16, 2 * (6 - 4), 2 * (8 + 3)},
                                {2 * (6 + 4), 1 - 4 + 9 - 16, 2 * (12 - 2)},
                                {2 * (8 - 3), 2 * (12 + 2), 1 - 4 - 9 + 16}};
    CPPUNIT_ASSERT_EQUAL(0.0, maxDiff(R, expected));
    const Quat q{0.3, -0.5, 0.7, 0.2};
    const SimpleMatrix R1 = rotationMatrix(q);
    const SimpleMatrix R2 = rotationMatrix(Quat{2 * q[0], 2 * q[1], 2 * q[2], 2 * q[3]});
    CPPUNIT_ASSERT(maxDiff(R2, 4.0 * R1) < 1e-15);
  }

  void rotateMatchesRotationMatrix() {
    const Quat q = fromAxisAngle({0.2, -1.0, 0.7}, 0.9);
    const Quat nonUnit{1.1, 0.2, -0.4, 0.3};
    const Vec3 a{0.5, -2.0, 1.5};
    for (const Quat& qq : {q, nonUnit}) {
      const SimpleMatrix R = rotationMatrix(qq);
      const Vec3 r = rotate(qq, a), rt = rotateTranspose(qq, a);
      for (std::size_t i = 0; i < 3; ++i) {
        CPPUNIT_ASSERT_DOUBLES_EQUAL(R(i, 0) * a[0] + R(i, 1) * a[1] + R(i, 2) * a[2], r[i], 1e-15);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(R(0, i) * a[0] + R(1, i) * a[1] + R(2, i) * a[2], rt[i],
                                     1e-15);
      }
    }
    // unit q: rotate = q ⊗ (0, a) ⊗ q*, and rotateTranspose undoes rotate
    const Quat qa = multiply(multiply(q, Quat{0, a[0], a[1], a[2]}), conjugate(q));
    const Vec3 r = rotate(q, a);
    const Vec3 back = rotateTranspose(q, r);
    for (std::size_t i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(qa[i + 1], r[i], 1e-15 * 4);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(a[i], back[i], 1e-15 * 4);
    }
  }

  void rotationDerivativeAgainstFiniteDifferences() {
    const Quat qs[] = {Quat{1, 0, 0, 0}, fromAxisAngle({0.2, -1.0, 0.7}, 0.9),
                       Quat{1.1, 0.2, -0.4, 0.3}};
    const Vec3 a{0.5, -2.0, 1.5};
    const double eps = 1e-6;
    for (const Quat& q : qs) {
      const SimpleMatrix D = rotationDerivative(q, a);
      CPPUNIT_ASSERT_EQUAL(std::size_t(3), D.rows());
      CPPUNIT_ASSERT_EQUAL(std::size_t(4), D.cols());
      for (std::size_t j = 0; j < 4; ++j) {
        Quat qp = q, qm = q;
        qp[j] += eps;
        qm[j] -= eps;
        const Vec3 rp = rotate(qp, a), rm = rotate(qm, a);
        // R(q) a is quadratic in q: the central difference is exact up to round-off.
        for (std::size_t i = 0; i < 3; ++i)
          CPPUNIT_ASSERT_DOUBLES_EQUAL((rp[i] - rm[i]) / (2 * eps), D(i, j), 1e-7);
      }
    }
    // one entry by hand: q = (1, 0, 0, 0): ∂(R a)/∂q0 = 2a
    const SimpleMatrix D0 = rotationDerivative(Quat{1, 0, 0, 0}, a);
    for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(2 * a[i], D0(i, 0), 0.0);
  }

  void sincValues() {
    CPPUNIT_ASSERT_EQUAL(1.0, sinc(0.0));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sin(1.0), sinc(1.0), 1e-16);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.8414709848078965, sinc(1.0), 1e-16);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sin(-2.5) / -2.5, sinc(-2.5), 1e-16);
    // small arguments: 1 − x²/6 + x⁴/120 − ..., relative accuracy near machine precision
    for (double x : {1e-12, 1e-8, -3e-5, 9.99e-5, 1e-4, 1.01e-4, 1e-3}) {
      const double x2 = x * x;
      const double series = 1.0 - x2 / 6.0 + x2 * x2 / 120.0 - x2 * x2 * x2 / 5040.0;
      CPPUNIT_ASSERT_DOUBLES_EQUAL(series, sinc(x), 4e-16);
    }
    // even, and not the series of tan(x)/x (1 + x²/3): at x = 1e-3 they differ by 5e-7
    CPPUNIT_ASSERT_EQUAL(sinc(0.3), sinc(-0.3));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5e-7, (1.0 + 1e-6 / 3.0) - sinc(1e-3), 1e-12);
  }

  void exponentialOfRotationVector() {
    // exp(δ) = (cos(a/2), sin(a/2) δ/a), a = |δ|: the rotation by a about δ/a
    const Vec3 delta{0.3, -0.2, 0.6};  // |δ| = 0.7
    const Quat e = exponential(delta);
    const Quat expected = fromAxisAngle(delta, 0.7);
    for (std::size_t i = 0; i < 4; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(expected[i], e[i], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, norm(e), 1e-15);
    // zero and tiny rotation vectors
    const Quat id = exponential({0, 0, 0});
    CPPUNIT_ASSERT_EQUAL(1.0, id[0]);
    CPPUNIT_ASSERT_EQUAL(0.0, id[1] + id[2] + id[3]);
    const Quat small = exponential({1e-9, 0, 0});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5e-10, small[1], 1e-25);
    CPPUNIT_ASSERT_EQUAL(1.0, small[0]);
    // a full turn: exp(2π e_z) = −1
    const Quat turn = exponential({0, 0, 2 * M_PI});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, turn[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, turn[3], 1e-15);
  }

  void vectorHelpers() {
    const SiconosVector q{1, 2, 3, 0.5, 0.5, 0.5, 0.5};
    const Quat p = fromVector(q);
    CPPUNIT_ASSERT_EQUAL(0.5, p[0]);
    CPPUNIT_ASSERT_EQUAL(0.5, p[3]);
    const Quat p0 = fromVector(q, 0);
    CPPUNIT_ASSERT_EQUAL(1.0, p0[0]);
    CPPUNIT_ASSERT_EQUAL(0.5, p0[3]);
    const Vec3 x = vec3(q), y = vec3(q, 4);
    CPPUNIT_ASSERT_EQUAL(3.0, x[2]);
    CPPUNIT_ASSERT_EQUAL(0.5, y[0]);
    const Vec3 c = cross({1, 0, 0}, {0, 1, 0});
    CPPUNIT_ASSERT_EQUAL(1.0, c[2]);
    CPPUNIT_ASSERT_EQUAL(32.0, dot({1, 2, 3}, {4, 5, 6}));
    // skew(a) b = a × b
    const Vec3 a{0.5, -2.0, 1.5}, b{-1.0, 0.25, 3.0};
    const SimpleMatrix S = skew(a);
    const Vec3 axb = cross(a, b);
    for (std::size_t i = 0; i < 3; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(axb[i], S(i, 0) * b[0] + S(i, 1) * b[1] + S(i, 2) * b[2], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-2.0 * 3.0 - 1.5 * 0.25, axb[0], 1e-15);
  }

  void badInputsThrow() {
    CPPUNIT_ASSERT_THROW(normalized(Quat{0, 0, 0, 0}), Error);
    CPPUNIT_ASSERT_THROW(fromAxisAngle({0, 0, 0}, 1.0), Error);
    CPPUNIT_ASSERT_THROW(fromVector(SiconosVector(6)), Error);
    CPPUNIT_ASSERT_THROW(fromVector(SiconosVector(7), 4), Error);
    CPPUNIT_ASSERT_THROW(vec3(SiconosVector(2)), Error);
    CPPUNIT_ASSERT_THROW(vec3(SiconosVector(6), 4), Error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(QuaternionTest);
