// Two support features clipped against each other in the plane perpendicular to the
// contact normal: see FeatureClip.hpp.
#include "FeatureClip.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "NarrowphaseMath.hpp"

namespace nsdyn {
namespace narrowphase {
namespace detail {

namespace {

struct P2 {
  double x, y;
};
P2 minus(const P2& a, const P2& b) {
  return {a.x - b.x, a.y - b.y};
}
double cross2(const P2& a, const P2& b) {
  return a.x * b.y - a.y * b.x;
}
double dot2(const P2& a, const P2& b) {
  return a.x * b.x + a.y * b.y;
}

// A feature projected on the plane: its vertices (counter-clockwise about n for a
// polygon) and their labels in that order.
struct Flat {
  const SupportFeature* f = nullptr;
  std::vector<P2> p;
  std::vector<int> vid, eid;
};

// A vertex of the polygon being clipped: labels on A and B, and the label of its edge to
// the next vertex (>= 0: that edge of A's polygon; -1 - s: the side s of B's polygon).
struct ClipVertex {
  P2 p;
  int la, lb;
  int out;
  int onA = -1, onB = -1;  // where an edge of A crosses a side of B: their indices
};

struct Scratch {
  Flat a, b;
  std::vector<ClipVertex> poly, next;
  std::vector<ManifoldCandidate> found;
};

class Clip {
 public:
  Clip(const SupportFeature& a, const SupportFeature& b, const Vec3& n, Scratch& s) : n_(n), s_(s) {
    t1_ = anyPerpendicular(n);
    t2_ = cross(n, t1_);
    flatten(a, s.a);
    flatten(b, s.b);
    double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (const Flat* f : {&s.a, &s.b})
      for (const P2& p : f->p) {
        lo[0] = std::min(lo[0], p.x);
        lo[1] = std::min(lo[1], p.y);
        hi[0] = std::max(hi[0], p.x);
        hi[1] = std::max(hi[1], p.y);
      }
    extent_ = std::hypot(hi[0] - lo[0], hi[1] - lo[1]);
    tol_ = 1e-9 * extent_;
    s.found.clear();
  }

  double extent() const { return extent_; }

  // A's polygon clipped by the side lines of B's (both counter-clockwise).
  void polygons() {
    const Flat &A = s_.a, &B = s_.b;
    auto& poly = s_.poly;
    auto& next = s_.next;
    poly.clear();
    for (std::size_t i = 0; i < A.p.size(); ++i)
      poly.push_back(ClipVertex{A.p[i], A.vid[i], B.f->faceId, static_cast<int>(i), -1, -1});
    const int m = static_cast<int>(B.p.size());
    for (int s = 0; s < m && !poly.empty(); ++s) {
      const P2 q0 = B.p[static_cast<std::size_t>(s)];
      const P2 e = minus(B.p[static_cast<std::size_t>((s + 1) % m)], q0);
      const double len = std::hypot(e.x, e.y);
      if (!(len > tol_)) continue;
      auto distance = [&](const P2& p) { return cross2(e, minus(p, q0)) / len; };
      next.clear();
      const std::size_t count = poly.size();
      for (std::size_t k = 0; k < count; ++k) {
        const ClipVertex& a = poly[k];
        const ClipVertex& b = poly[(k + 1) % count];
        const double ea = distance(a.p), eb = distance(b.p);
        const double da = ea + tol_, db = eb + tol_;  // inside within the tolerance
        if (da >= 0.0) next.push_back(a);
        if ((da >= 0.0) == (db >= 0.0)) continue;
        const double t = crossing(ea, eb);
        ClipVertex x;
        x.p = P2{a.p.x + t * (b.p.x - a.p.x), a.p.y + t * (b.p.y - a.p.y)};
        if (a.out >= 0) {
          // An edge of A crossing the side s of B.
          x.la = A.eid[static_cast<std::size_t>(a.out)];
          x.lb = B.eid[static_cast<std::size_t>(s)];
          x.onA = a.out;
          x.onB = s;
        } else {
          // Along an earlier side of B: the corner of B it shares with the side s.
          const int sp = -1 - a.out;
          const int corner = (sp + 1) % m == s ? s : ((s + 1) % m == sp ? sp : s);
          x.la = A.f->faceId;
          x.lb = B.vid[static_cast<std::size_t>(corner)];
        }
        x.out = da >= 0.0 ? -1 - s : a.out;
        next.push_back(x);
      }
      poly.swap(next);
    }
    // A rim chord crossing a side: the point where that side meets the rim itself (and
    // the other way round), not the chord.
    const bool circleA = A.f->radius > 0.0, circleB = B.f->radius > 0.0;
    const int na = static_cast<int>(A.p.size());
    for (ClipVertex& v : poly) {
      if (v.onA < 0 || v.onB < 0 || circleA == circleB) continue;
      const std::size_t i = static_cast<std::size_t>(circleA ? v.onB : v.onA);
      const Flat& line = circleA ? B : A;
      const std::size_t j = (i + 1) % static_cast<std::size_t>(circleA ? m : na);
      const double t = ontoCircle(circleA ? A : B, line.p[i], line.p[j], v.p);
      v.p = P2{line.p[i].x + t * (line.p[j].x - line.p[i].x),
               line.p[i].y + t * (line.p[j].y - line.p[i].y)};
    }
    for (const ClipVertex& v : poly) emit(v.p, v.la, v.lb);
  }

  // The part of the segment S inside the polygon G (S is A's when segA).
  void segmentPolygon(bool segA) {
    const Flat& S = segA ? s_.a : s_.b;
    const Flat& G = segA ? s_.b : s_.a;
    const P2 p0 = S.p[0], p1 = S.p[1];
    double t0 = 0.0, t1 = 1.0;
    int side0 = -1, side1 = -1;
    const int m = static_cast<int>(G.p.size());
    for (int s = 0; s < m; ++s) {
      const P2 q0 = G.p[static_cast<std::size_t>(s)];
      const P2 e = minus(G.p[static_cast<std::size_t>((s + 1) % m)], q0);
      const double len = std::hypot(e.x, e.y);
      if (!(len > tol_)) continue;
      const double ea = cross2(e, minus(p0, q0)) / len, eb = cross2(e, minus(p1, q0)) / len;
      const double da = ea + tol_, db = eb + tol_;  // inside within the tolerance
      if (da < 0.0 && db < 0.0) return;             // wholly outside this side
      if (da >= 0.0 && db >= 0.0) continue;
      const double t = crossing(ea, eb);
      if (da < 0.0) {
        if (t > t0) {
          t0 = t;
          side0 = s;
        }
      } else if (t < t1) {
        t1 = t;
        side1 = s;
      }
    }
    if (t0 > t1) return;
    if (G.f->radius > 0.0) {
      // Crossing a rim chord: where the segment meets the rim itself.
      if (side0 >= 0) {
        t0 = ontoCircle(G, p0, p1, P2{p0.x + t0 * (p1.x - p0.x), p0.y + t0 * (p1.y - p0.y)});
        if (!(t0 > 0.0)) side0 = -1;
      }
      if (side1 >= 0) {
        t1 = ontoCircle(G, p0, p1, P2{p0.x + t1 * (p1.x - p0.x), p0.y + t1 * (p1.y - p0.y)});
        if (!(t1 < 1.0)) side1 = -1;
      }
    }
    const double ts[2] = {t0, t1};
    const int sides[2] = {side0, side1};
    for (int k = 0; k < 2; ++k) {
      const P2 p{p0.x + ts[k] * (p1.x - p0.x), p0.y + ts[k] * (p1.y - p0.y)};
      const int ls = sides[k] < 0 ? S.vid[static_cast<std::size_t>(k)] : S.eid[0];
      const int lg = sides[k] < 0 ? G.f->faceId : G.eid[static_cast<std::size_t>(sides[k])];
      if (segA)
        emit(p, ls, lg);
      else
        emit(p, lg, ls);
    }
  }

  // The overlap of two segments; false when they are not parallel within sinTol.
  bool segments(double sinTol) {
    const Flat &A = s_.a, &B = s_.b;
    const P2 da = minus(A.p[1], A.p[0]), db = minus(B.p[1], B.p[0]);
    const double la = std::hypot(da.x, da.y), lb = std::hypot(db.x, db.y);
    if (!(la > tol_) || !(lb > tol_)) return false;
    if (std::abs(cross2(da, db)) > sinTol * la * lb) return false;  // crossing: one point
    const P2 u{da.x / la, da.y / la};
    // B's ends along A's line (A's end 0 at 0, end 1 at la).
    const double pb[2] = {dot2(u, minus(B.p[0], A.p[0])), dot2(u, minus(B.p[1], A.p[0]))};
    const int bLow = pb[0] <= pb[1] ? 0 : 1;
    const double lo = std::max(0.0, pb[bLow]), hi = std::min(la, pb[1 - bLow]);
    if (lo > hi + tol_) return true;  // no overlap: no point
    // At each end of the overlap, A's end when it lies inside B, else B's end.
    for (int k = 0; k < 2; ++k) {
      const bool aEnd = k == 0 ? pb[bLow] <= tol_ : pb[1 - bLow] >= la - tol_;
      const int bEnd = k == 0 ? bLow : 1 - bLow;
      const P2 onA = k == 0 ? A.p[0] : A.p[1];
      const P2 q = aEnd ? onA : B.p[static_cast<std::size_t>(bEnd)];
      // The point of the plane: midway between the two lines there.
      const P2 onALine{A.p[0].x + u.x * dot2(u, minus(q, A.p[0])),
                       A.p[0].y + u.y * dot2(u, minus(q, A.p[0]))};
      const P2 onBLine = projectOnSegmentLine(B, q);
      const P2 p{0.5 * (onALine.x + onBLine.x), 0.5 * (onALine.y + onBLine.y)};
      if (aEnd)
        emit(p, A.vid[static_cast<std::size_t>(k)], B.f->faceId);
      else
        emit(p, A.f->faceId, B.vid[static_cast<std::size_t>(bEnd)]);
    }
    return true;
  }

  // The candidates in label order, points closer than 1e-7 of the extent merged.
  void finish(std::vector<ManifoldCandidate>& out) const {
    auto& found = s_.found;
    std::stable_sort(
        found.begin(), found.end(), [](const ManifoldCandidate& x, const ManifoldCandidate& y) {
          return x.featureA != y.featureA ? x.featureA < y.featureA : x.featureB < y.featureB;
        });
    const double merge = 1e-7 * extent_;
    const std::size_t first = out.size();
    for (const ManifoldCandidate& c : found) {
      bool near = false;
      for (std::size_t k = first; k < out.size() && !near; ++k)
        near = norm(sub(c.pointA, out[k].pointA)) <= merge;
      if (!near) out.push_back(c);
    }
  }

 private:
  void flatten(const SupportFeature& f, Flat& out) const {
    out.f = &f;
    out.p.clear();
    for (const Vec3& v : f.vertex) out.p.push_back(P2{dot(t1_, v), dot(t2_, v)});
    out.vid = f.vertexId;
    out.eid = f.edgeId;
    if (f.kind != SupportFeature::Polygon) return;
    double area = 0.0;
    const std::size_t m = out.p.size();
    for (std::size_t i = 0; i < m; ++i) area += cross2(out.p[i], out.p[(i + 1) % m]);
    if (area >= 0.0) return;
    // Clockwise: reversed; the edge from new vertex k to k + 1 is the old edge m - 2 - k.
    std::reverse(out.p.begin(), out.p.end());
    std::reverse(out.vid.begin(), out.vid.end());
    for (std::size_t k = 0; k < m; ++k) out.eid[k] = f.edgeId[(2 * m - 2 - k) % m];
  }

  // Where the edge from signed distance ea to eb crosses the side line itself (not the
  // line shifted by the tolerance), within the edge.
  static double crossing(double ea, double eb) {
    const double t = ea != eb ? ea / (ea - eb) : 0.0;
    return std::min(1.0, std::max(0.0, t));
  }

  // The parameter t in [0, 1] of the point of the segment q0 q1 (plane points) whose lift on
  // the circular polygon c's plane lies on its rim, the root nearest to the segment's point
  // p; p's own parameter when the line misses the rim.
  double ontoCircle(const Flat& c, const P2& q0, const P2& q1, const P2& p) const {
    auto lift = [&](const P2& q) {
      const Vec3 o = axpy(scale(t1_, q.x), q.y, t2_);
      return axpy(o, level(c, q, o), n_);
    };
    const P2 d = minus(q1, q0);
    const double dd = dot2(d, d);
    const double u = dd > 0.0 ? dot2(minus(p, q0), d) / dd : 0.0;
    const Vec3 x0 = lift(q0);
    const Vec3 a = sub(x0, c.f->centre), b = sub(lift(q1), x0);
    const double bb = dot(b, b), ab = dot(a, b);
    const double disc = ab * ab - bb * (dot(a, a) - c.f->radius * c.f->radius);
    if (!(bb > 0.0) || !(disc >= 0.0)) return u;
    const double root = std::sqrt(disc);
    const double lo = (-ab - root) / bb, hi = (-ab + root) / bb;
    const double t = std::abs(lo - u) <= std::abs(hi - u) ? lo : hi;
    return std::min(1.0, std::max(0.0, t));
  }

  P2 projectOnSegmentLine(const Flat& s, const P2& q) const {
    const P2 d = minus(s.p[1], s.p[0]);
    const double dd = dot2(d, d);
    const double t = dd > 0.0 ? dot2(minus(q, s.p[0]), d) / dd : 0.0;
    return {s.p[0].x + t * d.x, s.p[0].y + t * d.y};
  }

  // Height along n of the feature above the plane point p (lifted: o).
  double level(const Flat& fl, const P2& p, const Vec3& o) const {
    const SupportFeature& f = *fl.f;
    if (f.kind == SupportFeature::Polygon)
      return dot(f.planeNormal, sub(f.vertex[0], o)) / dot(f.planeNormal, n_);
    const P2 d = minus(fl.p[1], fl.p[0]);
    const double dd = dot2(d, d);
    const double t = dd > 0.0 ? dot2(minus(p, fl.p[0]), d) / dd : 0.0;
    return dot(n_, axpy(f.vertex[0], t, sub(f.vertex[1], f.vertex[0])));
  }

  void emit(const P2& p, int la, int lb) {
    const Vec3 o = axpy(scale(t1_, p.x), p.y, t2_);
    const double levelA = level(s_.a, p, o), levelB = level(s_.b, p, o);
    ManifoldCandidate c;
    c.pointA = axpy(o, levelA, n_);
    c.pointB = axpy(o, levelB, n_);
    c.gap = levelA - levelB;
    c.featureA = la;
    c.featureB = lb;
    s_.found.push_back(c);
  }

  Vec3 n_, t1_, t2_;
  Scratch& s_;
  double extent_ = 0.0, tol_ = 0.0;
};

}  // namespace

bool clipFeatures(const SupportFeature& a, const SupportFeature& b, const Vec3& n, double sinTol,
                  std::vector<ManifoldCandidate>& out) {
  using K = SupportFeature;
  if (a.kind == K::Point || b.kind == K::Point) return false;
  thread_local Scratch scratch;
  Clip clip(a, b, n, scratch);
  if (!(clip.extent() > 0.0) || !std::isfinite(clip.extent())) return false;
  if (a.kind == K::Polygon && b.kind == K::Polygon) {
    clip.polygons();
  } else if (a.kind == K::Segment && b.kind == K::Segment) {
    if (!clip.segments(sinTol)) return false;
  } else {
    clip.segmentPolygon(a.kind == K::Segment);
  }
  clip.finish(out);
  return true;
}

}  // namespace detail
}  // namespace narrowphase
}  // namespace nsdyn
