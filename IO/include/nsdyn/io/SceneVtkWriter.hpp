/// @file SceneVtkWriter.hpp
/// @brief VTK XML frames of a rigid-body scene (bodies with shapes, contacts of
///        the step) for ParaView: two .vtp files per frame, two .pvd collections.
#ifndef NSDYN_IO_SCENEVTKWRITER_HPP
#define NSDYN_IO_SCENEVTKWRITER_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/ContactSet.hpp"
#include "nsdyn/io/IoExport.hpp"
#include "nsdyn/io/SceneFrameView.hpp"

namespace nsdyn::io {

/// Writes a rigid-body scene frame by frame (doc/scene-outputs.md):
///  - `dir/name_bodies_NNNNNN.vtp`: one vertex per body at its position (body frame
///    origin, the centre of mass of a dynamic body). Point data:
///    "body" (Int32: index in the body list, or in the SceneFrameView), "orientation" (4: unit
///    quaternion w x y z, body → world), "velocity" and "angular_velocity" (3, world frame; zero
///    for a static body), "shape_kind" (Int32: ShapeKind of the first shape, 0 sphere, 1 box, 2
///    capsule, 3 cylinder, 4 convex hull), "shape_size" (characteristicSize() of the first shape),
///    "half_extents" (3: half-extents of the first shape's bounding box in its own frame), "radius"
///    (sphere, capsule, cylinder radius; 0 otherwise), "half_length" (capsule, cylinder; 0
///    otherwise), "glyph_tensor" (9: R_s·diag(2·half_extents), R_s the rotation shape → world of
///    the first shape, column-major as vtkTensorGlyph reads it). Bodies whose first shape is
///    infinite (half-spaces) are left out; the "body" array keeps the indices of the others.
///  - `dir/name_contacts_NNNNNN.vtp`: one vertex per active contact (active[c] ≠ 0)
///    at (pointA + pointB)/2. Point data: "normal" (3: n, from B to A), "force"
///    (3: (λn n + λt1 t1 + λt2 t2)/h, the mean force on A over the step, world),
///    "normal_force" (λn/h), "gap", "bodyA", "bodyB" (Int32: body indices).
///  - finish(): `dir/name_bodies.pvd` and `dir/name_contacts.pvd` listing the frames
///    with their times.
/// Numbers are written in ASCII with 17 significant digits (exact round trip).
/// Every file is written under a temporary name and renamed when complete; a path
/// is listed in files() only once that succeeded. Failures throw nsdyn::Error
/// naming the path.
class NSDYN_IO_API SceneVtkWriter {
 public:
  /// Frames go to @p dir (created with its parents; nsdyn::Error naming it if that
  /// fails), file names start with @p name (not empty, no '/').
  SceneVtkWriter(std::string dir, std::string name);

  /// Write frame number frameCount() at time @p time: the bodies and the active
  /// contacts of @p frame; @p h > 0 is the time step (force = impulse / h). The frame
  /// must be of one part (SceneFrameView::check; nsdyn::Error otherwise, nothing written).
  void writeFrame(double time, double h, const SceneFrameView& frame);
  /// writeFrame(time, h, SceneFrameView::of(bodies, contacts)): a ContactManager's
  /// bodies() and contacts(). Contact body indices must be < bodies.size() and the
  /// ContactSet arrays of their sizes (nsdyn::Error otherwise, nothing written).
  void writeFrame(double time, double h, const std::vector<BodyShapes>& bodies,
                  const ContactSet& contacts);
  /// writeFrame(time, h, SceneFrameView::of(bodies, contacts)): a SceneEngine's
  /// bodies() and contacts() after a step.
  void writeFrame(double time, double h, const BodyStore& bodies, const SceneContacts& contacts);

  /// Write (or rewrite, with the frames written so far) the two .pvd files.
  /// Returns their paths: bodies first, contacts second.
  std::vector<std::string> finish();

  std::size_t frameCount() const { return times_.size(); }
  /// Every file written so far (.vtp in order, then the .pvd files once finish() ran).
  const std::vector<std::string>& files() const { return files_; }
  std::string bodiesPvdPath() const;
  std::string contactsPvdPath() const;

 private:
  std::string dir_, name_;
  std::vector<double> times_;
  std::vector<std::string> bodyFiles_, contactFiles_;  // names relative to dir_
  std::vector<std::string> files_;
};

}  // namespace nsdyn::io

#endif
