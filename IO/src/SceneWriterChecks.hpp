// Private helpers of the scene writers (SceneVtkWriter, SceneHdf5Writer): the checks of
// what they are given before they write anything.
#ifndef NSDYN_IO_SCENEWRITERCHECKS_HPP
#define NSDYN_IO_SCENEWRITERCHECKS_HPP

#include <cstddef>
#include <string>

#include "nsdyn/ContactSet.hpp"

namespace nsdyn::io::detail {

/// Throws nsdyn::Error(@p writer + ": ContactSet", ...) unless each array of @p c has
/// its size for c.size() contacts (bodyA, bodyB, frame, pointA, pointB, gap, impulse,
/// active; mu and velocity too when @p dynamics), and Error(@p writer + ": contact k",
/// ...) unless both body indices of every contact are in [0, @p bodies).
void checkContacts(const ContactSet& c, std::size_t bodies, const std::string& writer,
                   bool dynamics);

}  // namespace nsdyn::io::detail

#endif
