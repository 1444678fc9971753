/// @file EventsManager.hpp
/// @brief The ordered list of coming events of an event-driven simulation.
#ifndef NSDYN_KERNEL_EVENTSMANAGER_HPP
#define NSDYN_KERNEL_EVENTSMANAGER_HPP

#include <memory>
#include <vector>

#include "nsdyn/Event.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/TimeDiscretisation.hpp"

namespace nsdyn {

/// Holds the current event (the last one processed) and the pending ones,
/// ordered by time; at equal times a NonSmoothEvent comes before a
/// TimeDiscretisationEvent. The output grid is scheduled one event ahead:
/// processing the grid event k schedules k + 1 when t0 + (k+1) h ≤ T.
class NSDYN_KERNEL_API EventsManager {
 public:
  EventsManager() = default;
  EventsManager(const EventsManager&) = delete;
  EventsManager& operator=(const EventsManager&) = delete;

  /// Current event: the grid event k = 0 at t0; pending: the grid event 1
  /// (when t0 + h ≤ T).
  void initialize(const TimeDiscretisation& td, double T);

  /// The last event processed (the grid event at t0 before any).
  const Event& currentEvent() const { return *current_; }
  /// The earliest pending event; nullptr when none is left.
  const Event* nextEvent() const { return pending_.empty() ? nullptr : pending_.front().get(); }
  bool hasNextEvent() const { return !pending_.empty(); }
  /// Time of the current event.
  double startingTime() const;
  /// Time of the next event (nsdyn::Error when none is left).
  double nextTime() const;

  /// Add a nonsmooth event (found by root finding), in time order.
  void insertNonSmoothEvent(double time, std::vector<std::size_t> roots);
  /// Make the next event current (nsdyn::Error when none is left); a grid
  /// event schedules the next grid time.
  void processEvents();

  /// Events processed since initialize(), of each kind.
  long processedTimeEvents() const { return timeEvents_; }
  long processedNonSmoothEvents() const { return nonSmoothEvents_; }

 private:
  void insert(std::unique_ptr<Event> event);
  const TimeDiscretisation* td_ = nullptr;
  double T_ = 0.0;
  std::unique_ptr<Event> current_;
  std::vector<std::unique_ptr<Event>> pending_;
  long timeEvents_ = 0, nonSmoothEvents_ = 0;
};

}  // namespace nsdyn

#endif
