// EventsManager and events: the output grid and the nonsmooth events, in time order.
#include "nsdyn/EventsManager.hpp"

#include <algorithm>

#include "nsdyn/Error.hpp"

namespace nsdyn {

const char* eventTypeName(EventType type) {
  return type == EventType::TimeDiscretisation ? "TimeDiscretisation" : "NonSmooth";
}

void EventsManager::initialize(const TimeDiscretisation& td, double T) {
  td_ = &td;
  T_ = T;
  current_ = std::make_unique<TimeDiscretisationEvent>(td.t0(), 0);
  pending_.clear();
  timeEvents_ = nonSmoothEvents_ = 0;
  if (td.time(1) <= T_) insert(std::make_unique<TimeDiscretisationEvent>(td.time(1), 1));
}

double EventsManager::startingTime() const {
  if (!current_) throw Error("EventsManager", "initialize() called", "not initialised");
  return current_->time();
}

double EventsManager::nextTime() const {
  if (pending_.empty()) throw Error("EventsManager::nextTime", "a pending event", "none left");
  return pending_.front()->time();
}

void EventsManager::insert(std::unique_ptr<Event> event) {
  // after every event that comes first: earlier time, or same time and nonsmooth
  auto before = [](const Event& a, const Event& b) {
    if (a.time() != b.time()) return a.time() < b.time();
    return a.type() == EventType::NonSmooth && b.type() == EventType::TimeDiscretisation;
  };
  auto it = std::upper_bound(pending_.begin(), pending_.end(), event,
                             [&](const std::unique_ptr<Event>& e, const std::unique_ptr<Event>& p) {
                               return before(*e, *p);
                             });
  pending_.insert(it, std::move(event));
}

void EventsManager::insertNonSmoothEvent(double time, std::vector<std::size_t> roots) {
  if (!current_) throw Error("EventsManager", "initialize() called", "not initialised");
  insert(std::make_unique<NonSmoothEvent>(time, std::move(roots)));
}

void EventsManager::processEvents() {
  if (pending_.empty()) throw Error("EventsManager::processEvents", "a pending event", "none left");
  current_ = std::move(pending_.front());
  pending_.erase(pending_.begin());
  if (current_->type() == EventType::NonSmooth) {
    ++nonSmoothEvents_;
    return;
  }
  ++timeEvents_;
  const long k = static_cast<const TimeDiscretisationEvent&>(*current_).index() + 1;
  if (td_->time(k) <= T_) insert(std::make_unique<TimeDiscretisationEvent>(td_->time(k), k));
}

}  // namespace nsdyn
