// SheetMaterial: the checks of the input and the data made once per bond pattern (the
// micromodulus, the lattice isotropy weights, the bond springs and the bending triplets).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "nsdyn/SheetMaterial.hpp"
#include "peridynamics/materials/MaterialSupport.hpp"
#include "peridynamics/materials/SheetMaterialData.hpp"

namespace nsdyn {

using peridynamics::materialWho;
using peridynamics::num;
namespace sd = peridynamics::sheet;

namespace {

/// The unit reference direction n = (X_j − X_i) / L of bond (i, j); returns L.
inline double unitBond(const double* X, std::size_t i, std::size_t j, double n[3]) {
  for (int r = 0; r < 3; ++r) n[r] = X[3 * j + r] - X[3 * i + r];
  const double L = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int r = 0; r < 3; ++r) n[r] /= L;
  return L;
}

constexpr int kModes = 5;  // 1, cos 2φ, sin 2φ, cos 4φ, sin 4φ

/// Pseudo-inverse solve of the symmetric kModes × kModes system A y = r by cyclic Jacobi
/// (eigenvalues below 1e-10 of the largest dropped). Returns false when r is not in the range
/// of A (no exact solution).
bool pseudoSolve(const double (&A)[kModes][kModes], const double (&r)[kModes],
                 double (&y)[kModes]) {
  double a[kModes][kModes], V[kModes][kModes];
  for (int p = 0; p < kModes; ++p)
    for (int q = 0; q < kModes; ++q) {
      a[p][q] = A[p][q];
      V[p][q] = p == q ? 1.0 : 0.0;
    }
  for (int sweep = 0; sweep < 60; ++sweep) {
    double off = 0.0, diag = 0.0;
    for (int p = 0; p < kModes; ++p) {
      diag += std::abs(a[p][p]);
      for (int q = p + 1; q < kModes; ++q) off += std::abs(a[p][q]);
    }
    if (!(off > 1e-300) || off < 1e-17 * diag) break;
    for (int p = 0; p < kModes - 1; ++p)
      for (int q = p + 1; q < kModes; ++q) {
        const double apq = a[p][q];
        if (apq == 0.0) continue;
        const double theta = (a[q][q] - a[p][p]) / (2.0 * apq);
        const double t =
            (theta >= 0.0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < kModes; ++k) {  // columns p, q of a
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < kModes; ++k) {  // rows p, q of a
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < kModes; ++k) {
          const double vkp = V[k][p], vkq = V[k][q];
          V[k][p] = c * vkp - s * vkq;
          V[k][q] = s * vkp + c * vkq;
        }
      }
  }
  double top = 0.0;
  for (int p = 0; p < kModes; ++p) top = std::max(top, std::abs(a[p][p]));
  for (int k = 0; k < kModes; ++k) y[k] = 0.0;
  if (!(top > 0.0)) return false;
  for (int p = 0; p < kModes; ++p) {
    if (std::abs(a[p][p]) <= 1e-10 * top) continue;
    double proj = 0.0;
    for (int k = 0; k < kModes; ++k) proj += V[k][p] * r[k];
    proj /= a[p][p];
    for (int k = 0; k < kModes; ++k) y[k] += proj * V[k][p];
  }
  double rn = 0.0, res = 0.0;
  for (int k = 0; k < kModes; ++k) {
    double s = 0.0;
    for (int q = 0; q < kModes; ++q) s += A[k][q] * y[q];
    res = std::max(res, std::abs(s - r[k]));
    rn = std::max(rn, std::abs(r[k]));
  }
  return res <= 1e-9 * rn;
}

/// The angular modes of the in-plane unit direction (c, s).
void modes(double c, double s, double* g) {
  const double c2 = c * c - s * s, s2 = 2.0 * c * s;
  g[0] = 1.0;
  g[1] = c2;
  g[2] = s2;
  g[3] = c2 * c2 - s2 * s2;
  g[4] = 2.0 * c2 * s2;
}

/// Isotropy weights of one point: over its directions (c, s) with base weights b, the weights
/// w = Σ_m y_m g_m(φ) with Σ b w = Σ b and Σ b w g_m = 0 (m = cos/sin 2φ, 4φ), when an exact
/// solution with every w ≥ 1/4 exists; otherwise y = (1, 0, 0, 0, 0) (all weights 1).
void isotropyModes(const std::vector<double>& c, const std::vector<double>& s,
                   const std::vector<double>& b, double (&y)[kModes]) {
  double A[kModes][kModes] = {}, r[kModes] = {};
  double total = 0.0;
  for (std::size_t q = 0; q < b.size(); ++q) {
    double g[kModes];
    modes(c[q], s[q], g);
    for (int m = 0; m < kModes; ++m)
      for (int k = 0; k < kModes; ++k) A[m][k] += b[q] * g[m] * g[k];
    total += b[q];
  }
  r[0] = total;
  bool ok = total > 0.0 && pseudoSolve(A, r, y);
  if (ok)
    for (std::size_t q = 0; q < b.size() && ok; ++q) {
      double g[kModes], w = 0.0;
      modes(c[q], s[q], g);
      for (int m = 0; m < kModes; ++m) w += y[m] * g[m];
      ok = w >= 0.25;
    }
  if (!ok) {
    for (int m = 0; m < kModes; ++m) y[m] = 0.0;
    y[0] = 1.0;
  }
}

/// An orthonormal in-plane frame (e1, e2) of point i from its intact bonds (e1 along the
/// first, the normal from the bond most transverse to it). False when the bonds are collinear.
bool pointFrame(const PeridynamicBody& body, std::size_t i, double* e1, double* e2) {
  const double* X = body.X.data();
  bool first = true;
  double best = 0.0, N[3] = {0, 0, 0};
  for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
    if (body.bondBroken[b]) continue;
    double e[3];
    unitBond(X, i, body.neighbour[b], e);
    if (first) {
      std::copy(e, e + 3, e1);
      first = false;
      continue;
    }
    const double n[3] = {e1[1] * e[2] - e1[2] * e[1], e1[2] * e[0] - e1[0] * e[2],
                         e1[0] * e[1] - e1[1] * e[0]};
    const double nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (nn > best) {
      best = nn;
      std::copy(n, n + 3, N);
    }
  }
  if (!(best > 1e-6)) return false;
  const double nl = std::sqrt(best);
  for (double& v : N) v /= nl;
  e2[0] = N[1] * e1[2] - N[2] * e1[1];
  e2[1] = N[2] * e1[0] - N[0] * e1[2];
  e2[2] = N[0] * e1[1] - N[1] * e1[0];
  return true;
}

/// The in-plane unit direction (c, s) of the unit vector e in the frame (e1, e2).
void inPlane(const double* e, const double* e1, const double* e2, double& c, double& s) {
  c = e[0] * e1[0] + e[1] * e1[1] + e[2] * e1[2];
  s = e[0] * e2[0] + e[1] * e2[1] + e[2] * e2[2];
  const double l = std::sqrt(c * c + s * s);
  if (l > 0.0) {
    c /= l;
    s /= l;
  } else {
    c = 1.0;
    s = 0.0;
  }
}

/// Per point: the frame (e1, e2) and the isotropy modes y (weight w(e) = Σ y_m g_m).
struct PointFit {
  double e1[3] = {1, 0, 0}, e2[3] = {0, 1, 0};
  double y[kModes] = {1, 0, 0, 0, 0};
  bool frame = false;
  double weight(const double* e) const {
    if (!frame) return y[0];
    double c, s, g[kModes];
    inPlane(e, e1, e2, c, s);
    modes(c, s, g);
    double w = 0.0;
    for (int m = 0; m < kModes; ++m) w += y[m] * g[m];
    return w;
  }
};

/// Index of the directed bond a→b, or −1.
long findBond(const PeridynamicBody& body, std::size_t a, std::size_t b) {
  for (std::uint32_t k = body.bondStart[a]; k < body.bondStart[a + 1]; ++k)
    if (body.neighbour[k] == b) return static_cast<long>(k);
  return -1;
}

struct Triplet {
  std::uint32_t centre, toI, toK;  // centre j, bonds j→i and j→k
  double stiffness;                // K_p
};

}  // namespace

void SheetMaterial::check(const PeridynamicBody& body) const {
  const std::string who = materialWho(body, kind());
  if (!peridynamics::planeBody(body))
    throw Error(who, "a 2D body (a sheet of options.thickness t > 0)",
                "thickness = " + num(body.options().thickness) +
                    (body.options().thickness == 0.0 ? " (a 3D body)" : ""));
  peridynamics::checkYoung(body, kind(), elasticity_);
  if (std::abs(elasticity_.poissonRatio - 1.0 / 3.0) > 1e-9)
    throw Error(who, "Poisson's ratio nu = 1/3 (bond-based sheet in plane stress)",
                "nu = " + num(elasticity_.poissonRatio));
  const double scale = options_.bendingScale;
  if (!(scale >= 0.0) || !std::isfinite(scale))
    throw Error(who, "bendingScale >= 0 and finite", "bendingScale = " + num(scale));
  const double dx = body.options().spacing, delta = body.options().horizon;
  if (scale > 0.0 && delta < 2.0 * std::sqrt(2.0) * dx * (1.0 - 1e-9))
    throw Error(who,
                "horizon >= 2 sqrt(2) spacing = " + num(2.0 * std::sqrt(2.0) * dx) +
                    " (the bonds i-k of the diagonal bending triplets)",
                "horizon = " + num(delta));
}

void SheetMaterial::prepare(PeridynamicBody& body) const {
  check(body);
  const std::string who = materialWho(body, kind());
  const std::size_t n = body.size(), nb = body.bondCount();
  const double sum = body.bulkSum(1);
  if (!(sum > 0.0))
    throw Error(who, "a bulk neighbourhood (bulkSum(1) > 0)", "bulkSum(1) = " + num(sum));
  const double E = elasticity_.youngModulus, nu = elasticity_.poissonRatio;
  const double t = body.options().thickness, dx = body.options().spacing;
  const double c = 6.0 * E / sum;
  const double D = options_.bendingScale * E * t * t * t / (12.0 * (1.0 - nu * nu));
  const double* X = body.X.data();
  const double* V = body.volume.data();

  // Isotropy weights of the membrane bonds (base weight |ξ| V_j, as in the calibration).
  std::vector<PointFit> fit(n);
  {
    std::vector<double> cs, sn, base;
    for (std::size_t i = 0; i < n; ++i) {
      PointFit& F = fit[i];
      F.frame = pointFrame(body, i, F.e1, F.e2);
      if (!F.frame) continue;
      cs.clear(), sn.clear(), base.clear();
      for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
        if (body.bondBroken[b]) continue;
        const std::size_t j = body.neighbour[b];
        double e[3];
        const double L = unitBond(X, i, j, e);
        double cc, ss;
        inPlane(e, F.e1, F.e2, cc, ss);
        cs.push_back(cc), sn.push_back(ss), base.push_back(L * V[j]);
      }
      isotropyModes(cs, sn, base, F.y);
    }
  }

  std::vector<double>& data = body.materialData();
  data.assign(sd::kHeader + nb + n + 1, 0.0);
  double* spring = data.data() + sd::kHeader;
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
      const std::size_t j = body.neighbour[b];
      double e[3];
      const double L = unitBond(X, i, j, e);
      const double w = 0.5 * (fit[i].weight(e) + fit[j].weight(e));
      spring[b] = c * static_cast<double>(body.bondFactor[b]) * w * V[i] * V[j] / L;
    }

  // Bending triplets i–j–k, X_i = X_j − ξ, X_k = X_j + ξ, |ξ| ≤ 1.5 Δx, bonds j–i, j–k, i–k.
  std::vector<Triplet> triplets;
  double P = 0.0;
  if (D > 0.0) {
    const double reach = 1.5 * dx;
    std::vector<double> cs, sn, base;
    struct Local {
      std::uint32_t toI, toK;
      double L;
    };
    std::vector<Local> local;
    std::vector<double> pairsOf(n, 0.0);
    // Per point: the triplets' weights w_p and unit directions n_p (3 each).
    std::vector<std::vector<double>> wOf(n), dirOf(n);
    std::vector<std::vector<Local>> localOf(n);
    for (std::size_t j = 0; j < n; ++j) {
      local.clear();
      for (std::uint32_t b = body.bondStart[j]; b < body.bondStart[j + 1]; ++b) {
        if (body.bondBroken[b]) continue;
        const std::size_t k = body.neighbour[b];
        double e[3];
        for (int r = 0; r < 3; ++r) e[r] = X[3 * k + r] - X[3 * j + r];
        const double L = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        if (L > reach) continue;
        for (std::uint32_t a = b + 1; a < body.bondStart[j + 1]; ++a) {
          if (body.bondBroken[a]) continue;
          const std::size_t i = body.neighbour[a];
          double d2 = 0.0;
          for (int r = 0; r < 3; ++r) {
            const double d = X[3 * i + r] - X[3 * j + r] + e[r];
            d2 += d * d;
          }
          if (d2 > 1e-12 * L * L) continue;
          const long ik = findBond(body, i, k);
          if (ik < 0 || body.bondBroken[static_cast<std::size_t>(ik)]) continue;
          local.push_back({a, b, L});
        }
      }
      cs.clear(), sn.clear(), base.clear();
      for (const Local& p : local) {
        const std::size_t k = body.neighbour[p.toK];
        double e[3], cc = 1.0, ss = 0.0;
        for (int r = 0; r < 3; ++r) e[r] = (X[3 * k + r] - X[3 * j + r]) / p.L;
        if (fit[j].frame) inPlane(e, fit[j].e1, fit[j].e2, cc, ss);
        cs.push_back(cc), sn.push_back(ss), base.push_back(1.0);
        for (int r = 0; r < 3; ++r) dirOf[j].push_back(e[r]);
      }
      double y[kModes] = {1, 0, 0, 0, 0};
      if (fit[j].frame) isotropyModes(cs, sn, base, y);
      for (std::size_t q = 0; q < local.size(); ++q) {
        double g[kModes], w = 0.0;
        modes(cs[q], sn[q], g);
        for (int m = 0; m < kModes; ++m) w += y[m] * g[m];
        wOf[j].push_back(w);
        pairsOf[j] += w;
      }
      localOf[j] = local;
      P = std::max(P, pairsOf[j]);
    }
    // K_p = (8/3) D (V_j / t) g_p w_p / (P |ξ|⁴), g_p = min(4, (3P/8) / M_j(n_p)).
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t q = 0; q < localOf[j].size(); ++q) {
        const double* np = &dirOf[j][3 * q];
        double M = 0.0;
        for (std::size_t o = 0; o < localOf[j].size(); ++o) {
          const double* no = &dirOf[j][3 * o];
          const double d = np[0] * no[0] + np[1] * no[1] + np[2] * no[2];
          M += wOf[j][o] * d * d * d * d;
        }
        const double g = std::min(4.0, 0.375 * P / M);
        const double L = localOf[j][q].L;
        const double K = (8.0 / 3.0) * D * (V[j] / t) * g * wOf[j][q] / (P * L * L * L * L);
        triplets.push_back(
            {static_cast<std::uint32_t>(j), localOf[j][q].toI, localOf[j][q].toK, K});
      }
  }

  // Entries: each triplet at its centre (+K: bonds j→i, j→k, i→k) and at both ends
  // (−K: at i bonds i→j, i→k, j→k; at k bonds k→j, k→i, j→i).
  double* offset = data.data() + sd::kHeader + nb;
  std::vector<std::size_t> count(n, 0);
  for (const Triplet& p : triplets) {
    ++count[p.centre];
    ++count[body.neighbour[p.toI]];
    ++count[body.neighbour[p.toK]];
  }
  std::size_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    offset[i] = static_cast<double>(total);
    total += count[i];
  }
  offset[n] = static_cast<double>(total);
  std::vector<std::size_t> next(n);
  for (std::size_t i = 0; i < n; ++i) next[i] = static_cast<std::size_t>(offset[i]);
  std::vector<double> entries(sd::kEntry * total, 0.0);
  auto put = [&](std::size_t point, long b1, long b2, long b3, double K) {
    double* e = &entries[sd::kEntry * next[point]++];
    e[0] = static_cast<double>(b1);
    e[1] = static_cast<double>(b2);
    e[2] = static_cast<double>(b3);
    e[3] = K;
  };
  for (const Triplet& p : triplets) {
    const std::size_t j = p.centre, i = body.neighbour[p.toI], k = body.neighbour[p.toK];
    const long ij = findBond(body, i, j), ik = findBond(body, i, k);
    const long kj = findBond(body, k, j), ki = findBond(body, k, i);
    if (ij < 0 || ik < 0 || kj < 0 || ki < 0)
      throw Error(
          who, "symmetric bonds (each pair stored in both directions)",
          "a bond of the triplet centred at point " + std::to_string(j) + " without its reverse");
    put(j, p.toI, p.toK, ik, p.stiffness);
    put(i, ij, ik, p.toK, -p.stiffness);
    put(k, kj, ki, p.toI, -p.stiffness);
  }
  data[0] = c;
  data[1] = D;
  data[2] = P;
  data[3] = static_cast<double>(n);
  data[4] = static_cast<double>(nb);
  data.insert(data.end(), entries.begin(), entries.end());
}

}  // namespace nsdyn
