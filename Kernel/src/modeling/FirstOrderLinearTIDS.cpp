// FirstOrderLinearTIDS: constant A and b.
#include "nsdyn/FirstOrderLinearTIDS.hpp"

namespace nsdyn {

FirstOrderLinearTIDS::FirstOrderLinearTIDS(SiconosVector x0, SimpleMatrix A)
    : FirstOrderLinearDS(std::move(x0), std::move(A)) {}

FirstOrderLinearTIDS::FirstOrderLinearTIDS(SiconosVector x0, SimpleMatrix A, SiconosVector b)
    : FirstOrderLinearDS(std::move(x0), std::move(A), std::move(b)) {}

}  // namespace nsdyn
