/// @file body_vtk.hpp
/// @brief VTK frames of rigid bodies for ParaView (examples).
#ifndef NSDYN_EXAMPLES_BODY_VTK_HPP
#define NSDYN_EXAMPLES_BODY_VTK_HPP

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nsdyn/NewtonEulerDS.hpp"

namespace nsdyn::examples {

/// Writes, per call to frame(), `dir/name_NNNNNN.vtp` (VTK PolyData, ASCII):
/// one vertex per body at its centre of mass, with point arrays
/// "orientation" (4 components, quaternion q0 q1 q2 q3, body → world),
/// "velocity" (3, world frame), "angular_velocity" (3, world frame) and
/// "body" (index); finish() writes `dir/name.pvd` listing the frames with
/// their times. In ParaView: open the .pvd, add a Glyph filter oriented by
/// "orientation" (or use the Python calculator on the quaternion).
class BodyVtkWriter {
 public:
  BodyVtkWriter(std::string dir, std::string name,
                std::vector<std::shared_ptr<NewtonEulerDS>> bodies);
  /// Write the frame of time @p t (nsdyn::Error if the file cannot be written).
  void frame(double t);
  /// Write the .pvd and return its path (nsdyn::Error if it cannot be written).
  std::string finish();
  std::size_t frames() const { return frames_.size(); }

 private:
  std::string dir_, name_;
  std::vector<std::shared_ptr<NewtonEulerDS>> bodies_;
  std::vector<std::pair<double, std::string>> frames_;  // time, file name (relative to dir_)
};

}  // namespace nsdyn::examples

#endif
