#include "nsdyn/NeoHookeanMaterial.hpp"

#include <cmath>
#include <limits>

namespace nsdyn {

// Written in d_a = λ_a − 1 and log1p so that W and ∂W/∂λ keep their relative accuracy at
// small strain (W = 0 at λ = 1 up to O(round-off²)).
double NeoHookeanMaterial::strainEnergy(const double* l) const {
  if (!(l[0] > 0.0 && l[1] > 0.0 && l[2] > 0.0)) return std::numeric_limits<double>::infinity();
  const double mu = shearModulus(), La = lameLambda();
  double a = 0.0, lnJ = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double d = l[k] - 1.0, ln = std::log1p(d);
    a += d * (2.0 + d) - 2.0 * ln;  // λ² − 1 − 2 ln λ
    lnJ += ln;
  }
  return 0.5 * mu * a + 0.5 * La * lnJ * lnJ;
}

void NeoHookeanMaterial::stretchDerivatives(const double* l, double* dW) const {
  const double mu = shearModulus(), La = lameLambda();
  const double lnJ = std::log1p(l[0] - 1.0) + std::log1p(l[1] - 1.0) + std::log1p(l[2] - 1.0);
  for (int a = 0; a < 3; ++a) {
    const double d = l[a] - 1.0;
    dW[a] = (mu * d * (2.0 + d) + La * lnJ) / l[a];  // μ(λ − 1/λ) + Λ ln J / λ
  }
}

void NeoHookeanMaterial::stretchHessian(const double* l, double* H) const {
  const double mu = shearModulus(), La = lameLambda();
  const double lnJ = std::log1p(l[0] - 1.0) + std::log1p(l[1] - 1.0) + std::log1p(l[2] - 1.0);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      H[3 * a + b] = a == b ? mu + (mu + La * (1.0 - lnJ)) / (l[a] * l[a]) : La / (l[a] * l[b]);
}

}  // namespace nsdyn
