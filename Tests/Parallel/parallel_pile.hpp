// The pile of the MPI solver tests (test_parallel_solve, test_parallel_nsgs): a settled-looking
// lattice of spheres, the bottom layer fixed, small random velocities plus h g.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "nsdyn/parallel/BodyArrays.hpp"

namespace nsdyn::test::parallel {

using nsdyn::parallel::BodyArrays;

constexpr int kNx = 10, kNy = 10, kNz = 8;
constexpr double kRadius = 0.05;
constexpr double kSpacing = 2.0 * kRadius - 0.002;  // 2 mm overlaps
constexpr double kJitter = 0.0005;
constexpr double kMargin = 0.1 * kRadius;
constexpr double kStep = 1e-3;
constexpr double kGravity = -9.81;
// mu = 0.1: at mu = 0.3 APGD's De Saxcé loop stalls on this pile near 3e-10 (200,000
// iterations on one process as well: the solver, not the distribution)
constexpr double kMu = 0.1, kSpeed = 0.01, kSpin = 0.1;

// The whole scene, identical on every rank: body k (x fastest, then y, then z) has id k.
struct Scene {
  BodyArrays bodies;
  std::vector<double> inverseMass;   // 0 for the bottom layer
  std::vector<double> freeVelocity;  // 6 per body: v + h g, ω
};

// isolated: 800 more free bodies far from the pile (3 m away in x, 30 cm apart, no contact),
// so that with 2 or 3 ranks some rank owns no contact at all.
Scene makeScene(bool isolated) {
  Scene s;
  std::mt19937_64 random(20261124);
  std::uniform_real_distribution<double> jitter(-kJitter, kJitter), speed(-kSpeed, kSpeed),
      spin(-kSpin, kSpin);
  const double mass = 2500.0 * 4.0 / 3.0 * M_PI * kRadius * kRadius * kRadius;
  std::int64_t id = 0;
  for (int iz = 0; iz < kNz; ++iz)
    for (int iy = 0; iy < kNy; ++iy)
      for (int ix = 0; ix < kNx; ++ix, ++id) {
        const double x = ix * kSpacing + jitter(random), y = iy * kSpacing + jitter(random),
                     z = iz * kSpacing + jitter(random);
        s.bodies.push_back(id, x, y, z, kRadius);
        const bool fixed = iz == 0;
        s.inverseMass.push_back(fixed ? 0.0 : 1.0 / mass);
        double v[6] = {speed(random), speed(random), speed(random) + kStep * kGravity,
                       spin(random),  spin(random),  spin(random)};
        for (double c : v) s.freeVelocity.push_back(fixed ? 0.0 : c);
      }
  for (int k = 0; isolated && k < kNx * kNy * kNz; ++k, ++id) {
    s.bodies.push_back(id, 3.0 + 0.3 * (k % kNx), 0.3 * ((k / kNx) % kNy), 0.3 * (k / (kNx * kNy)),
                       kRadius);
    s.inverseMass.push_back(1.0 / mass);
    for (double c : {0.0, 0.0, kStep * kGravity, 0.0, 0.0, 0.0}) s.freeVelocity.push_back(c);
  }
  return s;
}

}  // namespace nsdyn::test::parallel
