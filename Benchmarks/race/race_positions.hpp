// race_positions.hpp: the race's exchange with engines that run outside a C++ driver
// (Siconos, through its Python interface): race_measure writes a scene as text for them, they
// write the bodies after each step back as text, and race_measure measures that file with the
// same Tracker as every C++ driver (one quality code for all engines).
//
// Scene file (writeScene): a header line
//   # race scene NAME h H gravity G mu MU e E steps K drift_from D length_scale L
//   reference_iterations R
// then one line per item: "plane nx ny nz d" (free space n.x >= d), "fixed hx hy hz x y z qw qx
// qy qz" (a static box), "body sphere|box hx hy hz mass ix iy iz x y z qw qx qy qz vx vy vz wx wy
// wz" (a dynamic body: half-extents, sphere radius = hx; principal inertia; w in the world frame).
//
// Positions file (measurePositions): a header line "# race positions bodies N", then per step
// a line "step K ms T err E iterations I" (T: wall ms of the engine's step; E: its solver's
// error, < 0 if none; I: its iterations, < 0 if not known) followed by N lines "x y z qw qx qy
// qz vx vy vz wx wy wz" in the scene's body order (w in the world frame).
#pragma once

#include <iosfwd>
#include <string>

#include "race_driver.hpp"

namespace race {

/// Writes @p s in the scene format above.
void writeScene(const Scene& s, std::ostream& out);

/// What measurePositions found besides the measures.
struct PositionsResult {
  LoopResult loop;             ///< ms per step (mean of the steps' T) and the measures
  double iterationsMean = -1;  ///< mean of the steps' I (< 0 if none given)
};

/// Measures the positions file @p path of a run of @p s (s.steps steps expected: fewer is an
/// error naming the file and line, as is a malformed line); @p seriesPath as runLoop.
PositionsResult measurePositions(const Scene& s, const std::string& path,
                                 const std::string& seriesPath = "");

}  // namespace race
