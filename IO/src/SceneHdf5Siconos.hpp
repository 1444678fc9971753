// The shape and object descriptions of Siconos's mechanics I/O in a scene HDF5 file
// (data/ref, data/input, data/nslaws, ...), which siconos_vview, siconos_vexport and
// siconos_info read besides the time series (doc/scene-outputs.md, "Siconos's tools").
// Internal to nsdyn_io: SceneHdf5Writer.cpp calls these with its open `data` group.
#ifndef NSDYN_IO_SCENEHDF5SICONOS_HPP
#define NSDYN_IO_SCENEHDF5SICONOS_HPP

#include <hdf5.h>

#include <cstddef>
#include <vector>

#include "nsdyn/io/SceneFrameView.hpp"

namespace nsdyn::io::detail {

/// Create the empty groups data/ref, data/input, data/nslaws and data/log under @p data
/// (Siconos's MechanicsHdf5 creates them when it opens a file: a file opened read-only
/// must have them). False if one cannot be created.
bool createSiconosGroups(hid_t data);

/// Write data/ref (one dataset per distinct shape: Sphere, Box, Capsule, Cylinder
/// primitives, convex vertex lists, half-spaces as a thin Box under the scene) and
/// data/input (one group per body, with its Siconos id @p ids[b], kind, mass, inertia,
/// pose and velocity of this frame, time of birth @p time, and one contactor dataset per
/// shape) for @p frame, bodies in the order @p order. False if a write fails.
bool writeSiconosObjects(hid_t data, double time, const SceneFrameView& frame,
                         const std::vector<int>& ids, const std::vector<std::size_t>& order);

/// Write data/nslaws: one NewtonImpactFrictionNSL per friction coefficient of @p mus
/// (sorted, distinct). False if a write fails.
bool writeSiconosLaws(hid_t data, const std::vector<double>& mus);

}  // namespace nsdyn::io::detail

#endif
