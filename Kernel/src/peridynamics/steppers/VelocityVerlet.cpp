#include "nsdyn/VelocityVerlet.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "mechanics/Threads.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

double VelocityVerlet::stableStep(const PeridynamicBody& body) {
  const double wave = body.material().waveSpeed(body.options().density);
  double bound =
      wave > 0.0 ? body.options().spacing / wave : std::numeric_limits<double>::infinity();
  std::vector<double> a(body.size(), 0.0);
  body.material().implicitStiffness(body, body.x.data(), a.data());
  for (std::size_t i = 0; i < body.size(); ++i)
    if (!body.prescribed[i] && a[i] > 0.0)
      bound = std::min(bound, std::sqrt(2.0 * body.mass[i] / a[i]));
  return bound;
}

PeridynamicStepReport VelocityVerlet::freeStep(const PeridynamicBody& body,
                                               const PeridynamicStepOptions& options, double* x,
                                               double* v) {
  const auto start = std::chrono::steady_clock::now();
  const double h = options.h;
  if (!(h > 0.0) || !std::isfinite(h))
    throw Error("PeridynamicStepper 'verlet' on body '" + body.name() + "'",
                "a time step h > 0 (explicit: no statics)", "h = " + std::to_string(h));
  const std::size_t n = body.size(), n3 = 3 * n;
  const int nt = mechanics::threadsFor(options.threads, n);
  PeridynamicStepReport report;
  // Forces at x_k: the ones kept from the last step when it ended at these positions with the
  // same bonds.
  const std::size_t broken = body.brokenBonds();
  const bool cached = cachedBody_ == &body && cachedX_.size() == n3 && broken == cachedBroken_ &&
                      std::memcmp(cachedX_.data(), body.x.data(), n3 * sizeof(double)) == 0;
  f_.resize(n3);
  if (cached) {
    std::copy(cachedF_.begin(), cachedF_.end(), f_.begin());
  } else {
    body.material().forces(body, body.x.data(), f_.data());
    report.bondUpdates += body.bondCount();
    cachedStable_ = stableStep(body);
    report.bondUpdates += body.bondCount();
  }
  const double* xk = body.x.data();
  const double* vk = body.v.data();
  const double* m = body.mass.data();
  const double* F = body.force.data();
  const std::uint8_t* fixed = body.prescribed.data();
  const double* gr = options.gravity.data();
  const long nl = static_cast<long>(n);
  double* f = f_.data();
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (long i = 0; i < nl; ++i)
    for (int k = 0; k < 3; ++k) {
      const long q = 3 * i + k;
      if (fixed[i]) {
        v[q] = vk[q];
      } else {
        v[q] = vk[q] + 0.5 * h * ((f[q] + F[q]) / m[i] + gr[k]);
      }
      x[q] = xk[q] + h * v[q];
    }
  body.material().forces(body, x, f);
  report.bondUpdates += body.bondCount();
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (long i = 0; i < nl; ++i)
    if (!fixed[i])
      for (int k = 0; k < 3; ++k) {
        const long q = 3 * i + k;
        v[q] += 0.5 * h * ((f[q] + F[q]) / m[i] + gr[k]);
      }
  cachedBody_ = &body;
  cachedBroken_ = broken;
  cachedX_.assign(x, x + n3);
  cachedF_ = f_;
  report.iterations = 1;
  report.stableStep = cachedStable_;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace nsdyn
