#include "nsdyn/parallel/DistributedNsgs.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>

#include "nsdyn/nsd_problems.h"

namespace nsdyn {
namespace parallel {

namespace {

constexpr int kDof = 6;

// ---- one contact: u = W r + q, r in K_mu, De Saxcé's u + mu ||u_T|| e_n in K*_mu ⊥ r -------
// W is the 3x3 diagonal block of the contact (row-major, symmetric, W[0] > 0).

void localVelocity(const double* W, const double* q, const double* r, double* u) {
  for (int i = 0; i < 3; ++i) u[i] = q[i] + W[3 * i] * r[0] + W[3 * i + 1] * r[1] + W[3 * i + 2] * r[2];
}

// The natural-map terms of one contact: adds ||e||^2, ||r||^2, ||u||^2 to s[0..3).
void naturalTerms(double mu, const double* r, const double* u, double* s) {
  double y[3] = {r[0] - u[0] - mu * std::sqrt(u[1] * u[1] + u[2] * u[2]), r[1] - u[1],
                 r[2] - u[2]};
  nsd_fc_project_on_cone(3, mu, y);
  for (int k = 0; k < 3; ++k) {
    const double e = r[k] - y[k];
    s[0] += e * e;
    s[1] += r[k] * r[k];
    s[2] += u[k] * u[k];
  }
}

// The Siconos error from the sums of naturalTerms (nsd_fc_error's normalisation).
double naturalValue(const double* s, double qNorm) {
  if (!(std::isfinite(s[0]) && std::isfinite(s[1]) && std::isfinite(s[2]))) return INFINITY;
  const double scale = std::max(qNorm, std::max(std::sqrt(s[1]), std::sqrt(s[2])));
  return scale > DBL_EPSILON ? std::sqrt(s[0]) / scale : std::sqrt(s[0]);
}

double localError(const double* W, const double* q, double mu, const double* r) {
  double u[3], s[3] = {0.0, 0.0, 0.0};
  localVelocity(W, q, r, u);
  naturalTerms(mu, r, u, s);
  return naturalValue(s, std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]));
}

// Solves A x = b (3x3 row-major, overwritten) by Gaussian elimination with partial
// pivoting; false when a pivot is below 1e-14 of the largest entry.
bool solve3(double* A, double* b) {
  double amax = 0.0;
  for (int e = 0; e < 9; ++e) amax = std::max(amax, std::fabs(A[e]));
  if (!(amax > 0.0) || !std::isfinite(amax)) return false;
  for (int k = 0; k < 3; ++k) {
    int p = k;
    for (int i = k + 1; i < 3; ++i)
      if (std::fabs(A[3 * i + k]) > std::fabs(A[3 * p + k])) p = i;
    if (!(std::fabs(A[3 * p + k]) > 1e-14 * amax)) return false;
    if (p != k) {
      for (int j = 0; j < 3; ++j) std::swap(A[3 * k + j], A[3 * p + j]);
      std::swap(b[k], b[p]);
    }
    for (int i = k + 1; i < 3; ++i) {
      const double f = A[3 * i + k] / A[3 * k + k];
      for (int j = k; j < 3; ++j) A[3 * i + j] -= f * A[3 * k + j];
      b[i] -= f * b[k];
    }
  }
  for (int k = 2; k >= 0; --k) {
    double s = b[k];
    for (int j = k + 1; j < 3; ++j) s -= A[3 * k + j] * b[j];
    b[k] = s / A[3 * k + k];
  }
  return true;
}

// Closed forms: frictionless, take-off, stick (r = -W^-1 q inside the cone). True and r set
// when one applies.
bool closedForm(const double* W, const double* q, double mu, double* r) {
  if (mu == 0.0) {
    r[0] = std::max(0.0, -q[0] / W[0]);
    r[1] = r[2] = 0.0;
    return true;
  }
  if (q[0] >= 0.0) {
    r[0] = r[1] = r[2] = 0.0;
    return true;
  }
  double A[9], x[3] = {-q[0], -q[1], -q[2]};
  std::memcpy(A, W, sizeof A);
  if (!solve3(A, x)) return false;
  if (x[0] > 0.0 && std::sqrt(x[1] * x[1] + x[2] * x[2]) <= mu * x[0]) {
    std::memcpy(r, x, sizeof x);
    return true;
  }
  return false;
}

// Largest eigenvalue of the symmetric 3x3 W (trigonometric solution of the cubic).
double lambdaMax(const double* W) {
  const double a00 = W[0], a11 = W[4], a22 = W[8], a01 = W[1], a02 = W[2], a12 = W[5];
  const double off = a01 * a01 + a02 * a02 + a12 * a12;
  if (off == 0.0) return std::max(a00, std::max(a11, a22));
  const double m = (a00 + a11 + a22) / 3.0;
  const double d0 = a00 - m, d1 = a11 - m, d2 = a22 - m;
  const double p = std::sqrt((d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * off) / 6.0);
  const double b00 = d0 / p, b11 = d1 / p, b22 = d2 / p, b01 = a01 / p, b02 = a02 / p,
               b12 = a12 / p;
  const double det = b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) +
                     b02 * (b01 * b12 - b11 * b02);
  const double phi = std::acos(std::max(-1.0, std::min(1.0, 0.5 * det))) / 3.0;
  return m + 2.0 * p * std::cos(phi);
}

// Projection fixed point r <- Pi_K(r - rho (u + mu ||u_T|| e_n)), rho = 1 / lambda_max(W):
// keeps the best iterate in r, returns its error.
double projectionSteps(const double* W, const double* q, double mu, double* r, double tolerance,
                       int maxIterations, double error) {
  const double rho = 1.0 / lambdaMax(W);
  double x[3] = {r[0], r[1], r[2]}, u[3];
  for (int it = 0; it < maxIterations && error > tolerance; ++it) {
    localVelocity(W, q, x, u);
    x[0] -= rho * (u[0] + mu * std::sqrt(u[1] * u[1] + u[2] * u[2]));
    x[1] -= rho * u[1];
    x[2] -= rho * u[2];
    nsd_fc_project_on_cone(3, mu, x);
    const double e = localError(W, q, mu, x);
    if (e < error) {
      error = e;
      std::memcpy(r, x, sizeof x);
    }
  }
  return error;
}

// The Alart-Curnier function of one contact and (J non-null) an element of its generalised
// Jacobian in r (row-major):
//   Phi_n = r_n - max(0, a),            a = r_n - rho_n u_n,
//   Phi_T = r_T - P_{D(mu max(0, a))}(y), y = r_T - rho_t u_T.
struct AlartCurnier {
  const double* W;
  const double* q;
  double mu, rhoN, rhoT;

  void operator()(const double* r, double* phi, double* J) const {
    double u[3];
    localVelocity(W, q, r, u);
    const double a = r[0] - rhoN * u[0];
    if (a > 0.0) {
      phi[0] = r[0] - a;
      if (J)
        for (int j = 0; j < 3; ++j) J[j] = rhoN * W[j];
    } else {
      phi[0] = r[0];
      if (J) J[0] = 1.0, J[1] = 0.0, J[2] = 0.0;
    }
    const double R = mu * std::max(0.0, a);
    const double y[2] = {r[1] - rhoT * u[1], r[2] - rhoT * u[2]};
    const double ny = std::sqrt(y[0] * y[0] + y[1] * y[1]);
    if (ny <= R) {
      // inside the disc: Phi_T = rho_t u_T
      phi[1] = r[1] - y[0];
      phi[2] = r[2] - y[1];
      if (J)
        for (int i = 1; i < 3; ++i)
          for (int j = 0; j < 3; ++j) J[3 * i + j] = rhoT * W[3 * i + j];
      return;
    }
    const double yh[2] = {y[0] / ny, y[1] / ny};
    phi[1] = r[1] - R * yh[0];
    phi[2] = r[2] - R * yh[1];
    if (!J) return;
    // dy/dr (2x3), dR/dr (3)
    double dy[2][3], dR[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) dy[i][j] = (j == i + 1 ? 1.0 : 0.0) - rhoT * W[3 * (i + 1) + j];
    if (a > 0.0)
      for (int j = 0; j < 3; ++j) dR[j] = mu * ((j == 0 ? 1.0 : 0.0) - rhoN * W[j]);
    const double g = R / ny;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        double dP = yh[i] * dR[j];
        for (int k = 0; k < 2; ++k) dP += g * ((i == k ? 1.0 : 0.0) - yh[i] * yh[k]) * dy[k][j];
        J[3 * (i + 1) + j] = (j == i + 1 ? 1.0 : 0.0) - dP;
      }
  }
};

// Newton steps on the Alart-Curnier function with Armijo backtracking on 1/2 ||Phi||^2; the
// best iterate (by local error) in r, its error returned.
double newtonSteps(const AlartCurnier& ac, double* r, double tolerance, int maxIterations,
                   double error) {
  double x[3] = {r[0], r[1], r[2]}, phi[3], J[9];
  for (int it = 0; it < maxIterations && error > tolerance; ++it) {
    ac(x, phi, J);
    const double psi = 0.5 * (phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]);
    if (!(psi > 0.0)) break;
    double d[3] = {-phi[0], -phi[1], -phi[2]};
    if (!solve3(J, d)) break;
    double t = 1.0, trial[3], pt[3];
    bool accepted = false;
    for (int h = 0; h <= 30; ++h, t *= 0.5) {
      for (int k = 0; k < 3; ++k) trial[k] = x[k] + t * d[k];
      ac(trial, pt, nullptr);
      if (0.5 * (pt[0] * pt[0] + pt[1] * pt[1] + pt[2] * pt[2]) <= (1.0 - 2e-4 * t) * psi) {
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
    std::memcpy(x, trial, sizeof x);
    const double e = localError(ac.W, ac.q, ac.mu, x);
    if (e < error) {
      error = e;
      std::memcpy(r, x, sizeof x);
    }
  }
  return error;
}

// A contact no closed form solves (sliding): from r when it is a positive reaction, else from
// the normal reaction alone with friction opposing q_T; Newton, then projection steps.
void slidingSolve(const double* W, const double* q, double mu, double* r, double tolerance,
                  int maxIterations) {
  if (!(r[0] > 0.0) || !std::isfinite(r[0] + r[1] + r[2])) {
    const double qt = std::sqrt(q[1] * q[1] + q[2] * q[2]);
    r[0] = -q[0] / W[0];
    r[1] = qt > 0.0 ? -mu * r[0] * q[1] / qt : 0.0;
    r[2] = qt > 0.0 ? -mu * r[0] * q[2] / qt : 0.0;
  }
  nsd_fc_project_on_cone(3, mu, r);
  double error = localError(W, q, mu, r);
  if (error <= tolerance) return;
  AlartCurnier ac{W, q, mu, 1.0 / W[0], 1.0 / W[0]};
  const double wt = 0.5 * (W[4] + W[8]);
  if (wt > 0.0) ac.rhoT = 1.0 / wt;
  error = newtonSteps(ac, r, tolerance, maxIterations, error);
  if (error <= tolerance) return;
  projectionSteps(W, q, mu, r, tolerance, maxIterations, error);
}

// A pointer valid for the problem's callbacks even for an empty vector.
const double* dataOf(const std::vector<double>& v) {
  static const double dummy[3] = {0.0, 0.0, 0.0};
  return v.empty() ? dummy : v.data();
}

}  // namespace

NsdStatus DistributedNsgs::solve(DistributedContactProblem& problem,
                                 const NsdSolverOptions& options, NsdReport& report) {
  nsd_report_start(&report, "nsgs_distributed");
  const std::size_t n = problem.size(), slots = problem.slots();
  std::vector<double>& r = problem.impulsesMutable();
  std::vector<double>& u = problem.velocitiesMutable();
  const std::vector<double>& q = problem.q();
  const std::vector<double>& mu = problem.mu();
  const std::vector<double>& jac = problem.jacobians();
  const std::vector<std::int32_t>& slotA = problem.slotA();
  const std::vector<std::int32_t>& slotB = problem.slotB();
  const std::vector<double>& im = problem.inverseMass();
  const std::vector<double>& ii = problem.inverseInertia();
  const std::vector<char>& owned = problem.ownedSlots();
  const std::vector<std::int32_t>& ownedIndex = problem.ownedIndex();
  u.assign(3 * n, 0.0);

  // 1. options and warm start, decided collectively (the same status on every rank)
  std::string fault;
  if (!(options.tolerance >= 0.0) || !std::isfinite(options.tolerance))
    fault = "tolerance=" + std::to_string(options.tolerance) + ", expected finite and >= 0";
  else if (options.max_iterations < 0)
    fault = "max_iterations=" + std::to_string(options.max_iterations) + ", expected >= 0";
  else if (!(options.relaxation > 0.0 && options.relaxation < 2.0))
    fault = "relaxation=" + std::to_string(options.relaxation) + ", expected in (0, 2)";
  else if (!(options.time_limit >= 0.0))
    fault = "time_limit=" + std::to_string(options.time_limit) + ", expected >= 0";
  else if (!(options.nsgs.local_tolerance >= 0.0))
    fault = "nsgs.local_tolerance=" + std::to_string(options.nsgs.local_tolerance) +
            ", expected >= 0";
  else if (options.nsgs.local_max_iterations < 1)
    fault = "nsgs.local_max_iterations=" + std::to_string(options.nsgs.local_max_iterations) +
            ", expected >= 1";
  else if (settings_.checkEvery < 1 || settings_.refreshEvery < 1)
    fault = "checkEvery and refreshEvery expected >= 1";
  else if (options.warm_start && !nsd_all_finite(r.data(), r.size()))
    fault = "warm start r is not finite";
  double bad = fault.empty() ? 0.0 : 1.0;
  problem.reduceMax(&bad, 1);
  if (bad != 0.0) {
    nsd_report_fail(&report, NSD_BAD_INPUT, "nsgs_distributed: %s",
                    fault.empty() ? "bad options or warm start on another rank" : fault.c_str());
    report.seconds = nsd_wall_time() - report.start_time;
    return NSD_BAD_INPUT;
  }
  if (!options.warm_start) std::fill(r.begin(), r.end(), 0.0);
  const double tolerance = options.tolerance, omega = options.relaxation;
  const double localTolerance = options.nsgs.local_tolerance;
  const int localIterations = options.nsgs.local_max_iterations;

  // 2. the split t_s of every slot: the ranks whose contacts touch body s (counted on the
  //    owner by a reverse exchange of marks, then sent to the ghost copies)
  auto movable = [&](std::size_t s) { return im[s] != 0.0 || ii[s] != 0.0; };
  std::vector<double> marks(slots * kDof, 0.0);
  std::vector<char> mine(slots, 0);  // touched by a contact of this rank
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t s : {static_cast<std::size_t>(slotA[c]), static_cast<std::size_t>(slotB[c])})
      if (movable(s)) marks[kDof * s] = 1.0, mine[s] = 1;
  problem.reverse(marks.data());
  problem.forward(marks.data(), kDof);
  std::vector<double> touching(slots, 0.0), split(slots, 1.0);
  for (std::size_t s = 0; s < slots; ++s) touching[s] = marks[kDof * s];
  if (settings_.split == DistributedNsgsOptions::Split::ContactRanks) {
    for (std::size_t s = 0; s < slots; ++s) split[s] = std::max(1.0, touching[s]);
  } else if (settings_.split == DistributedNsgsOptions::Split::Copies) {
    const std::vector<int> copies = problem.copiesOfOwned();
    std::vector<double> c(slots, 1.0);
    for (std::size_t s = 0; s < slots; ++s)
      if (owned[s]) c[s] = std::max(1, copies[s]);
    problem.forward(c.data(), 1);
    for (std::size_t s = 0; s < slots; ++s) split[s] = movable(s) ? std::max(1.0, c[s]) : 1.0;
  }
  shared_ = 0;
  double largest = 1.0;
  for (std::size_t s = 0; s < slots; ++s) {
    if (owned[s] && split[s] > 1.0) ++shared_;
    largest = std::max(largest, split[s]);
  }
  problem.reduceMax(&largest, 1);
  maxSplit_ = static_cast<int>(largest);

  // 3. the diagonal blocks W_cc = sum_sides J t M^-1 J^T (row-major), ||q||, the global count
  std::vector<double> W(9 * n, 0.0);
  double global[2] = {0.0, static_cast<double>(n)};
  for (std::size_t c = 0; c < n; ++c) {
    double* Wc = &W[9 * c];
    for (int side = 0; side < 2; ++side) {
      const std::size_t s = static_cast<std::size_t>(side == 0 ? slotA[c] : slotB[c]);
      if (!movable(s)) continue;
      const double* J = &jac[36 * c + 18 * static_cast<std::size_t>(side)];
      const double m[kDof] = {split[s] * im[s], split[s] * im[s], split[s] * im[s],
                              split[s] * ii[s], split[s] * ii[s], split[s] * ii[s]};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double w = 0.0;
          for (int k = 0; k < kDof; ++k) w += J[6 * i + k] * m[k] * J[6 * j + k];
          Wc[3 * i + j] += w;
        }
    }
    for (int i = 0; i < 3; ++i) global[0] += q[3 * c + static_cast<std::size_t>(i)] * q[3 * c + static_cast<std::size_t>(i)];
  }
  problem.reduceSum(global, 2);
  const double qNorm = std::sqrt(global[0]);
  const bool anyContact = global[1] > 0.0;
  std::string singular;
  for (std::size_t c = 0; c < n && singular.empty(); ++c)
    if (!(W[9 * c] > 0.0))
      singular = "contact of bodies " + std::to_string(problem.keys()[c][0]) + " and " +
                 std::to_string(problem.keys()[c][1]) + ": W_nn = " + std::to_string(W[9 * c]) +
                 " <= 0";
  bad = singular.empty() ? 0.0 : 1.0;
  problem.reduceMax(&bad, 1);
  if (bad != 0.0) {
    nsd_report_fail(&report, NSD_BAD_INPUT, "nsgs_distributed: %s",
                    singular.empty() ? "a contact with W_nn <= 0 on another rank"
                                     : singular.c_str());
    report.seconds = nsd_wall_time() - report.start_time;
    return NSD_BAD_INPUT;
  }

  // v = M^-1 J^T r on every slot (owned: the halo sum, then ghost copies refreshed)
  std::vector<double> v(slots * kDof, 0.0), scratch(slots * kDof, 0.0);
  // (after sweeps: the largest difference between the kept v and the recomputed one, relative
  // to the largest |v| of an owned body: the drift of the kept velocities)
  std::vector<double> fresh(slots * kDof, 0.0);
  drift_ = 0.0;
  auto refresh = [&](bool measure) {
    problem.applyJt(dataOf(r), scratch.data());
    problem.applyMinv(scratch.data(), fresh.data());
    problem.forward(fresh.data(), kDof);
    if (measure) {
      double d[2] = {0.0, 0.0};
      for (std::size_t s = 0; s < slots; ++s)
        if (owned[s])
          for (std::size_t k = 0; k < kDof; ++k) {
            d[0] = std::max(d[0], std::fabs(v[kDof * s + k] - fresh[kDof * s + k]));
            d[1] = std::max(d[1], std::fabs(fresh[kDof * s + k]));
          }
      problem.reduceMax(d, 2);
      if (d[1] > 0.0) drift_ = std::max(drift_, d[0] / d[1]);
    }
    v.swap(fresh);
  };
  // the global Siconos error of (r, u = J v + q), u stored in the problem
  auto globalError = [&]() {
    double sums[3] = {0.0, 0.0, 0.0};
    for (std::size_t c = 0; c < n; ++c) {
      double uc[3] = {q[3 * c], q[3 * c + 1], q[3 * c + 2]};
      for (int side = 0; side < 2; ++side) {
        const std::size_t s = static_cast<std::size_t>(side == 0 ? slotA[c] : slotB[c]);
        const double* J = &jac[36 * c + 18 * static_cast<std::size_t>(side)];
        const double* vs = &v[kDof * s];
        for (int i = 0; i < 3; ++i) {
          double t = 0.0;
          for (int k = 0; k < kDof; ++k) t += J[6 * i + k] * vs[k];
          uc[i] += t;
        }
      }
      std::copy(uc, uc + 3, u.begin() + static_cast<std::ptrdiff_t>(3 * c));
      naturalTerms(mu[c], &r[3 * c], uc, sums);
    }
    problem.reduceSum(sums, 3);
    return naturalValue(sums, qNorm);
  };

  // 4. sweeps
  refresh(false);
  bool exact = true;
  double error = globalError();
  std::vector<double> w(slots * kDof), acc(slots * kDof);
  for (int sweep = 1; sweep <= options.max_iterations && ((sweep == 1 && anyContact) || !(error <= tolerance));
       ++sweep) {
    // rank-local Gauss-Seidel: w the working velocities (t_s M^-1 on shared bodies), acc the
    // true velocity change M^-1 J^T Δr of this rank's sweep
    w = v;
    std::fill(acc.begin(), acc.end(), 0.0);
    for (std::size_t c = 0; c < n; ++c) {
      const std::size_t sa = static_cast<std::size_t>(slotA[c]), sb = static_cast<std::size_t>(slotB[c]);
      const double* JA = &jac[36 * c];
      const double* JB = JA + 18;
      const double* Wc = &W[9 * c];
      double* rc = &r[3 * c];
      double uc[3];
      for (int i = 0; i < 3; ++i) {
        double t = q[3 * c + static_cast<std::size_t>(i)];
        for (int k = 0; k < kDof; ++k) t += JA[6 * i + k] * w[kDof * sa + static_cast<std::size_t>(k)];
        for (int k = 0; k < kDof; ++k) t += JB[6 * i + k] * w[kDof * sb + static_cast<std::size_t>(k)];
        uc[i] = t;
      }
      const double r0[3] = {rc[0], rc[1], rc[2]};
      double qloc[3], rnew[3];
      for (int i = 0; i < 3; ++i)
        qloc[i] = uc[i] - (Wc[3 * i] * r0[0] + Wc[3 * i + 1] * r0[1] + Wc[3 * i + 2] * r0[2]);
      if (qloc[0] >= 0.0 && mu[c] != 0.0) {
        rnew[0] = rnew[1] = rnew[2] = 0.0;  // take-off
      } else if (!closedForm(Wc, qloc, mu[c], rnew)) {
        std::memcpy(rnew, r0, sizeof rnew);
        slidingSolve(Wc, qloc, mu[c], rnew, localTolerance, localIterations);
      }
      if (omega != 1.0) {
        for (int k = 0; k < 3; ++k) rnew[k] = omega * rnew[k] + (1.0 - omega) * r0[k];
        if (omega > 1.0) nsd_fc_project_on_cone(3, mu[c], rnew);
      }
      const double dr[3] = {rnew[0] - r0[0], rnew[1] - r0[1], rnew[2] - r0[2]};
      if (dr[0] == 0.0 && dr[1] == 0.0 && dr[2] == 0.0) continue;
      std::memcpy(rc, rnew, sizeof rnew);
      for (int side = 0; side < 2; ++side) {
        const std::size_t s = side == 0 ? sa : sb;
        if (!movable(s)) continue;
        const double* J = side == 0 ? JA : JB;
        for (int k = 0; k < kDof; ++k) {
          const double d = (k < 3 ? im[s] : ii[s]) *
                           (J[k] * dr[0] + J[6 + k] * dr[1] + J[12 + k] * dr[2]);
          acc[kDof * s + static_cast<std::size_t>(k)] += d;
          w[kDof * s + static_cast<std::size_t>(k)] += split[s] * d;
        }
      }
    }
    // the sweep's velocity changes summed on the owners (rank order), ghosts refreshed;
    // an owned body that only this rank's contacts touch, unsplit, keeps its Gauss-Seidel
    // velocity w (the same bits as a one-process NSGS)
    problem.reverse(acc.data());
    for (std::size_t s = 0; s < slots; ++s) {
      if (!owned[s]) continue;
      const std::size_t o = kDof * s;
      if (mine[s] && touching[s] == 1.0 && split[s] == 1.0)
        std::copy(w.begin() + static_cast<std::ptrdiff_t>(o),
                  w.begin() + static_cast<std::ptrdiff_t>(o + kDof),
                  v.begin() + static_cast<std::ptrdiff_t>(o));
      else
        for (std::size_t k = 0; k < kDof; ++k) v[o + k] += acc[o + k];
    }
    problem.forward(v.data(), kDof);
    exact = false;
    report.iterations = sweep;

    const bool refreshed = sweep % settings_.refreshEvery == 0;
    if (refreshed) {
      refresh(true);
      exact = true;
    }
    if (sweep % settings_.checkEvery != 0 && sweep != options.max_iterations) continue;
    error = globalError();
    if (error <= tolerance && !refreshed) {
      refresh(true);
      exact = true;
      error = globalError();
    }
    nsd_report_record(&report, error);
    if (!std::isfinite(error)) {
      nsd_report_fail(&report, NSD_FAILED, "nsgs_distributed: diverged at sweep %d (error %g)",
                               sweep, error);
      break;
    }
    if (error <= tolerance) break;
    if (options.time_limit > 0.0) {
      double up = nsd_wall_time() - report.start_time > options.time_limit ? 1.0 : 0.0;
      problem.reduceMax(&up, 1);
      if (up != 0.0) {
        nsd_report_fail(&report, NSD_MAX_ITERATIONS,
                                 "nsgs_distributed: time limit %g s reached after %d sweeps (error %.3e)",
                                 options.time_limit, sweep, error);
        break;
      }
    }
  }
  if (!exact) {
    refresh(true);
    error = globalError();
  } else if (report.iterations == 0) {
    error = globalError();
  }
  report.residual = error;

  // 5. the velocity change of the owned bodies: v on their slots (= M^-1 J^T r, refreshed
  //    from r at the last stop)
  std::size_t nOwned = 0;
  for (std::size_t s = 0; s < slots; ++s) nOwned += owned[s] ? 1 : 0;
  dv_.assign(kDof * nOwned, 0.0);
  for (std::size_t s = 0; s < slots; ++s)
    if (owned[s])
      std::copy(v.begin() + static_cast<std::ptrdiff_t>(kDof * s),
                v.begin() + static_cast<std::ptrdiff_t>(kDof * s + kDof),
                dv_.begin() + static_cast<std::ptrdiff_t>(kDof * static_cast<std::size_t>(ownedIndex[s])));
  // converged: NSD_OK; else the failure set above, or NSD_MAX_ITERATIONS
  return nsd_report_finish(&report, tolerance);
}

NsdStatus solveNsgs(DistributedContactProblem& problem, const NsdSolverOptions& options,
                    NsdReport& report, std::vector<double>* velocityChange,
                    const DistributedNsgsOptions& settings) {
  DistributedNsgs solver(settings);
  const NsdStatus status = solver.solve(problem, options, report);
  if (velocityChange) *velocityChange = solver.velocityChange();
  return status;
}

}  // namespace parallel
}  // namespace nsdyn
