// Private helpers of the scene writers (SceneFrameView, SceneVtkWriter, SceneHdf5Writer):
// the checks of what they are given before they write anything.
#ifndef NSDYN_IO_SCENEWRITERCHECKS_HPP
#define NSDYN_IO_SCENEWRITERCHECKS_HPP

#include <cstddef>
#include <cstdint>
#include <string>

namespace nsdyn::io::detail {

/// Throws nsdyn::Error(@p where, "WHAT of N entries (n contacts)", size) unless
/// @p size == @p per · @p n.
void needEntries(const std::string& where, const char* what, std::size_t size, std::size_t per,
                 std::size_t n);

/// Throws nsdyn::Error(@p writer + ": contact k", ...) unless both body indices of every
/// contact k < @p n are in [0, @p bodies).
void checkBodyIndices(const std::int32_t* bodyA, const std::int32_t* bodyB, std::size_t n,
                      std::size_t bodies, const std::string& writer);

/// The arrays the writers read of a ContactSet or SceneContacts @p c (the same names in
/// both): bodyA, bodyB, frame, pointA, pointB, gap, impulse, active of their sizes for
/// c.size() contacts (nsdyn::Error(@p writer + ": " + @p type, ...) otherwise), body
/// indices below @p bodies. mu and velocity are read only by the HDF5 writer: @p hasMu
/// and @p hasVelocity say whether they have their sizes (that writer refuses contacts
/// without them, SceneFrameView::check).
template <class Contacts>
void checkContactArrays(const Contacts& c, std::size_t bodies, const std::string& writer,
                        const char* type, bool& hasMu, bool& hasVelocity) {
  const std::size_t n = c.size();
  const std::string where = writer + ": " + type;
  needEntries(where, "bodyA", c.bodyA.size(), 1, n);
  needEntries(where, "bodyB", c.bodyB.size(), 1, n);
  needEntries(where, "frame", c.frame.size(), 9, n);
  needEntries(where, "pointA", c.pointA.size(), 3, n);
  needEntries(where, "pointB", c.pointB.size(), 3, n);
  needEntries(where, "gap", c.gap.size(), 1, n);
  needEntries(where, "impulse", c.impulse.size(), 3, n);
  needEntries(where, "active", c.active.size(), 1, n);
  hasMu = c.mu.size() == n;
  hasVelocity = c.velocity.size() == 3 * n;
  checkBodyIndices(c.bodyA.data(), c.bodyB.data(), n, bodies, writer);
}

}  // namespace nsdyn::io::detail

#endif
