// The mixed pile of the MPI scene-engine tests (test_parallel_engine, test_parallel_scene_files):
// 144 bodies of five kinds (spheres, boxes, capsules, cylinders, convex hulls; small random
// tilts, a swirl of 3 rad/s so that bodies and their contacts cross the ranks' cuts) in 4 layers
// over the floor of a box of half-spaces, mu 0.3, e 0. The same scene on every rank.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"

namespace nsdyn::test::parallel {

// A deterministic generator (the same numbers on every rank).
struct Lcg {
  std::uint64_t s = 0x2545F4914F6CDD1Dull;
  double next() {  // in [0, 1)
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) * (1.0 / 9007199254740992.0);
  }
  double in(double a, double b) { return a + (b - a) * next(); }
};

/// The box (half-spaces: floor z = 0, walls x, y = 0 and L) and 144 bodies of five kinds on a
/// 6 x 6 x 4 lattice; @p extra: one sphere more above the pile.
inline void buildPile(nsdyn::SceneEngine& e, bool extra) {
  using nsdyn::ShapeInstance;
  e.setDefaultMaterial({0.3, 0.0});
  const double L = 0.40;
  const auto plane = [&](nsdyn::Shape::Vec3 n, double d) {
    e.addStatic({ShapeInstance{std::make_shared<nsdyn::HalfSpaceShape>(n, d)}});
  };
  plane({0.0, 0.0, 1.0}, 0.0);
  plane({1.0, 0.0, 0.0}, 0.0);
  plane({-1.0, 0.0, 0.0}, -L);
  plane({0.0, 1.0, 0.0}, 0.0);
  plane({0.0, -1.0, 0.0}, -L);
  const nsdyn::SP::Shape sphere = std::make_shared<nsdyn::SphereShape>(0.028);
  const nsdyn::SP::Shape box =
      std::make_shared<nsdyn::BoxShape>(nsdyn::Shape::Vec3{0.024, 0.022, 0.02});
  const nsdyn::SP::Shape capsule = std::make_shared<nsdyn::CapsuleShape>(0.018, 0.012);
  const nsdyn::SP::Shape cylinder = std::make_shared<nsdyn::CylinderShape>(0.022, 0.02);
  const nsdyn::SP::Shape hull = std::make_shared<nsdyn::ConvexHullShape>(
      std::vector<nsdyn::Shape::Vec3>{{0.028, 0.0, 0.0},
                                      {-0.026, 0.002, 0.0},
                                      {0.0, 0.027, 0.003},
                                      {0.001, -0.025, 0.0},
                                      {0.0, 0.0, 0.026},
                                      {0.002, 0.0, -0.027},
                                      {0.016, 0.015, 0.014},
                                      {-0.015, -0.014, -0.013}});
  const nsdyn::SP::Shape kinds[5] = {sphere, box, capsule, cylinder, hull};
  Lcg rng;
  int k = 0;
  for (int layer = 0; layer < 4; ++layer)
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j, ++k) {
        nsdyn::BodySpec spec;
        spec.name = "body" + std::to_string(k);
        spec.shapes = {ShapeInstance{kinds[k % 5]}};
        spec.density = 1000.0;
        spec.position = {0.055 + 0.057 * i + rng.in(-0.0005, 0.0005),
                         0.055 + 0.057 * j + rng.in(-0.0005, 0.0005), 0.034 + 0.06 * layer};
        // a small tilt about a random horizontal axis
        const double angle = rng.in(-0.1, 0.1), phi = rng.in(0.0, 6.283185307179586);
        spec.orientation = {std::cos(0.5 * angle), std::sin(0.5 * angle) * std::cos(phi),
                            std::sin(0.5 * angle) * std::sin(phi), 0.0};
        // a swirl about the box's axis (3 rad/s: bodies cross the ranks' cuts, with their
        // contacts) and a random part
        const double rx = spec.position[0] - 0.5 * L, ry = spec.position[1] - 0.5 * L;
        spec.velocity = {-3.0 * ry + rng.in(-0.05, 0.05),
                         3.0 * rx + rng.in(-0.05, 0.05),
                         rng.in(-0.1, 0.0),
                         rng.in(-1.0, 1.0),
                         rng.in(-1.0, 1.0),
                         rng.in(-1.0, 1.0)};
        e.addBody(spec);
      }
  if (extra) {
    nsdyn::BodySpec spec;
    spec.name = "extra";
    spec.shapes = {ShapeInstance{sphere}};
    spec.density = 1000.0;
    spec.position = {0.2, 0.2, 0.6};
    e.addBody(spec);
  }
}

// Every rank takes the one-process state of rank 0's @p whole engine (n bodies: q then v,
// broadcast) into its owned bodies and ghost copies alike.
inline void takeWholeState(SceneEngine& engine, const SceneEngine* whole, std::size_t n, int rank) {
  std::vector<double> state(13 * n);
  if (rank == 0) {
    std::copy(whole->bodies().q.begin(), whole->bodies().q.end(), state.begin());
    std::copy(whole->bodies().v.begin(), whole->bodies().v.end(),
              state.begin() + static_cast<std::ptrdiff_t>(7 * n));
  }
  MPI_Bcast(state.data(), static_cast<int>(state.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  BodyStore& store = engine.bodies();
  for (std::size_t b = 0; b < store.size(); ++b) {
    const std::size_t id = static_cast<std::size_t>(store.id[b]);
    std::copy(&state[7 * id], &state[7 * id] + 7, &store.q[7 * b]);
    std::copy(&state[7 * n + 6 * id], &state[7 * n + 6 * id] + 6, &store.v[6 * b]);
  }
}

}  // namespace nsdyn::test::parallel
