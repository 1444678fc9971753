/// @file Event.hpp
/// @brief Events of the event-driven strategy: output-grid times and
///        nonsmooth events found by root finding.
#ifndef NSDYN_KERNEL_EVENT_HPP
#define NSDYN_KERNEL_EVENT_HPP

#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// Kind of an event (Siconos numbers them 1 and 2).
enum class EventType {
  TimeDiscretisation,  ///< a time of the output grid t0 + k h
  NonSmooth            ///< a root of a gap (impact) or of a contact force (release)
};

/// "TimeDiscretisation" or "NonSmooth".
NSDYN_KERNEL_API const char* eventTypeName(EventType type);

/// An instant at which the event-driven simulation stops its smooth integration.
class NSDYN_KERNEL_API Event {
 public:
  virtual ~Event() = default;
  virtual EventType type() const = 0;
  /// Time of the event (s).
  double time() const { return time_; }

 protected:
  explicit Event(double time) : time_(time) {}

 private:
  double time_;
};

/// The output-grid time t0 + k h (k ≥ 0; never accumulated).
class NSDYN_KERNEL_API TimeDiscretisationEvent : public Event {
 public:
  TimeDiscretisationEvent(double time, long k) : Event(time), k_(k) {}
  EventType type() const override { return EventType::TimeDiscretisation; }
  /// Grid index k.
  long index() const { return k_; }

 private:
  long k_;
};

/// A root of the event functions: the numbers of the root functions that
/// vanished (positions in index set I0, i.e. in Topology::indexSet(0)).
class NSDYN_KERNEL_API NonSmoothEvent : public Event {
 public:
  NonSmoothEvent(double time, std::vector<std::size_t> roots)
      : Event(time), roots_(std::move(roots)) {}
  EventType type() const override { return EventType::NonSmooth; }
  /// Positions in I0 of the unitary relations whose root function vanished.
  const std::vector<std::size_t>& roots() const { return roots_; }

 private:
  std::vector<std::size_t> roots_;
};

namespace SP {
using Event = std::shared_ptr<nsdyn::Event>;
using TimeDiscretisationEvent = std::shared_ptr<nsdyn::TimeDiscretisationEvent>;
using NonSmoothEvent = std::shared_ptr<nsdyn::NonSmoothEvent>;
}  // namespace SP

}  // namespace nsdyn

#endif
