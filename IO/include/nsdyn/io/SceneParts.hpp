/// @file SceneParts.hpp
/// @brief How the parts (ranks) of a scene meet for its files: one writer, one checkpoint
///        format and one run loop for one process and N ranks. The base class is one
///        process (every call is the identity); Parallel/ implements it over MPI
///        (nsdyn::parallel::MpiSceneParts).
#ifndef NSDYN_IO_SCENEPARTS_HPP
#define NSDYN_IO_SCENEPARTS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/ShapeInstance.hpp"
#include "nsdyn/io/IoExport.hpp"
#include "nsdyn/io/SceneFrameView.hpp"

namespace nsdyn {
class BodyStore;
struct SceneContacts;
}  // namespace nsdyn

namespace nsdyn::io {

/// A frame that owns its arrays (what a gather forms on the writing rank). view() points
/// into them, with the layout of SceneFrameView; keep the arrays unchanged while a view is
/// in use.
struct NSDYN_IO_API SceneFrameArrays {
  // bodies
  std::vector<std::uint8_t> isStatic;
  std::vector<std::int64_t> id;
  std::vector<double> q, velocity;  // 7 and 6 per body (velocity: world linear, world angular)
  std::vector<ShapeInstance> shapes;
  std::vector<std::uint32_t> shapeStart{0};
  std::vector<double> mass, inertia;  // 1 and 9 per body; empty: not known (null in view())
  // contacts
  std::vector<std::uint8_t> active;
  std::vector<std::int32_t> bodyA, bodyB;
  std::vector<std::uint64_t> key;  // empty: keys not known (view().key null)
  std::vector<double> frame, pointA, pointB, gap, impulse, contactVelocity, mu;
  // mu and contactVelocity empty: not known (null in view(), for contacts drawn only)

  std::size_t bodyCount() const { return isStatic.size(); }
  std::size_t contactCount() const { return active.size(); }
  SceneFrameView view() const;
};

/// The parts of a scene (see the file comment). Every member is collective over the parts.
class NSDYN_IO_API SceneParts {
 public:
  virtual ~SceneParts() = default;
  /// This part and the number of parts.
  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  /// True on the part that writes the files (rank 0).
  bool writer() const { return rank() == 0; }
  /// Collective: the frame of the whole scene on rank 0, from every part's @p local view
  /// (its owned bodies and ghosts, its contacts). On rank 0: the bodies of every part once
  /// (ghosts dropped) sorted by global id, the contacts of every part (body indices into
  /// that list); @p local itself on one process (nothing copied). nullptr on the other ranks.
  /// Over several ranks a contact's bodies are read from its key (global ids) when the view
  /// has keys, from its body indices otherwise.
  virtual const SceneFrameView* gather(const SceneFrameView& local) { return &local; }
  /// Collective: gather() of a SceneEngine's arrays (engine.bodies(), engine.contacts())
  /// after a step. Use this one for an engine distributed over ranks: after a step that
  /// migrated bodies, its contacts still index the store as it was at detection
  /// (MpiSceneExchange), so SceneFrameView::of(bodies, contacts) may refuse them on some rank
  /// (an index beyond the new store); this gather never reads those indices (each contact's
  /// bodies come from its key). One process: SceneFrameView::of(bodies, contacts), kept in
  /// this object until the next call.
  virtual const SceneFrameView* gather(const BodyStore& bodies, const SceneContacts& contacts);
  /// Collective: every part's @p bytes, in rank order, on rank 0 (empty on the others);
  /// one process: {bytes}. What a checkpoint of several parts gathers its records with.
  virtual std::vector<std::string> gatherBytes(const std::string& bytes) { return {bytes}; }
  /// Collective: when @p fault is not empty on any part, every part throws the same
  /// nsdyn::Error (the first faulty rank's message, with its rank when there are several).
  virtual void agree(const std::string& fault);
  /// Collective: values[0..count) replaced by their sum / largest value over the parts.
  virtual void sum(double* /*values*/, int /*count*/) {}
  virtual void max(double* /*values*/, int /*count*/) {}

 private:
  SceneFrameView local_;  // gather(bodies, contacts) on one process
};

}  // namespace nsdyn::io

#endif
