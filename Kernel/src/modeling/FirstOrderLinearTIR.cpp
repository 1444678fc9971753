// FirstOrderLinearTIR: constant C, D, B, e.
#include "nsdyn/FirstOrderLinearTIR.hpp"

namespace nsdyn {

FirstOrderLinearTIR::FirstOrderLinearTIR(SimpleMatrix C, SimpleMatrix B)
    : FirstOrderLinearR(std::move(C), std::move(B)) {}

FirstOrderLinearTIR::FirstOrderLinearTIR(SimpleMatrix C, SimpleMatrix D, SimpleMatrix B)
    : FirstOrderLinearR(std::move(C), std::move(B)) {
  setD(std::move(D));
}

FirstOrderLinearTIR::FirstOrderLinearTIR(SimpleMatrix C, SimpleMatrix D, SimpleMatrix B,
                                         SiconosVector e)
    : FirstOrderLinearTIR(std::move(C), std::move(D), std::move(B)) {
  sete(std::move(e));
}

}  // namespace nsdyn
