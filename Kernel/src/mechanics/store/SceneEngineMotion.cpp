// SceneEngine, phases 3, 5 and 6: the free velocity of every body (gravity, applied loads,
// gyroscopic term), the Moreau-Jean update of velocities and poses on the Lie group, and
// the end of the step (u_{k+1}, work of the impulses, energies, contact memory).
#include <cmath>
#include <vector>

#include "../Threads.hpp"
#include "SceneEngineArrays.hpp"
#include "nsdyn/ContactRules.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/SceneEngine.hpp"

namespace nsdyn {

namespace {

/// R (row-major) of the unit quaternion (w, x, y, z) at @p r.
inline void rotation(const double* r, double* R) {
  const double w = r[0], x = r[1], y = r[2], z = r[3];
  R[0] = 1.0 - 2.0 * (y * y + z * z);
  R[1] = 2.0 * (x * y - w * z);
  R[2] = 2.0 * (x * z + w * y);
  R[3] = 2.0 * (x * y + w * z);
  R[4] = 1.0 - 2.0 * (x * x + z * z);
  R[5] = 2.0 * (y * z - w * x);
  R[6] = 2.0 * (x * z - w * y);
  R[7] = 2.0 * (y * z + w * x);
  R[8] = 1.0 - 2.0 * (x * x + y * y);
}

inline void times(const double* M, const double* x, double* y) {
  for (int i = 0; i < 3; ++i) y[i] = M[3 * i] * x[0] + M[3 * i + 1] * x[1] + M[3 * i + 2] * x[2];
}
inline void timesTranspose(const double* M, const double* x, double* y) {
  for (int i = 0; i < 3; ++i) y[i] = M[i] * x[0] + M[3 + i] * x[1] + M[6 + i] * x[2];
}

/// Solve the 3x3 system A x = b (row-major A) by Cramer's rule; false when singular.
bool solve3(const double* A, const double* b, double* x) {
  const double c0 = A[4] * A[8] - A[5] * A[7], c1 = A[5] * A[6] - A[3] * A[8],
               c2 = A[3] * A[7] - A[4] * A[6];
  const double det = A[0] * c0 + A[1] * c1 + A[2] * c2;
  if (!(std::fabs(det) > 0.0) || !std::isfinite(det)) return false;
  const double i = 1.0 / det;
  x[0] = (b[0] * c0 + A[1] * (A[5] * b[2] - b[1] * A[8]) + A[2] * (b[1] * A[7] - A[4] * b[2])) * i;
  x[1] = (A[0] * (b[1] * A[8] - A[5] * b[2]) + b[0] * c1 + A[2] * (A[3] * b[2] - b[1] * A[6])) * i;
  x[2] = (A[0] * (A[4] * b[2] - b[1] * A[7]) + A[1] * (b[1] * A[6] - A[3] * b[2]) + b[0] * c2) * i;
  return true;
}

}  // namespace

using store::growTo;

void SceneEngine::freeVelocity() {
  const std::size_t n = bodies_.size();
  vel_.resize(6 * n);
  omegaStart_.resize(3 * n);
  invInertiaWorld_.resize(9 * n);
  const double h = options_.h, theta = options_.theta;
  const auto& g = options_.gravity;
  // applied load callables, evaluated at t_k + theta h with (q_k, v_k), in body order
  const bool functions = !bodies_.forceFunctions().empty();
  if (functions) {
    wrench_.assign(6 * n, 0.0);
    const double t = time_ + theta * h;
    for (const auto& [b, fn] : bodies_.forceFunctions())
      fn(t, &bodies_.q[7 * b], &bodies_.v[6 * b], &wrench_[6 * b]);
  }
  const bool gyroscopic = options_.gyroscopic;
  const int threads = mechanics::threadsFor(options_.contacts.detection.threads, n);
  (void)threads;
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (std::size_t b = 0; b < n; ++b) {
    double* vw = &vel_[6 * b];
    double* w0 = &omegaStart_[3 * b];
    double* iw = &invInertiaWorld_[9 * b];
    if (bodies_.isStatic[b]) {
      for (int i = 0; i < 6; ++i) vw[i] = 0.0;
      for (int i = 0; i < 3; ++i) w0[i] = 0.0;
      for (int i = 0; i < 9; ++i) iw[i] = 0.0;
      continue;
    }
    const double* v = &bodies_.v[6 * b];
    const double* w = functions ? &wrench_[6 * b] : nullptr;
    const double m = bodies_.mass[b];
    for (int i = 0; i < 3; ++i) {
      const double F =
          m * g[static_cast<std::size_t>(i)] + bodies_.force[3 * b + i] + (w ? w[i] : 0.0);
      vw[i] = v[i] + h * F / m;
    }
    // angular: I (Omega_free - Omega) = h (tau - Omega x I Omega), the gyroscopic term
    // linearised at Omega with weight theta: (I + theta h (skew(Omega) I - skew(I Omega))) dOmega =
    // h (...)
    const double* I = &bodies_.inertia[9 * b];
    const double* Om = v + 3;
    double tau[3];
    for (int i = 0; i < 3; ++i) tau[i] = bodies_.torque[3 * b + i] + (w ? w[3 + i] : 0.0);
    double dOm[3];
    bool solved = false;
    const double* Jb = &bodies_.invInertia[9 * b];
    const bool locked = Jb[0] == 0.0 && Jb[4] == 0.0 && Jb[8] == 0.0;  // lockRotation
    if (gyroscopic && !locked) {
      double L[3];
      times(I, Om, L);
      const double rhs[3] = {h * (tau[0] - (Om[1] * L[2] - Om[2] * L[1])),
                             h * (tau[1] - (Om[2] * L[0] - Om[0] * L[2])),
                             h * (tau[2] - (Om[0] * L[1] - Om[1] * L[0]))};
      const double S[9] = {0.0, -Om[2], Om[1], Om[2], 0.0, -Om[0], -Om[1], Om[0], 0.0};
      const double SL[9] = {0.0, -L[2], L[1], L[2], 0.0, -L[0], -L[1], L[0], 0.0};
      double W[9];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const double SI = S[3 * i] * I[j] + S[3 * i + 1] * I[3 + j] + S[3 * i + 2] * I[6 + j];
          W[3 * i + j] = I[3 * i + j] + theta * h * (SI - SL[3 * i + j]);
        }
      solved = solve3(W, rhs, dOm);
    }
    if (!solved) {
      const double rhs[3] = {h * tau[0], h * tau[1], h * tau[2]};
      times(&bodies_.invInertia[9 * b], rhs, dOm);
    }
    double R[9];
    rotation(&bodies_.q[7 * b + 3], R);
    const double OmFree[3] = {Om[0] + dOm[0], Om[1] + dOm[1], Om[2] + dOm[2]};
    times(R, OmFree, vw + 3);
    times(R, Om, w0);
    // world inverse inertia R I^-1 R^T
    const double* Ji = &bodies_.invInertia[9 * b];
    double RJ[9];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        RJ[3 * i + j] = R[3 * i] * Ji[j] + R[3 * i + 1] * Ji[3 + j] + R[3 * i + 2] * Ji[6 + j];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        iw[3 * i + j] =
            RJ[3 * i] * R[3 * j] + RJ[3 * i + 1] * R[3 * j + 1] + RJ[3 * i + 2] * R[3 * j + 2];
  }
}

void SceneEngine::update() {
  const std::size_t n = bodies_.size();
  const double h = options_.h, theta = options_.theta;
  const int threads = mechanics::threadsFor(options_.contacts.detection.threads, n);
  (void)threads;
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (std::size_t b = 0; b < n; ++b) {
    if (bodies_.isStatic[b] || bodies_.ghost[b]) continue;  // a ghost is refreshed by its owner
    double* q = &bodies_.q[7 * b];
    double* v = &bodies_.v[6 * b];
    const double vk[6] = {v[0], v[1], v[2], v[3], v[4], v[5]};  // v_k, overwritten below
    const double* vw = &vel_[6 * b];
    double R[9];
    rotation(q + 3, R);
    double Om[3];
    timesTranspose(R, vw + 3, Om);  // back to the body frame of t_k (the Jacobians' frame)
    for (int i = 0; i < 3; ++i) {
      v[i] = vw[i];
      v[3 + i] = Om[i];
      q[i] += h * (theta * v[i] + (1.0 - theta) * vk[i]);
    }
    const quaternion::Vec3 dtheta{h * (theta * Om[0] + (1.0 - theta) * vk[3]),
                                  h * (theta * Om[1] + (1.0 - theta) * vk[4]),
                                  h * (theta * Om[2] + (1.0 - theta) * vk[5])};
    const quaternion::Quat r =
        quaternion::multiply({q[3], q[4], q[5], q[6]}, quaternion::exponential(dtheta));
    for (int i = 0; i < 4; ++i) q[3 + i] = r[static_cast<std::size_t>(i)];
  }
}

void SceneEngine::finishStep() {
  SceneContacts& cs = contacts_;
  const std::size_t n = cs.size();
  const int threads = mechanics::threadsFor(options_.contacts.detection.threads, n);
  (void)threads;
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (std::size_t c = 0; c < n; ++c) {
    const double* f = &cs.frame[9 * c];
    double u[3] = {0.0, 0.0, 0.0};
    for (int side = 0; side < 2; ++side) {
      const std::size_t b = static_cast<std::size_t>(side == 0 ? cs.bodyA[c] : cs.bodyB[c]);
      if (bodies_.isStatic[b]) continue;
      const double* arm = side == 0 ? &cs.armA[3 * c] : &cs.armB[3 * c];
      const double* vb = &vel_[6 * b];
      const double pv[3] = {vb[0] + vb[4] * arm[2] - vb[5] * arm[1],
                            vb[1] + vb[5] * arm[0] - vb[3] * arm[2],
                            vb[2] + vb[3] * arm[1] - vb[4] * arm[0]};
      const double sign = side == 0 ? 1.0 : -1.0;
      for (int i = 0; i < 3; ++i)
        u[i] += sign * (f[3 * i] * pv[0] + f[3 * i + 1] * pv[1] + f[3 * i + 2] * pv[2]);
    }
    for (int k = 0; k < 3; ++k) cs.velocity[3 * c + k] = u[k];
  }
  // the work in key order, one thread: the same bits for any thread count
  double work = 0.0;
  for (std::size_t c = 0; c < n; ++c) {
    double w = 0.0;
    for (std::size_t k = 0; k < 3; ++k)
      w += cs.impulse[3 * c + k] * 0.5 * (cs.velocity[3 * c + k] + cs.velocityStart[3 * c + k]);
    work += w;
  }
  // memory for the next step's warm start (sorted by key)
  growTo(memory_.key, n);
  growTo(memory_.normal, n);
  growTo(memory_.tangential, 3 * n);
  memory_.key.assign(cs.key.begin(), cs.key.end());
  memory_.normal.resize(n);
  memory_.tangential.resize(3 * n);
  for (std::size_t c = 0; c < n; ++c) {
    memory_.normal[c] = cs.impulse[3 * c];
    contact::tangentialWorld(&cs.frame[9 * c], &cs.impulse[3 * c], &memory_.tangential[3 * c]);
  }
  exchange_->afterStep(bodies_, memory_);
  report_.contactWork = reduced(work);
  report_.kineticEnergy = kineticEnergy();
  report_.potentialEnergy = potentialEnergy();
}

}  // namespace nsdyn
