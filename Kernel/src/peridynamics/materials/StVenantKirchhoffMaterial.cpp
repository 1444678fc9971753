#include "nsdyn/StVenantKirchhoffMaterial.hpp"

namespace nsdyn {

double StVenantKirchhoffMaterial::strainEnergy(const double* l) const {
  const double mu = shearModulus(), La = lameLambda();
  double tr = 0.0, sq = 0.0;
  for (int a = 0; a < 3; ++a) {
    const double E = 0.5 * (l[a] - 1.0) * (l[a] + 1.0);
    tr += E;
    sq += E * E;
  }
  return 0.5 * La * tr * tr + mu * sq;
}

void StVenantKirchhoffMaterial::stretchDerivatives(const double* l, double* dW) const {
  const double mu = shearModulus(), La = lameLambda();
  double tr = 0.0;
  for (int a = 0; a < 3; ++a) tr += 0.5 * (l[a] - 1.0) * (l[a] + 1.0);
  for (int a = 0; a < 3; ++a) dW[a] = (La * tr + mu * (l[a] - 1.0) * (l[a] + 1.0)) * l[a];
}

void StVenantKirchhoffMaterial::stretchHessian(const double* l, double* H) const {
  const double mu = shearModulus(), La = lameLambda();
  double tr = 0.0;
  for (int a = 0; a < 3; ++a) tr += 0.5 * (l[a] - 1.0) * (l[a] + 1.0);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      H[3 * a + b] =
          a == b ? (La + 2.0 * mu) * l[a] * l[a] + La * tr + mu * (l[a] - 1.0) * (l[a] + 1.0)
                 : La * l[a] * l[b];
}

}  // namespace nsdyn
