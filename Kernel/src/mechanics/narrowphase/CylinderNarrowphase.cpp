// Closed form of a sphere against a cylinder (axis along the cylinder's body z): the
// nearest point of the solid cylinder to the sphere's centre (side, cap or rim).
#include <algorithm>
#include <cmath>

#include "NarrowphaseMath.hpp"
#include "nsdyn/Narrowphase.hpp"

namespace nsdyn {
namespace narrowphase {

using namespace detail;

int sphereCylinder(const Vec3& center, double radius, const Pose& cylinder, double cylinderRadius,
                   double halfLength, double margin, ContactList& out) {
  // centre in the cylinder frame: radial part (rho along u) and axial coordinate a
  const Vec3 p = cylinder.toBody(center);
  const double rho = std::hypot(p[0], p[1]);
  const double a = p[2];
  const Vec3 u = rho > 0.0 ? Vec3{p[0] / rho, p[1] / rho, 0.0} : Vec3{1.0, 0.0, 0.0};
  Vec3 onCylinder, n;  // body frame: nearest surface point, outward normal (towards the centre)
  double distance;     // signed distance of the centre to the cylinder surface
  int feature;         // 0 side, 1 cap -z, 2 cap +z, 3 rim -z, 4 rim +z
  const bool inRadius = rho <= cylinderRadius, inLength = std::fabs(a) <= halfLength;
  if (inRadius && inLength) {
    // centre inside: the nearer of the side and the caps
    const double toSide = cylinderRadius - rho, toCap = halfLength - std::fabs(a);
    if (toSide < toCap) {
      n = u;
      onCylinder = {cylinderRadius * u[0], cylinderRadius * u[1], a};
      distance = -toSide;
      feature = 0;
    } else {
      const double s = a >= 0.0 ? 1.0 : -1.0;
      n = {0.0, 0.0, s};
      onCylinder = {p[0], p[1], s * halfLength};
      distance = -toCap;
      feature = s > 0.0 ? 2 : 1;
    }
  } else if (inLength) {  // beside the side
    n = u;
    onCylinder = {cylinderRadius * u[0], cylinderRadius * u[1], a};
    distance = rho - cylinderRadius;
    feature = 0;
  } else if (inRadius) {  // above or below a cap
    const double s = a >= 0.0 ? 1.0 : -1.0;
    n = {0.0, 0.0, s};
    onCylinder = {p[0], p[1], s * halfLength};
    distance = std::fabs(a) - halfLength;
    feature = s > 0.0 ? 2 : 1;
  } else {  // nearest to a rim
    const double s = a >= 0.0 ? 1.0 : -1.0;
    onCylinder = {cylinderRadius * u[0], cylinderRadius * u[1], s * halfLength};
    const Vec3 d = sub(p, onCylinder);
    distance = norm(d);
    n = scale(d, 1.0 / distance);
    feature = s > 0.0 ? 4 : 3;
  }
  const double gap = distance - radius;
  if (!(gap <= margin)) return 0;
  // A = sphere, B = cylinder: the normal from B to A is the cylinder's outward normal
  ContactPoint cp;
  cp.normal = cylinder.rotate(n);
  cp.pointB = cylinder.toWorld(onCylinder);
  cp.pointA = axpy(center, -radius, cp.normal);
  cp.gap = gap;
  cp.featureA = 0;
  cp.featureB = feature;
  out.push_back(cp);
  return 1;
}

}  // namespace narrowphase
}  // namespace nsdyn
