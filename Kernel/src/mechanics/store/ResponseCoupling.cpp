// The coupled response of SceneSystems in a SceneEngine's contact problem
// (mechanics/store/ResponseCoupling.hpp).
#include "mechanics/store/ResponseCoupling.hpp"

#include <algorithm>

#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SceneSystem.hpp"

namespace nsdyn::store {

namespace {

int entryOf(const NsdRigidContacts& p, int c) {
  return p.index ? p.index[c] : c;
}

// The body on side @p side (0: A, 1: B) of contact @p c, or -1 (none or static).
int bodyOn(const NsdRigidContacts& p, int c, int side) {
  const int e = entryOf(p, c);
  const int b = side == 0 ? p.body_a[e] : p.body_b[e];
  if (b < 0 || (p.body_fixed && p.body_fixed[b])) return -1;
  return b;
}

}  // namespace

ResponseCoupling::ResponseCoupling(const std::vector<std::shared_ptr<SceneSystem>>& systems) {
  for (const auto& s : systems)
    if (s && s->coupled()) {
      Coupled c;
      c.system = s.get();
      c.first = s->firstBody();
      c.count = s->bodyCount();
      c.slot.assign(c.count, -1);
      systems_.push_back(std::move(c));
    }
}

const ResponseCoupling::Coupled* ResponseCoupling::owner(int body, int* slot) const {
  if (body < 0) return nullptr;
  const std::size_t b = static_cast<std::size_t>(body);
  for (const Coupled& c : systems_)
    if (b >= c.first && b < c.first + c.count) {
      *slot = c.slot[b - c.first];
      return *slot >= 0 ? &c : nullptr;
    }
  return nullptr;
}

bool ResponseCoupling::begin(const SceneEngine& engine, const NsdRigidContacts& p) {
  active_ = false;
  for (Coupled& c : systems_) {
    for (std::size_t b : c.touched) c.slot[b - c.first] = -1;
    c.touched.clear();
  }
  if (systems_.empty()) return false;
  for (int k = 0; k < p.n_contacts; ++k)
    for (int side = 0; side < 2; ++side) {
      const int body = bodyOn(p, k, side);
      if (body < 0) continue;
      const std::size_t b = static_cast<std::size_t>(body);
      for (Coupled& c : systems_)
        if (b >= c.first && b < c.first + c.count && c.slot[b - c.first] < 0) {
          c.slot[b - c.first] = 0;  // seen; numbered below
          c.touched.push_back(b);
        }
    }
  for (Coupled& c : systems_) {
    if (c.touched.empty()) continue;
    std::sort(c.touched.begin(), c.touched.end());
    const std::size_t t = c.touched.size();
    for (std::size_t a = 0; a < t; ++a) c.slot[c.touched[a] - c.first] = static_cast<int>(a);
    if (!c.system->beginResponse(engine, c.touched.data(), t)) {  // lumped this step
      for (std::size_t b : c.touched) c.slot[b - c.first] = -1;
      c.touched.clear();
      continue;
    }
    c.blocks.assign(9 * t * t, 0.0);
    for (std::size_t a = 0; a < t; ++a)
      for (std::size_t b = a; b < t; ++b) {
        double* ab = &c.blocks[9 * (a * t + b)];
        c.system->responseBlock(a, b, ab);
        if (b == a) {  // exactly symmetric
          for (int r = 0; r < 3; ++r)
            for (int s = r + 1; s < 3; ++s) ab[3 * s + r] = ab[3 * r + s];
          continue;
        }
        double* ba = &c.blocks[9 * (b * t + a)];
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) ba[3 * s + r] = ab[3 * r + s];
      }
    active_ = true;
  }
  return active_;
}

NsdMatrix* ResponseCoupling::corrected(const NsdRigidContacts& p, const NsdMatrix* lumped) const {
  const int n = p.n_contacts;
  const std::size_t nb = static_cast<std::size_t>(p.n_bodies);
  // contacts per body (dynamic bodies) and per coupled system
  std::vector<int> bodyStart(nb + 1, 0), bodyContacts;
  for (int k = 0; k < n; ++k)
    for (int side = 0; side < 2; ++side) {
      const int b = bodyOn(p, k, side);
      if (b >= 0) ++bodyStart[static_cast<std::size_t>(b) + 1];
    }
  for (std::size_t b = 0; b < nb; ++b) bodyStart[b + 1] += bodyStart[b];
  bodyContacts.resize(static_cast<std::size_t>(bodyStart[nb]));
  std::vector<int> fill(bodyStart.begin(), bodyStart.end() - 1);
  std::vector<std::vector<int>> systemContacts(systems_.size());
  for (int k = 0; k < n; ++k)
    for (int side = 0; side < 2; ++side) {
      const int b = bodyOn(p, k, side);
      if (b < 0) continue;
      bodyContacts[static_cast<std::size_t>(fill[static_cast<std::size_t>(b)]++)] = k;
      int slot = -1;
      if (const Coupled* c = owner(b, &slot)) {
        auto& list = systemContacts[static_cast<std::size_t>(c - systems_.data())];
        if (list.empty() || list.back() != k) list.push_back(k);
      }
    }
  // the block structure: W's own blocks and every pair of contacts on one coupled system
  std::vector<int> rowPtr(static_cast<std::size_t>(n) + 1, 0), cols, seen(n, -1), row;
  for (int a = 0; a < n; ++a) {
    row.clear();
    const auto add = [&](int k) {
      if (seen[k] != a) {
        seen[k] = a;
        row.push_back(k);
      }
    };
    for (int side = 0; side < 2; ++side) {
      const int b = bodyOn(p, a, side);
      if (b < 0) continue;
      for (int q = bodyStart[static_cast<std::size_t>(b)];
           q < bodyStart[static_cast<std::size_t>(b) + 1]; ++q)
        add(bodyContacts[static_cast<std::size_t>(q)]);
      int slot = -1;
      if (const Coupled* c = owner(b, &slot))
        for (int k : systemContacts[static_cast<std::size_t>(c - systems_.data())]) add(k);
    }
    std::sort(row.begin(), row.end());
    cols.insert(cols.end(), row.begin(), row.end());
    rowPtr[static_cast<std::size_t>(a) + 1] = static_cast<int>(cols.size());
  }
  std::vector<int> ends(static_cast<std::size_t>(n));
  for (int a = 0; a < n; ++a) ends[static_cast<std::size_t>(a)] = 3 * (a + 1);
  NsdMatrix* W =
      nsd_matrix_create_sparse_block(n, n, ends.data(), ends.data(), rowPtr.data(), cols.data());
  if (!W) return nullptr;
  // the upper blocks (a <= b): W's own plus s_a s_b F_a X F_b^T, X the system's 3x3 block
  for (int a = 0; a < n; ++a)
    for (int k = rowPtr[static_cast<std::size_t>(a)]; k < rowPtr[static_cast<std::size_t>(a) + 1];
         ++k) {
      const int b = cols[static_cast<std::size_t>(k)];
      if (b < a) continue;
      double* out = nsd_matrix_sbm_block(W, k);  // column-major
      const int own = nsd_matrix_sbm_find(lumped, a, b);
      if (own >= 0) std::copy_n(nsd_matrix_sbm_block(lumped, own), 9, out);
      for (int sa = 0; sa < 2; ++sa) {
        int ta = -1;
        const Coupled* ca = owner(bodyOn(p, a, sa), &ta);
        if (!ca) continue;
        const double* Fa = p.frame + 9 * static_cast<std::size_t>(entryOf(p, a));
        for (int sb = 0; sb < 2; ++sb) {
          int tb = -1;
          const Coupled* cb = owner(bodyOn(p, b, sb), &tb);
          if (cb != ca) continue;
          const double* Fb = p.frame + 9 * static_cast<std::size_t>(entryOf(p, b));
          const std::size_t t = ca->touched.size();
          const double* X =
              &ca->blocks[9 * (static_cast<std::size_t>(ta) * t + static_cast<std::size_t>(tb))];
          const double sign = (sa == sb) ? 1.0 : -1.0;  // J_A = F, J_B = -F
          double XF[9];                                 // X F_b^T
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s)
              XF[3 * r + s] = X[3 * r] * Fb[3 * s] + X[3 * r + 1] * Fb[3 * s + 1] +
                              X[3 * r + 2] * Fb[3 * s + 2];
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s)
              out[r + 3 * s] += sign * (Fa[3 * r] * XF[s] + Fa[3 * r + 1] * XF[3 + s] +
                                        Fa[3 * r + 2] * XF[6 + s]);
        }
      }
      if (a == b)  // exactly symmetric
        for (int r = 0; r < 3; ++r)
          for (int s = r + 1; s < 3; ++s) out[s + 3 * r] = out[r + 3 * s];
    }
  // the lower blocks as the transposes of the upper ones
  for (int a = 0; a < n; ++a)
    for (int k = rowPtr[static_cast<std::size_t>(a)]; k < rowPtr[static_cast<std::size_t>(a) + 1];
         ++k) {
      const int b = cols[static_cast<std::size_t>(k)];
      if (b >= a) continue;
      const double* up = nsd_matrix_sbm_block(W, nsd_matrix_sbm_find(W, b, a));
      double* out = nsd_matrix_sbm_block(W, k);
      for (int r = 0; r < 3; ++r)
        for (int s = 0; s < 3; ++s) out[r + 3 * s] = up[s + 3 * r];
    }
  return W;
}

void ResponseCoupling::addResponse(const double* v, double* w) const {
  for (const Coupled& c : systems_) {
    const std::size_t t = c.touched.size();
    for (std::size_t a = 0; a < t; ++a) {
      double* wa = w + 6 * c.touched[a];
      for (std::size_t b = 0; b < t; ++b) {
        const double* vb = v + 6 * c.touched[b];
        const double* X = &c.blocks[9 * (a * t + b)];
        for (int r = 0; r < 3; ++r)
          wa[r] += X[3 * r] * vb[0] + X[3 * r + 1] * vb[1] + X[3 * r + 2] * vb[2];
      }
    }
  }
}

void ResponseCoupling::correct(const SceneEngine& engine, const NsdRigidContacts& p,
                               const double* r, double* vel) {
  for (const Coupled& c : systems_) {
    if (c.touched.empty()) continue;
    impulse_.assign(3 * c.touched.size(), 0.0);
    for (int k = 0; k < p.n_contacts; ++k)
      for (int side = 0; side < 2; ++side) {
        int slot = -1;
        if (owner(bodyOn(p, k, side), &slot) != &c) continue;
        const double* F = p.frame + 9 * static_cast<std::size_t>(entryOf(p, k));
        const double sign = side == 0 ? 1.0 : -1.0;  // J^T r = ±F^T r
        const double* rk = r + 3 * k;
        for (int s = 0; s < 3; ++s)
          impulse_[3 * static_cast<std::size_t>(slot) + s] +=
              sign * (F[s] * rk[0] + F[3 + s] * rk[1] + F[6 + s] * rk[2]);
      }
    c.system->correctVelocity(engine, impulse_.data(), vel);
  }
}

}  // namespace nsdyn::store
