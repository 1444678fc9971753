// MoreauJeanDirectProjectionOSI: forces at the projected positions.
#include "nsdyn/MoreauJeanDirectProjectionOSI.hpp"

#include "nsdyn/SecondOrderDS.hpp"

namespace nsdyn {

void MoreauJeanDirectProjectionOSI::refreshForces(double t) {
  for (const auto& dsp : systems_) {
    auto& ds = dynamic_cast<SecondOrderDS&>(*dsp);  // accepts() let only SecondOrderDS in
    ds.setForces(ds.computeForces(t, ds.q(), ds.velocity()));
  }
}

}  // namespace nsdyn
