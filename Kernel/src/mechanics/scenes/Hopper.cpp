// Hopper: a funnel of inclined static box plates over an optional floor; its volume and the
// top width at which it holds a given volume.
#include <cmath>

#include "SceneCommon.hpp"
#include "nsdyn/Error.hpp"

namespace nsdyn {
namespace scenes {

namespace {
const char* const generator = "hopper";
const double sqrtHalf = std::sqrt(0.5);

// Checks every field of @p h but topWidth, which @p withTop adds.
void checkSpec(const HopperSpec& h, bool withTop) {
  detail::requireFinite(generator, "center", h.center);
  detail::requirePositive(generator, "outletWidth", h.outletWidth);
  if (withTop) {
    detail::requirePositive(generator, "topWidth", h.topWidth);
    if (!(h.topWidth > h.outletWidth))
      throw Error(generator, "topWidth > outletWidth = " + detail::number(h.outletWidth),
                  "topWidth = " + detail::number(h.topWidth));
  }
  if (!(h.angle > 0.0 && h.angle < 0.5 * M_PI))
    throw Error(generator, "angle in (0, pi/2) rad", "angle = " + detail::number(h.angle) + " rad");
  detail::requirePositive(generator, "outletHeight", h.outletHeight);
  if (h.plates != 2 && h.plates != 4)
    throw Error(generator, "plates = 2 or 4", "plates = " + std::to_string(h.plates));
  if (h.plates == 2) detail::requirePositive(generator, "depth", h.depth);
  detail::requirePositive(generator, "wallThickness", h.wallThickness);
}
}  // namespace

// The funnel is a frustum of the pyramid (4 plates) or wedge (2 plates) whose apex lies
// below the outlet: a square pyramid of base W rises W tanθ / 2 and holds W³ tanθ / 6, a
// wedge of width W and length L holds L W² tanθ / 4; the funnel is the difference of the
// one through the top edges and the one through the outlet edges.
double hopperVolume(const HopperSpec& h) {
  checkSpec(h, true);
  const double W = h.topWidth, w = h.outletWidth, tanTheta = std::tan(h.angle);
  if (h.plates == 4) return (W * W * W - w * w * w) * tanTheta / 6.0;
  return h.depth * (W * W - w * w) * tanTheta / 4.0;
}

double hopperTopWidth(const HopperSpec& h, double volume) {
  checkSpec(h, false);
  if (!(std::isfinite(volume) && volume >= 0.0))
    throw Error(generator, "a volume finite and >= 0 (m^3)", "volume = " + detail::number(volume));
  const double w = h.outletWidth, tanTheta = std::tan(h.angle);
  if (h.plates == 4) return std::cbrt(w * w * w + 6.0 * volume / tanTheta);
  return std::sqrt(w * w + 4.0 * volume / (h.depth * tanTheta));
}

std::vector<StaticPart> hopper(const HopperSpec& h) {
  // Check the input before any work.
  checkSpec(h, true);

  // Plate geometry: horizontal run s, slant length s / cos θ, rise s tan θ.
  const double t = h.wallThickness, theta = h.angle;
  const double run = 0.5 * (h.topWidth - h.outletWidth);
  const double slant = run / std::cos(theta), rise = run * std::tan(theta);
  const double zOutlet = h.center[2] + h.outletHeight;
  const double halfSpan =
      h.plates == 4 ? 0.5 * h.topWidth + t : 0.5 * h.depth + t;  // along the outlet edge

  // The +x plate, relative to the outlet centre: local x up the slope (cos θ, 0, sin θ),
  // local z the inner normal (−sin θ, 0, cos θ): the rotation about y by −θ. Its box
  // centre is the lower inner edge + slant/2 up the slope − t/2 along the normal.
  const double c = std::cos(theta), s = std::sin(theta);
  const Shape::Quat tilt{std::cos(-0.5 * theta), 0.0, std::sin(-0.5 * theta), 0.0};
  const Shape::Vec3 offset{0.5 * h.outletWidth + 0.5 * slant * c + 0.5 * t * s, 0.0,
                           0.5 * slant * s - 0.5 * t * c};
  // The other plates: the +x plate turned about the vertical through the outlet centre,
  // by π (−x), π/2 (+y), −π/2 (−y); (cos φ, sin φ) and the quaternion of each, exact.
  struct Turn {
    const char* suffix;
    double cosPhi, sinPhi;
    Shape::Quat q;
  };
  const Turn turns[4] = {{"_plate_+x", 1.0, 0.0, {1.0, 0.0, 0.0, 0.0}},
                         {"_plate_-x", -1.0, 0.0, {0.0, 0.0, 0.0, 1.0}},
                         {"_plate_+y", 0.0, 1.0, {sqrtHalf, 0.0, 0.0, sqrtHalf}},
                         {"_plate_-y", 0.0, -1.0, {sqrtHalf, 0.0, 0.0, -sqrtHalf}}};
  std::vector<StaticPart> parts;
  for (int k = 0; k < h.plates; ++k) {
    const Turn& turn = turns[k];
    const Shape::Vec3 at{h.center[0] + turn.cosPhi * offset[0],
                         h.center[1] + turn.sinPhi * offset[0], zOutlet + offset[2]};
    parts.push_back(detail::boxPart(h.namePrefix + turn.suffix, {0.5 * slant, halfSpan, 0.5 * t},
                                    at, quaternion::multiply(turn.q, tilt)));
  }

  // Two plates: vertical walls closing the wedge at y = ±depth/2, from t below the outlet to the
  // plates' top.
  if (h.plates == 2 && h.sideWalls) {
    const double height = rise + t;
    const Shape::Vec3 half{0.5 * h.topWidth + t, 0.5 * t, 0.5 * height};
    const double y = 0.5 * h.depth + 0.5 * t, z = zOutlet - t + 0.5 * height;
    parts.push_back(
        detail::boxPart(h.namePrefix + "_side_-y", half, {h.center[0], h.center[1] - y, z}));
    parts.push_back(
        detail::boxPart(h.namePrefix + "_side_+y", half, {h.center[0], h.center[1] + y, z}));
  }

  // Floor: a slab whose top face is at center z, under the whole funnel.
  if (h.floor) {
    const double halfY = h.plates == 4 ? 0.5 * h.topWidth : 0.5 * h.depth;
    parts.push_back(detail::boxPart(h.namePrefix + "_floor",
                                    {0.5 * h.topWidth + t, halfY + t, 0.5 * t},
                                    {h.center[0], h.center[1], h.center[2] - 0.5 * t}));
  }
  return parts;
}

}  // namespace scenes
}  // namespace nsdyn
