// The frames `nsdyn render` draws, read from a scene run's VTK files (NAME_bodies.pvd and its
// .vtp frames, NAME_contacts.pvd for the forces): doc/scene-outputs.md for their layout.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nsdyn/BodyShapes.hpp>

namespace nsdyn::cli {

/// One frame to draw: every body of the model's list (a body the frame leaves out, a plane
/// or a static body, keeps its model pose).
struct RenderFrame {
  long index = 0;             ///< frame number NNNNNN of the .vtp files
  double time = 0.0;          ///< its time in the .pvd
  std::vector<double> q;      ///< 7 per body: x, y, z, qw, qx, qy, qz (body frame → world)
  std::vector<double> value;  ///< 1 per body: speed (m/s) or contact force (N); 0 static
};

/// A time asked with --times outside the frames: a usage error.
struct RenderTimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The frames of @p times (the nearest frame of each, in the order asked; the last frame when
/// @p times is empty) from DIR/NAME_bodies.pvd; with @p force the value of a body is the sum
/// of the norms of the forces of its active contacts (NAME_contacts.pvd), else its speed.
/// Throws nsdyn::Error naming the file for a missing or malformed file, RenderTimeError for
/// a time outside the frames.
std::vector<RenderFrame> readRenderFrames(const std::string& dir, const std::string& name,
                                          const std::vector<BodyShapes>& bodies,
                                          const std::vector<double>& times, bool force);

}  // namespace nsdyn::cli
