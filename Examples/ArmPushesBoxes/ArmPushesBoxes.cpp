// ArmPushesBoxes: a six-hinge arm (capsule links, a capsule pusher or a box paddle, PivotJointR
// hinges, the base hinged to the world) sweeps over a table (a static box) and pushes a stack of
// four boxes off it onto the floor. Each hinge has a velocity motor (JointAxisR::motor, torque
// limited) whose target is a position servo on a smooth reference trajectory,
// rate = rate_ref(t) + kp (angle_ref(t) - angle): a PD law on the angle. Joints, motors and
// the detected contacts (ContactManager) are solved together by GenericMechanical.
//
//   build/bin/ArmPushesBoxes [--time T] [--step H] [--output DIR] [--no-plot] [--quiet]
//
// Reference: 0-0.5 s base yaw to -40 deg; 0.5-1.5 s shoulder, elbow and wrist pitch to
// 60 deg each (the paddle hangs 2 cm above the table); hold to 2 s (the first target pose);
// 2-4 s yaw sweep to +70 deg through the stack; hold to the end (default T = 5 s).
// CSV (every step): t, the six angles, the six tracking errors angle_ref - angle, the largest
// hinge drift ||y0||, the deepest box-table gap, boxes on the table, arm self-contacts,
// motor work, Newton iterations. Also DIR/ArmPushesBoxes.png and VTK frames (every 10th step).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/CapsuleShape.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/GenericMechanical.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/JointAxisR.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/PivotJointR.hpp>

#include "body_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

constexpr double kDeg = M_PI / 180.0;

// quintic smooth step from a to b over [t0, t1]: value and rate
std::array<double, 2> smoothStep(double t, double t0, double t1, double a, double b) {
  if (t <= t0) return {a, 0.0};
  if (t >= t1) return {b, 0.0};
  const double d = t1 - t0, u = (t - t0) / d;
  const double s = u * u * u * (10.0 - 15.0 * u + 6.0 * u * u);
  const double ds = 30.0 * u * u * (1.0 - u) * (1.0 - u) / d;
  return {a + (b - a) * s, (b - a) * ds};
}

// the reference angle and rate of hinge j (0-based) at t
std::array<double, 2> reference(int j, double t) {
  if (j == 0) {
    if (t < 2.0) return smoothStep(t, 0.0, 0.5, 0.0, -40.0 * kDeg);
    return smoothStep(t, 2.0, 4.0, -40.0 * kDeg, 70.0 * kDeg);
  }
  if (j <= 3) return smoothStep(t, 0.5, 1.5, 0.0, 60.0 * kDeg);
  return {0.0, 0.0};
}

}  // namespace

int main(int argc, char** argv) {
  const char* name = "ArmPushesBoxes";
  double T = 5.0, h = 2e-3;
  std::string solver = "newton";
  std::string fallback;  // empty: nsgs after newton, newton after the others
  bool paddle = false;
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, name, "a six-hinge arm under PD control pushes boxes off a table",
      {ex::timeOption(T, 60.0),
       ex::stepOption(h, 1e-2),
       ex::switchOption("--paddle", paddle),
       {"--solver", "newton, nsgs or admm",
        [&](const char* v) {
          solver = v;
          return solver == "newton" || solver == "nsgs" || solver == "admm";
        }},
       {"--fallback", "newton, nsgs or admm",
        [&](const char* v) {
          fallback = v;
          return fallback == "newton" || fallback == "nsgs" || fallback == "admm";
        }}},
      "  --time T           simulated time in s (default 5; 2: up to the first target pose)\n"
      "  --step H           time step in s (default 2e-3)\n"
      "  --solver S         GenericMechanical solver, newton (default), nsgs or admm\n"
      "  --fallback S       solver run from the first one's answer when it stops short (default\n"
      "                     nsgs after newton, newton after the others)\n"
      "  --paddle           the last link is a flat plate (box) instead of a capsule\n");
  try {
    const double g = 9.81, base = 0.5;
    auto model = std::make_shared<Model>(0.0, T);
    auto nsds = model->nonSmoothDynamicalSystem();
    auto problem = std::make_shared<GenericMechanical>(solver);
    // the global Newton's line search can stall while a box slides on a box; Gauss-Seidel
    // over the blocks, started from its answer, finishes those steps (no time bound: the
    // run is the same on any machine)
    problem->setFallbackSolver(!fallback.empty()    ? fallback
                               : solver == "newton" ? "nsgs"
                                                    : "newton");
    problem->setFallbackBound(0.0, 20000);
    problem->optionsMutable().max_iterations = 20000;
    problem->optionsMutable().tolerance = 1e-8;
    auto osi = std::make_shared<MoreauJeanOSI>(0.5);
    auto sim =
        std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h), osi, problem);
    sim->setNewtonTolerance(1e-8);
    sim->setNewtonMaxIteration(20);
    ContactManager::Options options;
    options.detection.margin = 0.005;
    options.detection.breakingDistance = 0.005;
    auto contacts = std::make_shared<ContactManager>(options);
    contacts->setDefaultMaterial({0.5, 0.0});
    sim->insertInteractionManager(contacts);

    // the floor and the table (top at z = 0.44, under the paddle of the first target pose)
    contacts->addBody(makeStaticBody(
        {ShapeInstance{std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0)}}));
    const double tableTop = 0.44;
    const Shape::Vec3 tableCentre{0.866, -0.05, tableTop - 0.02};
    const Shape::Vec3 tableHalf{0.35, 0.45, 0.02};
    const std::size_t table = contacts->addBody(
        makeStaticBody({ShapeInstance{std::make_shared<BoxShape>(tableHalf)}}, tableCentre));

    // the arm, upright at t = 0: joint j at height zj on the z axis, link j from joint j up;
    // capsules stop 6 cm short of each joint so that neighbours never touch
    const std::array<double, 7> zj{base,        base + 0.4,  base + 0.9, base + 1.4,
                                   base + 1.52, base + 1.64, base + 1.84};
    const std::array<double, 6> radius{0.05, 0.04, 0.035, 0.03, 0.03, 0.0};
    std::vector<SP::NewtonEulerDS> links;
    for (int j = 0; j < 6; ++j) {
      BodySpec spec;
      spec.name = "link" + std::to_string(j + 1);
      const double len = zj[j + 1] - zj[j];
      if (j == 5 && paddle) {  // a plate thin along y (the sweep direction)
        spec.shapes = {{std::make_shared<BoxShape>(Shape::Vec3{0.08, 0.015, 0.5 * len - 0.01}),
                        {0.0, 0.0, 0.5 * len + 0.01}}};
      } else if (j == 5) {  // the pusher: a capsule from 3.5 cm below the joint to the tip
        const double half = 0.5 * (len - 0.035 - 0.06);
        spec.shapes = {{std::make_shared<CapsuleShape>(0.03, half), {0.0, 0.0, 0.065 + half}}};
      } else {
        const double clear = j >= 3 ? 0.035 : 0.06;  // short wrist links: less clearance
        const double half = std::max(0.5 * len - clear - radius[j], 0.005);
        spec.shapes = {{std::make_shared<CapsuleShape>(radius[j], half), {0.0, 0.0, 0.5 * len}}};
      }
      spec.density = 1000.0;
      spec.position = {0.0, 0.0, zj[j]};
      BodyShapes body = makeBody(spec);
      body.body()->setFExt(SiconosVector{0.0, 0.0, -g * body.body()->scalarMass()});
      links.push_back(body.body());
      contacts->addBody(*nsds, std::move(body), 1);
    }
    // the stack: four 10 cm boxes on the table, on the paddle's path at yaw 0
    const double b = 0.05;
    std::vector<SP::NewtonEulerDS> boxes;
    for (int k = 0; k < 4; ++k) {
      BodySpec spec;
      spec.name = "box" + std::to_string(k + 1);
      spec.shapes = {{std::make_shared<BoxShape>(Shape::Vec3{b, b, b})}};
      spec.density = 500.0;
      spec.position = {0.866, 0.0, tableTop + b + 2.0 * b * k};
      BodyShapes body = makeBody(spec);
      body.body()->setFExt(SiconosVector{0.0, 0.0, -g * body.body()->scalarMass()});
      boxes.push_back(body.body());
      contacts->addBody(*nsds, std::move(body), 2);
    }

    // the hinges: yaw (world z), pitch (y), pitch, pitch, roll (z), pitch (y)
    const SiconosVector ax{1, 0, 0}, ay{0, 1, 0}, az{0, 0, 1};
    const std::array<const SiconosVector*, 6> axes{&az, &ay, &ay, &ay, &az, &ay};
    const std::array<double, 6> maxTorque{150.0, 150.0, 100.0, 40.0, 20.0, 20.0};
    const double kp = 20.0;  // 1/s: the servo's position gain (rate per rad of error)
    std::vector<SP::NewtonEulerJointR> hinges;
    std::vector<SP::Interaction> joints, motors;
    std::vector<std::shared_ptr<JointAxisR>> coords;  // angle readers
    for (int j = 0; j < 6; ++j) {
      const SiconosVector P{0.0, 0.0, zj[j]};
      SP::NewtonEulerJointR hinge =
          j == 0 ? std::make_shared<PivotJointR>(P, *axes[j], true, links[0])
                 : std::make_shared<PivotJointR>(P, *axes[j], true, links[j - 1], links[j]);
      hinges.push_back(hinge);
      joints.push_back(
          std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(5), hinge));
      coords.push_back(std::make_shared<JointAxisR>(hinge));
    }
    // the angle of hinge j at the bodies' current state
    auto angle = [&](int j) {
      if (j == 0) return coords[0]->coordinate(links[0]->q());
      SiconosVector q(14);
      for (std::size_t i = 0; i < 7; ++i) {
        q(i) = links[j - 1]->q()(i);
        q(7 + i) = links[j]->q()(i);
      }
      return coords[j]->coordinate(q);
    };
    for (int j = 0; j < 6; ++j) {
      auto target = [j, kp, &angle](double t) {
        const std::array<double, 2> r = reference(j, t);
        return r[1] + kp * (r[0] - angle(j));
      };
      motors.push_back(JointAxisR::motor(hinges[j], target, maxTorque[j]));
    }
    for (int j = 0; j < 6; ++j) {
      if (j == 0) {
        nsds->link(joints[0], links[0]);
        nsds->link(motors[0], links[0]);
      } else {
        nsds->link(joints[j], links[j - 1], links[j]);
        nsds->link(motors[j], links[j - 1], links[j]);
      }
    }
    model->initialize(sim);

    std::vector<std::string> columns{"t"};
    for (int j = 1; j <= 6; ++j) columns.push_back("angle" + std::to_string(j));
    for (int j = 1; j <= 6; ++j) columns.push_back("error" + std::to_string(j));
    for (const char* c : {"drift", "table_gap", "boxes_on_table", "self_contacts", "motor_work",
                          "newton_iterations"})
      columns.push_back(c);
    ex::CsvWriter csv(ex::joinPath(opt.outputDir, std::string(name) + ".csv"), columns);
    double work = 0.0, maxDrift = 0.0, minTableGap = INFINITY, poseError = 0.0, restError = 0.0;
    std::size_t maxSelf = 0;
    auto onTable = [&]() {
      int n = 0;
      for (const auto& box : boxes) {
        const double x = box->q()(0), y = box->q()(1), z = box->q()(2);
        if (z > tableTop && std::fabs(x - tableCentre[0]) < tableHalf[0] &&
            std::fabs(y - tableCentre[1]) < tableHalf[1])
          ++n;
      }
      return n;
    };
    auto writeRow = [&](double t, int newton) {
      std::vector<double> row{t};
      std::array<double, 6> err{};
      double worst = 0.0;
      for (int j = 0; j < 6; ++j) row.push_back(angle(j));
      for (int j = 0; j < 6; ++j) {
        err[j] = reference(j, t)[0] - angle(j);
        worst = std::max(worst, std::fabs(err[j]));
        row.push_back(err[j]);
      }
      double drift = 0.0;
      for (const auto& in : joints) drift = std::max(drift, in->y(0).normInf());
      maxDrift = std::max(maxDrift, drift);
      // the deepest box-table gap and the arm's contacts with itself (group 1 both sides)
      const ContactSet& cs = contacts->contacts();
      double gap = INFINITY;
      std::size_t self = 0;
      for (std::size_t c = 0; c < cs.size(); ++c) {
        const auto a = static_cast<std::size_t>(cs.bodyA[c]),
                   bb = static_cast<std::size_t>(cs.bodyB[c]);
        if (a == table || bb == table) gap = std::min(gap, cs.gap[c]);
        if (a >= 2 && a < 8 && bb >= 2 && bb < 8) ++self;
      }
      if (std::isfinite(gap)) minTableGap = std::min(minTableGap, gap);
      maxSelf = std::max(maxSelf, self);
      if (std::fabs(t - 2.0) < 0.5 * h) poseError = worst;
      if (t > 4.5) restError = std::max(restError, worst);
      row.insert(row.end(), {drift, std::isfinite(gap) ? gap : 0.0, static_cast<double>(onTable()),
                             static_cast<double>(self), work, static_cast<double>(newton)});
      csv.row(row);
    };
    writeRow(0.0, 0);
    std::vector<SP::NewtonEulerDS> all = links;
    all.insert(all.end(), boxes.begin(), boxes.end());
    ex::BodyVtkWriter vtk(opt.outputDir, name, all);
    const long N = std::lround(T / h);
    const ex::RunStatistics run =
        ex::runSteps(*sim, N, opt, vtk, [&](double t, const StepStatistics& st) {
          for (const auto& m : motors) work += JointAxisR::work(*m);
          writeRow(t, st.newtonIterations);
        });

    ex::printSummary(name, *sim, run.wallSeconds, "steps");
    std::printf("  time step, steps:        %g, %ld (%.3f ms/step)\n", h, N,
                1e3 * run.wallSeconds / static_cast<double>(N));
    ex::printNewtonRange(run, true);
    if (T >= 2.0)
      std::printf("  first target pose:       max |angle_ref - angle| %.3e rad at t = 2 s\n",
                  poseError);
    if (T > 4.5)
      std::printf("  at rest (t > 4.5 s):     max |angle_ref - angle| %.3e rad\n", restError);
    std::printf("  hinge drift:             max ||y0||inf %.3e (no projection)\n", maxDrift);
    std::printf("  box-table gap:           deepest %.3e m\n", minTableGap);
    std::printf("  arm self-contacts:       at most %zu\n", maxSelf);
    std::printf("  motor work:              %.4f J\n", work);
    std::printf("  boxes:                   %d of 4 still on the table, %d pushed off\n", onTable(),
                4 - onTable());
    ex::printRunFooter(opt, name, csv, vtk,
                       {"ArmPushesBoxes: six-hinge arm, PD servo, boxes pushed off a table",
                        {{2, "yaw", 0},
                         {3, "shoulder", 0},
                         {4, "elbow", 0},
                         {5, "wrist", 0},
                         {8, "error yaw", 1},
                         {9, "error shoulder", 1},
                         {10, "error elbow", 1},
                         {16, "boxes on table", 2}},
                        {"angle (rad)", "tracking error (rad)", "boxes"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 3;
  }
  return ex::exitStatus();
}
