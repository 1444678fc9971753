// Constructors of the nonsmooth laws, with their argument checks.
#include <cmath>
#include <cstdio>

#include "nsdyn/ComplementarityConditionNSL.hpp"
#include "nsdyn/EqualityConditionNSL.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/MixedComplementarityConditionNSL.hpp"
#include "nsdyn/NewtonImpactFrictionNSL.hpp"
#include "nsdyn/NewtonImpactNSL.hpp"
#include "nsdyn/RelayNSL.hpp"

namespace nsdyn {

namespace {
std::size_t positiveSize(std::size_t n, const char* law) {
  if (n == 0) throw Error(law, "size >= 1", "0");
  return n;
}
std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}
}  // namespace

NewtonImpactNSL::NewtonImpactNSL(double e, std::size_t size)
    : NonSmoothLaw(positiveSize(size, "NewtonImpactNSL")), e_(e) {
  if (!(e >= 0.0) || !std::isfinite(e)) throw Error("NewtonImpactNSL", "e >= 0", "e = " + num(e));
}

NewtonImpactFrictionNSL::NewtonImpactFrictionNSL(double en, double et, double mu, std::size_t dim)
    : NonSmoothLaw(dim), en_(en), et_(et), mu_(mu) {
  if (dim != 2 && dim != 3)
    throw Error("NewtonImpactFrictionNSL", "dim 2 or 3", std::to_string(dim));
  if (!(en >= 0.0)) throw Error("NewtonImpactFrictionNSL", "en >= 0", "en = " + num(en));
  if (!(et >= 0.0)) throw Error("NewtonImpactFrictionNSL", "et >= 0", "et = " + num(et));
  if (!(mu >= 0.0) || !std::isfinite(mu))
    throw Error("NewtonImpactFrictionNSL", "mu >= 0", "mu = " + num(mu));
}

ComplementarityConditionNSL::ComplementarityConditionNSL(std::size_t size)
    : NonSmoothLaw(positiveSize(size, "ComplementarityConditionNSL")) {}

EqualityConditionNSL::EqualityConditionNSL(std::size_t size)
    : NonSmoothLaw(positiveSize(size, "EqualityConditionNSL")) {}

MixedComplementarityConditionNSL::MixedComplementarityConditionNSL(std::size_t nEquality,
                                                                   std::size_t nComplementarity)
    : NonSmoothLaw(positiveSize(nEquality + nComplementarity, "MixedComplementarityConditionNSL")),
      nEq_(nEquality) {}

RelayNSL::RelayNSL(std::size_t size, double lb, double ub)
    : NonSmoothLaw(positiveSize(size, "RelayNSL")), lb_(lb), ub_(ub) {
  if (!(lb < ub) || !std::isfinite(lb) || !std::isfinite(ub))
    throw Error("RelayNSL", "finite bounds lb < ub", "lb = " + num(lb) + ", ub = " + num(ub));
}

}  // namespace nsdyn
