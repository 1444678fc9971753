// Contact between two finite convex shapes from their support functions: an
// expanding polytope inside the (margin-inflated) Minkowski difference.
// See nsdyn/ConvexContact.hpp for the method and the conventions.
#include "nsdyn/ConvexContact.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <utility>
#include <vector>

#include "nsdyn/Error.hpp"

#include "mechanics/narrowphase/NarrowphaseMath.hpp"

namespace nsdyn {

namespace {

using narrowphase::ContactList;
using narrowphase::ContactPoint;
using narrowphase::Pose;
using narrowphase::detail::add;
using narrowphase::detail::anyPerpendicular;
using narrowphase::detail::axpy;
using narrowphase::detail::cross;
using narrowphase::detail::dot;
using narrowphase::detail::norm;
using narrowphase::detail::scale;
using narrowphase::detail::sub;
using Vec3 = quaternion::Vec3;

Vec3 unit(const Vec3& v) {
  return scale(v, 1.0 / norm(v));
}

// A shape at its pose, with the rotation matrix computed once (support queries
// are the inner loop).
struct Placed {
  const Shape* shape;
  double R[9];
  Vec3 position;

  Placed(const Shape& s, const Pose& p) : shape(&s), position(p.position) {
    narrowphase::detail::rotationExact(p.orientation, R);
  }
  // The shape's support point (world) in the world direction d.
  Vec3 support(const Vec3& d) const {
    const Vec3 local{R[0] * d[0] + R[3] * d[1] + R[6] * d[2],
                     R[1] * d[0] + R[4] * d[1] + R[7] * d[2],
                     R[2] * d[0] + R[5] * d[1] + R[8] * d[2]};
    const Vec3 p = shape->support(local);
    return {position[0] + R[0] * p[0] + R[1] * p[1] + R[2] * p[2],
            position[1] + R[3] * p[0] + R[4] * p[1] + R[5] * p[2],
            position[2] + R[6] * p[0] + R[7] * p[1] + R[8] * p[2]};
  }
};

// A vertex of the polytope: w = a − b + margin·u, a point of the Minkowski
// difference A − B inflated by a ball of radius margin, from the support
// points a of A along u and b of B along −u (u unit).
struct Vertex {
  Vec3 w, a, b;
};

// A triangle of the polytope, counter-clockwise seen from outside; adj[k] is
// the face across the edge v[k] → v[(k + 1) % 3]; plane n·x = d, n unit outward.
struct Face {
  int v[3];
  int adj[3];
  Vec3 n;
  double d;
  bool alive;
};

// A new face's first edge p → q (on the horizon) and its index.
struct HorizonFace {
  int p, q, face;
};

// Scratch of one call (one per thread: reused without reallocation).
struct Workspace {
  std::vector<Vertex> vertices;
  std::vector<Face> faces;
  std::vector<std::pair<double, int>> heap;  // (d, face), min-heap, stale entries skipped
  std::vector<int> stack, removed;
  std::vector<HorizonFace> horizon;
};

Workspace& workspace() {
  thread_local Workspace ws;
  return ws;
}

// What the search found: the direction u of least h(u) = u·w(u) seen (an
// upper bound of the minimum over directions), its vertex, and the face that
// produced it (−1: one of the start queries).
struct Best {
  double h = std::numeric_limits<double>::infinity();
  Vec3 u{0.0, 0.0, 1.0};
  Vertex vertex{};
  int face[3] = {-1, -1, -1};
  Vec3 faceN{0.0, 0.0, 0.0};
  double faceD = 0.0;
};

class Search {
 public:
  Search(const Placed& a, const Placed& b, double margin, Workspace& ws)
      : a_(a), b_(b), margin_(margin), ws_(ws) {}

  // The support of the inflated difference along the unit u; false when u
  // separates the inflated shapes (h(u) < 0: gap > margin along u).
  bool query(const Vec3& u, Vertex& v, double& h, const int* face = nullptr,
             const Face* f = nullptr) {
    probe(u, v, h);
    if (h < best_.h) {
      best_.h = h;
      best_.u = u;
      best_.vertex = v;
      if (face) {
        for (int k = 0; k < 3; ++k) best_.face[k] = face[k];
        best_.faceN = f->n;
        best_.faceD = f->d;
      } else {
        best_.face[0] = -1;
      }
    }
    return !(h < 0.0);
  }

  // Runs the search from the first direction u0 (unit); false when the shapes
  // are found apart by more than the margin.
  bool run(const Vec3& u0, unsigned long maxIterations, double tolerance) {
    ws_.vertices.clear();
    ws_.faces.clear();
    ws_.heap.clear();
    if (!start(u0)) return false;
    if (ws_.faces.empty()) return true;  // degenerate start: the best direction so far
    double scale = 0.0;
    for (const Vertex& v : ws_.vertices) scale = std::max(scale, norm(v.w));
    scale_ = scale;
    const double eps = std::numeric_limits<double>::epsilon();
    visibleEps_ = 64.0 * eps * scale;
    const double tol = std::max(tolerance, 4.0 * visibleEps_);
    for (unsigned long it = 0;; ++it) {
      // The face of least d: its plane is the nearest (a lower bound of the
      // minimum once the origin is inside the polytope).
      int f = -1;
      while (!ws_.heap.empty()) {
        std::pop_heap(ws_.heap.begin(), ws_.heap.end(), std::greater<std::pair<double, int>>());
        const int g = ws_.heap.back().second;
        ws_.heap.pop_back();
        if (ws_.faces[static_cast<std::size_t>(g)].alive) {
          f = g;
          break;
        }
      }
      if (f < 0) return true;
      const Face face = ws_.faces[static_cast<std::size_t>(f)];
      Vertex v;
      double h;
      if (!query(face.n, v, h, face.v, &face)) return false;
      if (h - face.d <= tol || it >= maxIterations)
        return true;                   // converged (or capped: best so far)
      if (!expand(f, v)) return true;  // degenerate step: best so far
    }
  }

  // The support of the inflated difference along the unit u, without bookkeeping.
  void probe(const Vec3& u, Vertex& v, double& h) const {
    v.a = a_.support(u);
    v.b = b_.support(Vec3{-u[0], -u[1], -u[2]});
    v.w = axpy(sub(v.a, v.b), margin_, u);
    h = dot(u, v.w);
  }

  // Newton steps on h over the directions near the best one where the difference is
  // curved: the search's faces only approach a curved surface, to a direction error of
  // about √(tolerance / radius of curvature), while a face normal is exact already.
  // Four probes at ±1e-3 rad about the best direction tell the local shape by the jumps
  // of the support point: none, a smooth surface (a sphere, a cap, a rim against a
  // rim): Newton over both tangent directions; jumps along one direction e only, a
  // surface curved across e and straight along it (a sphere or a capsule against an
  // edge, a cylinder's side against a vertex): h has a kink at u ⊥ e, so u is put on it
  // and Newton runs along the other direction; jumps along two directions: a face,
  // nothing to do. The gradient of h in the tangent plane is the support point's
  // tangential part, the Hessian comes from probes 1e-7 away. A step is kept only when h
  // does not grow. Returns true when the direction moved.
  bool polish() {
    if (!(scale_ > 0.0) || best_.h == std::numeric_limits<double>::infinity()) return false;
    const Vec3 t1 = anyPerpendicular(best_.u);
    const Vec3 t2 = cross(best_.u, t1);
    const Vec3 ts[2] = {t1, t2};
    const double spread = 1e-3;
    const double threshold = 8.0 * spread * scale_;
    Vertex plus[2], minus[2];
    int bigCount = 0;
    Vec3 bigJump[2];
    int kinkDir = -1, kinkShape = 0;  // the largest jump: its probe direction, shape (0 A, 1 B)
    double largest = 0.0;
    for (int j = 0; j < 2; ++j) {
      double h;
      probe(unit(axpy(best_.u, spread, ts[j])), plus[j], h);
      probe(unit(axpy(best_.u, -spread, ts[j])), minus[j], h);
      const Vec3 jump = sub(sub(plus[j].a, plus[j].b), sub(minus[j].a, minus[j].b));
      if (norm(jump) > threshold) bigJump[bigCount++] = jump;
      for (int k = 0; k < 2; ++k) {
        const double n = norm(k == 0 ? sub(plus[j].a, minus[j].a) : sub(plus[j].b, minus[j].b));
        if (n > largest) {
          largest = n;
          kinkDir = j;
          kinkShape = k;
        }
      }
    }
    if (bigCount == 0) return newton(nullptr);
    if (bigCount == 2 && norm(cross(unit(bigJump[0]), unit(bigJump[1]))) > 0.1)
      return false;  // a face
    // The kink's direction: the jumping shape's support point across it, less its smooth
    // drift (from probes twice as far on each side): exact for a polytope's edge.
    const int j = kinkDir;
    Vertex far[2];
    double h;
    probe(unit(axpy(best_.u, 2.0 * spread, ts[j])), far[0], h);
    probe(unit(axpy(best_.u, -2.0 * spread, ts[j])), far[1], h);
    auto point = [&](const Vertex& v) { return kinkShape == 0 ? v.a : v.b; };
    const Vec3 drift = add(sub(point(far[0]), point(plus[j])), sub(point(minus[j]), point(far[1])));
    const Vec3 e = sub(sub(point(plus[j]), point(minus[j])), drift);
    if (!(norm(e) > threshold)) return false;
    const Vec3 ue = unit(e);
    return newton(&ue);
  }

  // The Newton iteration of polish(): over the tangent plane, or (kink ≠ nullptr) along
  // the direction perpendicular to both u and the unit *kink, u kept perpendicular to it.
  bool newton(const Vec3* kink) {
    const double eps = std::numeric_limits<double>::epsilon();
    const double delta = 1e-7;
    const double stretch = 1.0 / std::sqrt(1.0 + delta * delta);
    Vec3 u = best_.u;
    Vertex vu = best_.vertex;
    double hu = best_.h;
    bool moved = false;
    if (kink) {
      // Onto the kink: u ⊥ e.
      const Vec3 onKink = axpy(u, -dot(u, *kink), *kink);
      if (!(norm(onKink) > 0.5)) return false;
      u = unit(onKink);
      probe(u, vu, hu);
      if (!(hu <= best_.h + 16.0 * eps * scale_)) return false;
      moved = true;
    }
    const int dims = kink ? 1 : 2;
    for (int it = 0; it < 6; ++it) {
      Vec3 t[2];
      if (kink) {
        t[0] = unit(cross(u, *kink));
      } else {
        t[0] = anyPerpendicular(u);
        t[1] = cross(u, t[0]);
      }
      double g[2] = {0.0, 0.0}, H[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
      for (int i = 0; i < dims; ++i) g[i] = dot(t[i], vu.w);
      for (int j = 0; j < dims; ++j) {
        const Vec3 vj = scale(axpy(u, delta, t[j]), stretch);
        Vertex pj;
        double hj;
        probe(vj, pj, hj);
        for (int i = 0; i < dims; ++i)
          H[i][j] = ((dot(t[i], pj.w) - dot(vj, t[i]) * hj) * stretch - g[i]) / delta;
      }
      double dx = 0.0, dy = 0.0;
      if (dims == 1) {
        if (!(H[0][0] > 0.0) || !std::isfinite(H[0][0])) break;
        dx = -g[0] / H[0][0];
      } else {
        const double h01 = 0.5 * (H[0][1] + H[1][0]);
        const double det = H[0][0] * H[1][1] - h01 * h01;
        if (!(H[0][0] > 0.0 && H[1][1] > 0.0 && det > 0.0) || !std::isfinite(det)) break;
        dx = -(H[1][1] * g[0] - h01 * g[1]) / det;
        dy = -(H[0][0] * g[1] - h01 * g[0]) / det;
      }
      const double step = std::sqrt(dx * dx + dy * dy);
      if (!(step < 0.1) || step == 0.0) break;
      Vec3 un = axpy(u, dx, t[0]);
      if (dims == 2) un = axpy(un, dy, t[1]);
      un = unit(un);
      Vertex vn;
      double hn;
      probe(un, vn, hn);
      if (!(hn <= hu + 16.0 * eps * scale_)) break;  // h grew: not a smooth minimum
      u = un;
      vu = vn;
      hu = hn;
      moved = true;
      if (step < 1e-13) break;
    }
    if (!moved) return false;
    best_.u = u;
    best_.vertex = vu;
    best_.h = hu;
    best_.face[0] = -1;
    return true;
  }

  const Best& best() const { return best_; }

 private:
  // A non-degenerate tetrahedron of support points (the inflated difference has
  // a positive width along every direction, so each pick is off the previous
  // line / plane).
  bool start(const Vec3& u0) {
    Vertex v[4];
    double h;
    if (!query(u0, v[0], h)) return false;
    if (!query(Vec3{-u0[0], -u0[1], -u0[2]}, v[1], h)) return false;
    const Vec3 e = sub(v[1].w, v[0].w);
    const double le = norm(e);
    if (!(le > 0.0)) return true;
    const Vec3 t = anyPerpendicular(scale(e, 1.0 / le));
    Vertex p, q;
    if (!query(t, p, h)) return false;
    if (!query(Vec3{-t[0], -t[1], -t[2]}, q, h)) return false;
    auto lineDistance = [&](const Vec3& x) { return norm(cross(e, sub(x, v[0].w))); };
    v[2] = lineDistance(p.w) >= lineDistance(q.w) ? p : q;
    Vec3 m = cross(e, sub(v[2].w, v[0].w));
    const double lm = norm(m);
    if (!(lm > 0.0)) return true;
    m = scale(m, 1.0 / lm);
    if (!query(m, p, h)) return false;
    if (!query(Vec3{-m[0], -m[1], -m[2]}, q, h)) return false;
    const double hp = dot(m, sub(p.w, v[0].w)), hq = dot(m, sub(q.w, v[0].w));
    v[3] = std::abs(hp) >= std::abs(hq) ? p : q;
    const double side = std::abs(hp) >= std::abs(hq) ? hp : hq;
    if (!(std::abs(side) > 0.0)) return true;
    // Orientation: v3 below the plane of (v0, v1, v2) seen along its normal.
    if (side > 0.0) std::swap(v[1], v[2]);
    for (int k = 0; k < 4; ++k) ws_.vertices.push_back(v[k]);
    const int tri[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (const auto& t3 : tri) {
      if (addFace(t3[0], t3[1], t3[2]) < 0) {
        ws_.faces.clear();
        return true;
      }
    }
    // Adjacency: the face holding the reversed edge.
    for (std::size_t f = 0; f < 4; ++f) {
      for (int k = 0; k < 3; ++k) {
        const int p0 = ws_.faces[f].v[k], q0 = ws_.faces[f].v[(k + 1) % 3];
        for (std::size_t g = 0; g < 4; ++g) {
          if (g == f) continue;
          for (int j = 0; j < 3; ++j)
            if (ws_.faces[g].v[j] == q0 && ws_.faces[g].v[(j + 1) % 3] == p0)
              ws_.faces[f].adj[k] = static_cast<int>(g);
        }
      }
    }
    return true;
  }

  // Appends the face (i, j, k) and queues it; −1 when degenerate.
  int addFace(int i, int j, int k) {
    const Vec3& x0 = ws_.vertices[static_cast<std::size_t>(i)].w;
    const Vec3& x1 = ws_.vertices[static_cast<std::size_t>(j)].w;
    const Vec3& x2 = ws_.vertices[static_cast<std::size_t>(k)].w;
    Vec3 n = cross(sub(x1, x0), sub(x2, x0));
    const double ln = norm(n);
    if (!(ln > 0.0) || !std::isfinite(ln)) return -1;
    n = scale(n, 1.0 / ln);
    Face f;
    f.v[0] = i;
    f.v[1] = j;
    f.v[2] = k;
    f.adj[0] = f.adj[1] = f.adj[2] = -1;
    f.n = n;
    f.d = (dot(n, x0) + dot(n, x1) + dot(n, x2)) / 3.0;
    f.alive = true;
    const int id = static_cast<int>(ws_.faces.size());
    ws_.faces.push_back(f);
    ws_.heap.emplace_back(f.d, id);
    std::push_heap(ws_.heap.begin(), ws_.heap.end(), std::greater<std::pair<double, int>>());
    return id;
  }

  // Adds the vertex v beyond the face f: the faces that see it (connected to f)
  // go, the horizon is closed by a fan of new faces. False on a degenerate step.
  bool expand(int f, const Vertex& v) {
    const int wi = static_cast<int>(ws_.vertices.size());
    ws_.vertices.push_back(v);
    auto visible = [&](int g) {
      const Face& F = ws_.faces[static_cast<std::size_t>(g)];
      return dot(F.n, v.w) - F.d > visibleEps_;
    };
    ws_.removed.clear();
    ws_.stack.clear();
    ws_.faces[static_cast<std::size_t>(f)].alive = false;
    ws_.removed.push_back(f);
    ws_.stack.push_back(f);
    while (!ws_.stack.empty()) {
      const int g = ws_.stack.back();
      ws_.stack.pop_back();
      for (int k = 0; k < 3; ++k) {
        const int nb = ws_.faces[static_cast<std::size_t>(g)].adj[k];
        if (nb < 0) return false;
        if (ws_.faces[static_cast<std::size_t>(nb)].alive && visible(nb)) {
          ws_.faces[static_cast<std::size_t>(nb)].alive = false;
          ws_.removed.push_back(nb);
          ws_.stack.push_back(nb);
        }
      }
    }
    // Horizon: edges of removed faces whose neighbour stays.
    ws_.horizon.clear();
    for (const int g : ws_.removed) {
      for (int k = 0; k < 3; ++k) {
        const Face& F = ws_.faces[static_cast<std::size_t>(g)];
        const int nb = F.adj[k];
        if (!ws_.faces[static_cast<std::size_t>(nb)].alive) continue;
        const int p = F.v[k], q = F.v[(k + 1) % 3];
        const int id = addFace(p, q, wi);
        if (id < 0) return false;
        Face& N = ws_.faces[static_cast<std::size_t>(id)];
        N.adj[0] = nb;
        Face& B = ws_.faces[static_cast<std::size_t>(nb)];
        for (int j = 0; j < 3; ++j)
          if (B.v[j] == q && B.v[(j + 1) % 3] == p) B.adj[j] = id;
        ws_.horizon.push_back({p, q, id});
      }
    }
    if (ws_.horizon.size() < 3) return false;
    // The fan: face (p, q, w) meets the face starting at q across q → w, the one
    // ending at p across w → p (the horizon is one loop: each vertex once as p, once as q).
    for (const HorizonFace& h : ws_.horizon) {
      int next = -1, prev = -1;
      for (const HorizonFace& o : ws_.horizon) {
        if (o.p == h.q) next = next < 0 ? o.face : -2;
        if (o.q == h.p) prev = prev < 0 ? o.face : -2;
      }
      if (next < 0 || prev < 0) return false;
      Face& N = ws_.faces[static_cast<std::size_t>(h.face)];
      N.adj[1] = next;
      N.adj[2] = prev;
    }
    return true;
  }

  const Placed& a_;
  const Placed& b_;
  double margin_;
  Workspace& ws_;
  Best best_;
  double visibleEps_ = 0.0;
  double scale_ = 0.0;  // the largest |w| of the start tetrahedron
};

void requireFinite(const Shape& s, const char* which) {
  if (!s.isFinite()) {
    throw Error(std::string("convexContact (shape ") + which + ")", "a finite convex shape",
                s.kindName() + " (use the plane closed forms of Narrowphase.hpp)");
  }
}

}  // namespace

int convexContact(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                  double margin, ContactList& out, const ConvexContactOptions& options) {
  requireFinite(a, "A");
  requireFinite(b, "B");
  if (!std::isfinite(margin) || margin < 0.0) {
    std::ostringstream s;
    s << "margin = " << margin;
    throw Error("convexContact", "margin finite and >= 0", s.str());
  }

  const Placed pa(a, poseA), pb(b, poseB);
  // First direction: from A's centroid to B's (+x when they coincide).
  const Vec3 ca = poseA.toWorld(a.centroid());
  const Vec3 cb = poseB.toWorld(b.centroid());
  Vec3 u0 = sub(cb, ca);
  const double l0 = norm(u0);
  u0 = l0 > 0.0 && std::isfinite(l0) ? scale(u0, 1.0 / l0) : Vec3{1.0, 0.0, 0.0};

  Search search(pa, pb, margin, workspace());
  if (!search.run(u0, options.maxIterations, options.tolerance))
    return 0;  // a separating direction: gap > margin
  search.polish();
  const Best& best = search.best();

  // The normal (from B to A) is −u; the gap along it from the exact supports:
  // A's lowest level minus B's highest level.
  const Vec3 normal{-best.u[0], -best.u[1], -best.u[2]};
  const Vec3& lowA = best.vertex.a;
  const Vec3& highB = best.vertex.b;
  const double levelA = dot(normal, lowA);
  const double levelB = dot(normal, highB);
  const double gap = levelA - levelB;
  if (!(gap <= margin)) return 0;

  // Position: the witness points of the face that gave the normal (barycentric
  // coordinates of the origin's projection on it), else the support points.
  Vec3 pos = scale(add(lowA, highB), 0.5);
  if (best.face[0] >= 0) {
    const auto& vs = workspace().vertices;
    const Vertex& v0 = vs[static_cast<std::size_t>(best.face[0])];
    const Vertex& v1 = vs[static_cast<std::size_t>(best.face[1])];
    const Vertex& v2 = vs[static_cast<std::size_t>(best.face[2])];
    const Vec3 proj = scale(best.faceN, best.faceD);
    const Vec3 nrm = cross(sub(v1.w, v0.w), sub(v2.w, v0.w));
    double l[3] = {dot(cross(sub(v1.w, proj), sub(v2.w, proj)), nrm),
                   dot(cross(sub(v2.w, proj), sub(v0.w, proj)), nrm),
                   dot(cross(sub(v0.w, proj), sub(v1.w, proj)), nrm)};
    double sum = 0.0;
    for (double& x : l) {
      x = std::max(x, 0.0);
      sum += x;
    }
    if (sum > 0.0 && std::isfinite(sum)) {
      Vec3 pA{0.0, 0.0, 0.0}, pB{0.0, 0.0, 0.0};
      const Vertex* vv[3] = {&v0, &v1, &v2};
      for (int k = 0; k < 3; ++k) {
        pA = axpy(pA, l[k] / sum, vv[k]->a);
        pB = axpy(pB, l[k] / sum, vv[k]->b);
      }
      pos = scale(add(pA, pB), 0.5);
    }
  }
  const double levelPos = dot(normal, pos);
  ContactPoint c;
  c.normal = normal;
  c.gap = gap;
  c.pointA = axpy(pos, levelA - levelPos, normal);
  c.pointB = axpy(pos, levelB - levelPos, normal);
  c.featureA = 0;
  c.featureB = 0;
  out.push_back(c);
  return 1;
}

}  // namespace nsdyn
