// Motors and limits of a hinge or slider (<PivotJointR>, <PrismaticJointR> attributes
// motor-velocity, motor-position and position-gain (a position servo), max-torque /
// max-force, lower-limit, upper-limit, limit-restitution): the JointAxisR interactions of
// the joint, linked to its systems and named after it (NAME_motor, NAME_lower, NAME_upper).

#include "Loader.hpp"

namespace nsdyn::io::xml {

// The target rate of a position servo (motor-position, position-gain): the feedforward
// rate @p rate (motor-velocity, 0 when absent) + kp (reference(t) − coordinate), the
// joint's coordinate read at its bodies' current state (in the Newton loop: the iterate).
JointAxisR::TargetFunction Loader::servoTarget(const Node& r, const SP::NewtonEulerJointR& joint,
                                               const TimeVector& rate,
                                               const std::vector<SP::DynamicalSystem>& linked) {
  const double kp = number(r, "position-gain", std::nullopt, "the servo's gain kp (1/s)");
  if (!(kp >= 0.0) || !std::isfinite(kp))
    fail(r, "attribute 'position-gain': expected a gain kp >= 0 and finite, found " +
                numberText(kp) + " ('" + trim(r.attribute("position-gain").value()) + "')");
  const TimeVector reference =
      timeVector(r, r.attribute("motor-position").value(), 1,
                 "attribute 'motor-position' (the servo's reference, a function of t)");
  std::vector<SP::NewtonEulerDS> bodies;
  for (const auto& ds : linked) {
    auto b = std::dynamic_pointer_cast<NewtonEulerDS>(ds);
    if (!b) fail(r, "expected rigid bodies for the servo, found " + ds->className());
    bodies.push_back(b);
  }
  // the coordinate reader, 0 at the bodies' initial state as the joint's axis rows
  std::shared_ptr<JointAxisR> axis;
  try {
    axis = std::make_shared<JointAxisR>(joint);
  } catch (const nsdyn::Error& e) {
    fail(r, e.what());
  }
  auto value = [](const TimeVector& v, double t) {
    return v.function ? v.function(t)(0) : v.constant(0);
  };
  return [=](double t) {
    SiconosVector q(7 * bodies.size());
    for (std::size_t b = 0; b < bodies.size(); ++b)
      for (std::size_t i = 0; i < 7; ++i) q(7 * b + i) = bodies[b]->q()(i);
    return value(rate, t) + kp * (value(reference, t) - axis->coordinate(q));
  };
}

void Loader::jointAxes(const Node& r, const SP::Relation& relation, const std::string& name,
                       const std::vector<SP::DynamicalSystem>& linked) {
  const std::string kind = r.name();
  if (kind != "PivotJointR" && kind != "PrismaticJointR") return;
  const char* forceAttr = kind == "PivotJointR" ? "max-torque" : "max-force";
  const std::string forceWord = kind == "PivotJointR" ? "torque (N m)" : "force (N)";
  const bool servo = r.attribute("motor-position"), gain = r.attribute("position-gain");
  const bool motor = r.attribute("motor-velocity") || servo, force = r.attribute(forceAttr),
             lower = r.attribute("lower-limit"), upper = r.attribute("upper-limit");
  const char* motorAttr = r.attribute("motor-velocity") ? "motor-velocity" : "motor-position";
  if (motor != force)
    fail(r, motor ? "attribute '" + std::string(motorAttr) + "': expected with '" +
                        std::string(forceAttr) + "' (the motor's " + forceWord +
                        " limit), found it alone"
                  : "attribute '" + std::string(forceAttr) +
                        "': expected with 'motor-velocity' or 'motor-position' (the motor's "
                        "target), found it alone");
  if (servo != gain)
    fail(r, servo ? "attribute 'motor-position': expected with 'position-gain' (the servo's gain "
                    "kp, 1/s), found it alone"
                  : "attribute 'position-gain': expected with 'motor-position' (the servo's "
                    "reference), found it alone");
  if (r.attribute("limit-restitution") && !lower && !upper)
    fail(r,
         "attribute 'limit-restitution': expected with 'lower-limit' or 'upper-limit', found it "
         "alone");
  if (!motor && !lower && !upper) return;
  const auto joint = std::dynamic_pointer_cast<NewtonEulerJointR>(relation);
  if (!joint) fail(r, "expected a joint relation, found " + relation->className());
  // the new interactions' names, free
  auto named = [&](const char* suffix) {
    const std::string n = name + "_" + suffix;
    if (interactionIndex_.count(n))
      fail(r, "expected a new interaction name for the joint's " + std::string(suffix) +
                  ", found '" + n + "' taken");
    return n;
  };
  auto add = [&](const std::string& n, const SP::Interaction& inter) {
    try {
      model_->nonSmoothDynamicalSystem()->link(inter, linked[0],
                                               linked.size() > 1 ? linked[1] : nullptr);
      inter->checkConsistency();
    } catch (const nsdyn::Error& e) {
      fail(r, e.what());
    }
    interactionIndex_.emplace(n, out_->interactions.size());
    out_->interactions.emplace_back(n, inter);
  };
  if (motor) {
    const double limit = number(r, forceAttr, std::nullopt, "the motor's " + forceWord + " limit");
    if (!(limit >= 0.0) || !std::isfinite(limit))
      fail(r, "attribute '" + std::string(forceAttr) + "': expected a " + forceWord +
                  " limit >= 0 and finite, found " + numberText(limit) + " ('" +
                  trim(r.attribute(forceAttr).value()) + "')");
    const TimeVector target =
        r.attribute("motor-velocity")
            ? timeVector(r, r.attribute("motor-velocity").value(), 1,
                         "attribute 'motor-velocity' (the motor's target rate, a function of t)")
            : TimeVector{SiconosVector(1), nullptr};
    const JointAxisR::TargetFunction servoRate =
        servo ? servoTarget(r, joint, target, linked) : JointAxisR::TargetFunction();
    const std::string n = named("motor");
    SP::Interaction inter;
    try {
      if (servo) {
        inter = JointAxisR::motor(joint, servoRate, limit);
      } else if (target.function) {
        const FunctionRegistry::VectorOfTime f = target.function;
        inter = JointAxisR::motor(
            joint, [f](double t) { return f(t)(0); }, limit);
      } else {
        inter = JointAxisR::motor(joint, target.constant(0), limit);
      }
    } catch (const nsdyn::Error& e) {
      fail(r, e.what());
    }
    add(n, inter);
  }
  const double e = restitution(r, "limit-restitution", 0.0, "the limits' restitution");
  const double lo = lower ? number(r, "lower-limit", std::nullopt, "the lower limit") : 0.0;
  const double hi = upper ? number(r, "upper-limit", std::nullopt, "the upper limit") : 0.0;
  if (lower && upper && !(lo < hi))
    fail(r, "attribute 'upper-limit': expected a limit > lower-limit = " + numberText(lo) +
                ", found " + numberText(hi));
  for (const bool isLower : {true, false}) {
    if (isLower ? !lower : !upper) continue;
    const double bound = isLower ? lo : hi;
    if (!std::isfinite(bound))
      fail(r, std::string("attribute '") + (isLower ? "lower-limit" : "upper-limit") +
                  "': expected a finite limit, found " + numberText(bound));
    const std::string n = named(isLower ? "lower" : "upper");
    SP::Interaction inter;
    try {
      inter = isLower ? JointAxisR::lowerLimit(joint, bound, e)
                      : JointAxisR::upperLimit(joint, bound, e);
    } catch (const nsdyn::Error& err) {
      fail(r, err.what());
    }
    add(n, inter);
  }
}

}  // namespace nsdyn::io::xml
