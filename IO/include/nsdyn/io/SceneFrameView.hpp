/// @file SceneFrameView.hpp
/// @brief One frame of a rigid-body scene in plain arrays: what the scene writers
///        (SceneVtkWriter, SceneHdf5Writer) read, whichever engine stepped the scene
///        (the Kernel's ContactManager over NewtonEulerDS, or SceneEngine over a BodyStore).
#ifndef NSDYN_IO_SCENEFRAMEVIEW_HPP
#define NSDYN_IO_SCENEFRAMEVIEW_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/ShapeInstance.hpp"
#include "nsdyn/io/IoExport.hpp"

namespace nsdyn {
class BodyShapes;
class BodyStore;
class ContactSet;
struct SceneContacts;
}  // namespace nsdyn

namespace nsdyn::io {

/// A read-only view of one frame (bodies and contacts of one step) in arrays. The
/// pointers either point into the scene's own arrays (a BodyStore, SceneContacts or
/// ContactSet: nothing is copied) or into buffers the view owns (what had to be
/// formed: the poses and velocities of NewtonEulerDS bodies, world angular velocities).
/// A view is valid while the scene it was made from is neither changed nor destroyed
/// (make it after the step, hand it to the writers, drop it). It can be moved, not
/// copied (its pointers may point into its own buffers).
///
/// Bodies b in [0, bodyCount):
///  - isStatic[b]: 1 for a static body (infinite mass);
///  - ghost[b]: 1 for a copy of a body owned by another part (null: no ghost);
///  - id[b]: global id, unique, ≥ 0 (the index in the body list for the Kernel path, the
///    BodyStore's id for a SceneEngine);
///  - q[7b..7b+6]: body frame origin (the centre of mass of a dynamic body), then the
///    unit quaternion body → world (w, x, y, z);
///  - velocity[6b..6b+5]: linear velocity of the centre of mass, then the angular
///    velocity, both in the **world** frame (zero for a static body);
///  - shapes[shapeStart[b] .. shapeStart[b+1]): the shapes of body b with their offsets
///    in the body frame (at least one per body);
///  - mass[b], inertia[9b..9b+8] (body frame, row-major, about the centre of mass; 0 for a
///    static body): optional (null: not known); the HDF5 writer copies them to data/input.
/// Contacts c in [0, contactCount), in the engine's order (sorted by key):
///  - active[c] (1: in the step's problem; the writers write only these), bodyA[c],
///    bodyB[c] (indices into the bodies above);
///  - frame[9c..] (rows n, t1, t2, world; n from B to A), pointA/pointB[3c..] (world),
///    gap[c] (< 0: penetration);
///  - impulse[3c..] (λ, local, normal first), contactVelocity[3c..] (u after the step,
///    local), mu[c]. mu and contactVelocity may be null (a ContactSet filled by hand for
///    drawing only): the VTK writer does not read them, the HDF5 writer refuses such a
///    frame when it has contacts;
///  - key[c]: the contact's key (ContactDetector's layout: the two bodies, shapes and
///    features), as the engine holds it (a SceneEngine over several MPI ranks: with global
///    ids in place of the store indices); null when not known. The writers do not read it;
///    a gather over ranks (io::SceneParts) orders and matches contacts by it.
///
/// Parts (issue 22, "one writer serves 1 and N ranks"): the view of one part (rank) of a
/// distributed scene holds its owned bodies (ghost[b] = 1 for the others it holds) and its
/// contacts; io::SceneParts::gather (SceneParts.hpp) forms from the views of every part the
/// frame of the whole scene on rank 0, bodies ordered by global id, which the writers take.
/// `part` (this view's index) and `parts` (how many) are that hook. The writers take a frame
/// of one part (part = 0, parts = 1, no ghost) and throw nsdyn::Error for any other.
struct NSDYN_IO_API SceneFrameView {
  /// The view of the Kernel path: the body list of a ContactManager (global id = index)
  /// and its ContactSet. Throws nsdyn::Error("@p who: ContactSet", ...) unless each array
  /// the writers read has its size for contacts.size() contacts (mu and velocity: null in
  /// the view when they have not) and every contact's body indices are below bodies.size().
  static SceneFrameView of(const std::vector<BodyShapes>& bodies, const ContactSet& contacts,
                           const std::string& who = "scene frame");
  /// The view of a SceneEngine's arrays (engine.bodies(), engine.contacts()); the same
  /// checks ("@p who: SceneContacts").
  static SceneFrameView of(const BodyStore& bodies, const SceneContacts& contacts,
                           const std::string& who = "scene frame");

  SceneFrameView() = default;
  SceneFrameView(SceneFrameView&&) = default;
  SceneFrameView& operator=(SceneFrameView&&) = default;
  SceneFrameView(const SceneFrameView&) = delete;
  SceneFrameView& operator=(const SceneFrameView&) = delete;

  /// Throws nsdyn::Error(@p who + ": ...") unless the frame is one a writer of one
  /// process takes: part = 0 and parts = 1, no ghost, the body arrays present when there
  /// are bodies, shapeStart increasing with one shape per body at least, contact body
  /// indices below bodyCount, and (when @p dynamics) mu and contactVelocity present.
  void check(const std::string& who, bool dynamics) const;

  // parts (see the class comment)
  int part = 0;
  int parts = 1;

  // bodies
  std::size_t bodyCount = 0;
  const std::uint8_t* isStatic = nullptr;
  const std::uint8_t* ghost = nullptr;
  const std::int64_t* id = nullptr;
  const double* q = nullptr;
  const double* velocity = nullptr;
  const ShapeInstance* shapes = nullptr;
  const std::uint32_t* shapeStart = nullptr;
  const double* mass = nullptr;     // optional
  const double* inertia = nullptr;  // optional, 9 per body

  // contacts
  std::size_t contactCount = 0;
  const std::uint8_t* active = nullptr;
  const std::int32_t* bodyA = nullptr;
  const std::int32_t* bodyB = nullptr;
  const std::uint64_t* key = nullptr;
  const double* frame = nullptr;
  const double* pointA = nullptr;
  const double* pointB = nullptr;
  const double* gap = nullptr;
  const double* impulse = nullptr;
  const double* contactVelocity = nullptr;
  const double* mu = nullptr;

  bool isStaticBody(std::size_t b) const { return isStatic[b] != 0; }
  bool isGhost(std::size_t b) const { return ghost != nullptr && ghost[b] != 0; }
  /// The first shape of body b.
  const ShapeInstance& firstShape(std::size_t b) const { return shapes[shapeStart[b]]; }

 private:
  // what the view formed itself (moved with it: a vector's buffer keeps its address)
  std::vector<std::uint8_t> ownStatic_;
  std::vector<std::int64_t> ownId_;
  std::vector<double> ownQ_, ownVelocity_, ownMass_, ownInertia_;
  std::vector<ShapeInstance> ownShapes_;
  std::vector<std::uint32_t> ownShapeStart_;
};

}  // namespace nsdyn::io

#endif
