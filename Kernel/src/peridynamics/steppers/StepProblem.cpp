#include "peridynamics/steppers/StepProblem.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "mechanics/Threads.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn::peridynamics {

namespace {

std::string who(const char* stepper, const PeridynamicBody& body) {
  return std::string("PeridynamicStepper '") + stepper + "' on body '" + body.name() + "'";
}

}  // namespace

StepProblem::StepProblem(const PeridynamicBody& bodyIn, const PeridynamicStepOptions& options,
                         const char* stepper)
    : body(bodyIn),
      n(bodyIn.size()),
      h(options.h),
      theta(options.theta),
      c(0.0),
      scale(1.0),
      threads(mechanics::threadsFor(options.threads, bodyIn.size())),
      fixed(bodyIn.prescribed.data()) {
  if (!(options.h >= 0.0) || !std::isfinite(options.h))
    throw Error(who(stepper, body), "time step h >= 0 (0: statics)",
                "h = " + std::to_string(options.h));
  if (!(options.theta >= 0.5 && options.theta <= 1.0))
    throw Error(who(stepper, body), "theta in [1/2, 1]",
                "theta = " + std::to_string(options.theta));
  if (!(options.tolerance > 0.0))
    throw Error(who(stepper, body), "tolerance > 0",
                "tolerance = " + std::to_string(options.tolerance));
  if (options.maxIterations < 1)
    throw Error(who(stepper, body), "maxIterations >= 1",
                "maxIterations = " + std::to_string(options.maxIterations));
  const double* x = body.x.data();
  const double* v = body.v.data();
  const double* m = body.mass.data();
  const double* F = body.force.data();
  const double* gr = options.gravity.data();
  const long nl = static_cast<long>(n);
  y.assign(3 * n, 0.0);
  if (h == 0.0) {
    b.assign(3 * n, 0.0);
    double* yp = y.data();
    double* bp = b.data();
    NSD_OMP(omp parallel for schedule(static) num_threads(threads))
    for (long i = 0; i < nl; ++i)
      for (int k = 0; k < 3; ++k) {
        yp[3 * i + k] = x[3 * i + k];
        bp[3 * i + k] = fixed[i] ? 0.0 : m[i] * gr[k] + F[3 * i + k];
      }
    return;
  }
  scale = h * h * theta * theta;
  c = 1.0 / scale;
  std::vector<double> fk;
  if (theta < 1.0) {
    fk.assign(3 * n, 0.0);
    forces(x, fk.data());
  }
  const double explicitPart = h * h * theta * (1.0 - theta);
  const double load = h * h * theta;
  const double* fp = fk.empty() ? nullptr : fk.data();
  double* yp = y.data();
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (long i = 0; i < nl; ++i)
    for (int k = 0; k < 3; ++k) {
      const long q = 3 * i + k;
      double value = x[q] + h * v[q];
      if (!fixed[i]) {
        if (fp) value += explicitPart * fp[q] / m[i];
        value += load * (gr[k] + F[q] / m[i]);
      }
      yp[q] = value;
    }
}

double StepProblem::forces(const double* x, double* f) {
  bondUpdates += body.bondCount();
  return body.material().forces(body, x, f);
}

void StepProblem::stiffness(const double* x, double* a) {
  bondUpdates += body.bondCount();
  body.material().implicitStiffness(body, x, a);
}

template <class F>
double StepProblem::reduce(F term) const {
  const std::size_t chunks = (n + kReductionChunk - 1) / kReductionChunk;
  std::vector<double> partial(chunks, 0.0);
  const long cl = static_cast<long>(chunks);
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (long ch = 0; ch < cl; ++ch) {
    const std::size_t begin = static_cast<std::size_t>(ch) * kReductionChunk;
    const std::size_t end = std::min(n, begin + kReductionChunk);
    double s = 0.0;
    for (std::size_t i = begin; i < end; ++i)
      if (!fixed[i]) s += term(i);
    partial[static_cast<std::size_t>(ch)] = s;
  }
  double total = 0.0;
  for (double p : partial) total += p;
  return total;
}

double StepProblem::psi(const double* x, double W, double* noise) const {
  const double* m = body.mass.data();
  const double* yp = y.data();
  const double* bp = b.empty() ? nullptr : b.data();
  const double cc = c;
  const double rest = reduce([&](std::size_t i) {
    double s = 0.0;
    for (int k = 0; k < 3; ++k) {
      const std::size_t q = 3 * i + k;
      const double d = x[q] - yp[q];
      s += 0.5 * cc * m[i] * d * d;
      if (bp) s -= bp[q] * d;
    }
    return s;
  });
  if (noise) {
    const double size = reduce([&](std::size_t i) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) {
        const std::size_t q = 3 * i + k;
        const double d = x[q] - yp[q];
        s += 0.5 * cc * m[i] * d * d + (bp ? std::abs(bp[q] * d) : 0.0);
      }
      return s;
    });
    *noise = kNoise * (std::abs(W) + size);
  }
  return W + rest;
}

void StepProblem::gradient(const double* x, const double* f, double* g) const {
  const double* m = body.mass.data();
  const double* yp = y.data();
  const double* bp = b.empty() ? nullptr : b.data();
  const long nl = static_cast<long>(n);
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (long i = 0; i < nl; ++i)
    for (int k = 0; k < 3; ++k) {
      const long q = 3 * i + k;
      if (fixed[i]) {
        g[q] = 0.0;
        continue;
      }
      double value = c * m[i] * (x[q] - yp[q]) - f[q];
      if (bp) value -= bp[q];
      g[q] = value;
    }
}

double StepProblem::dot(const double* u, const double* w) const {
  return reduce([&](std::size_t i) {
    return u[3 * i] * w[3 * i] + u[3 * i + 1] * w[3 * i + 1] + u[3 * i + 2] * w[3 * i + 2];
  });
}

void StepProblem::axpy(const double* x, double t, const double* d, double* out) const {
  const double* yp = y.data();
  const long nl = static_cast<long>(n);
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (long i = 0; i < nl; ++i)
    for (int k = 0; k < 3; ++k) {
      const long q = 3 * i + k;
      out[q] = fixed[i] ? yp[q] : x[q] + t * d[q];
    }
}

void StepProblem::finish(PeridynamicStepReport& report, int iterations, double residual, double psi,
                         double tolerance, const double* x, double* v,
                         std::chrono::steady_clock::time_point start) const {
  report.iterations = iterations;
  report.residual = residual;
  report.energyEnd = scale * psi;
  report.status = residual <= tolerance ? NSD_OK : NSD_MAX_ITERATIONS;
  if (h > 0.0)
    velocities(x, v);
  else
    std::copy(body.v.begin(), body.v.end(), v);
  report.bondUpdates = bondUpdates;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void StepProblem::velocities(const double* x, double* v) const {
  const double* xk = body.x.data();
  const double* vk = body.v.data();
  const double a = 1.0 / (h * theta), bb = (1.0 - theta) / theta;
  const long nl = static_cast<long>(n);
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (long i = 0; i < nl; ++i)
    for (int k = 0; k < 3; ++k) {
      const long q = 3 * i + k;
      v[q] = fixed[i] ? vk[q] : a * (x[q] - xk[q]) - bb * vk[q];
    }
}

}  // namespace nsdyn::peridynamics
