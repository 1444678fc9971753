// NewtonEuler3DR: user point contact with normal and tangential rows.
#include "nsdyn/NewtonEuler3DR.hpp"

namespace nsdyn {

NewtonEuler3DR::NewtonEuler3DR(GapFunction gap) : NewtonEuler1DR(std::move(gap), 3) {}

NewtonEuler3DR::NewtonEuler3DR() : NewtonEuler1DR() {
  setRows(3);
}

}  // namespace nsdyn
